import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockSeller, type MockSeller, type MockSellerOptions } from './app';
import { readScenarioFile } from './scenario-file';

export interface StartOptions extends MockSellerOptions {
  /** A scenario object, or the path of a scenario file. */
  scenario: unknown;
  /** 0 picks a free port; the real one is reported. */
  port?: number;
  host?: string;
}

export interface RunningMockSeller {
  /** Base URL, e.g. http://127.0.0.1:40123 (the seller endpoint is `${url}/seller`). */
  url: string;
  port: number;
  seller: MockSeller;
  close(): Promise<void>;
}

/** Starts a mock seller on a port (0 = any free one); close() also drops hanging and keep-alive connections. */
export async function startMockSeller(options: StartOptions): Promise<RunningMockSeller> {
  const { scenario, port = 0, host = '127.0.0.1', ...rest } = options;
  const seller = createMockSeller(typeof scenario === 'string' ? await readScenarioFile(scenario) : scenario, rest);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: seller.app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const actual = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    seller,
    close() {
      closed ??= new Promise<void>((resolve) => {
        seller.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
