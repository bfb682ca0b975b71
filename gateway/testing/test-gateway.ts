import { createTestStore } from './test-store';
import { createDirectory } from '../directory/create-directory';
import type { Directory } from '../directory/directory';
import type { Store } from '../store/store';
import { createSellerClient } from '../seller-client/seller-client';
import type { SellerClient } from '../seller-client/seller-client.types';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { mintDevToken } from '../auth/dev-keys';
import { createGateway, type Gateway } from '../app';
import { gatewayConfig, type GatewayConfig } from '../gateway-config';
import type { Clock } from '../clock';
import type { MintOptions } from '../auth/mint-token';
import type { Speedups } from '../speedups/speedups';

// A whole gateway for in-process tests: a seeded test store, the real directory and seller
// client, and a real mock seller on a free loopback port that every member points at.

export interface TestGateway {
  app: Gateway;
  store: Store;
  directory: Directory;
  sellerClient: SellerClient;
  seller: RunningMockSeller;
  /** Log entries the gateway wrote, newest last. */
  logs: Record<string, unknown>[];
  /** A production-style token for a seeded dev user (demo → dev-key-1, other → dev-key-2). */
  token(user?: 'demo' | 'other', overrides?: Partial<MintOptions>): Promise<string>;
  /** POST a JSON body with a token; returns the response. */
  post(
    path: string,
    body: unknown,
    options?: { user?: 'demo' | 'other'; token?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  config?: Partial<Omit<GatewayConfig, 'auth' | 'protection'>> & {
    auth?: Partial<GatewayConfig['auth']>;
    protection?: Partial<GatewayConfig['protection']>;
  };
  clock?: Clock;
  /** SQL run on the seeded store before the directory is built (e.g. shorter member timeouts). */
  setupSql?: string[];
  /** The instance's drain state (/health answers 503 while it is true). */
  draining?: () => boolean;
  /** What is done fast, what plainly (default: every speed-up); NO_SPEEDUPS for the plain versions. */
  speedups?: Speedups;
}

const KID_OF = { demo: 'dev-key-1', other: 'dev-key-2' } as const;

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const seller = await startMockSeller();
  const store = await createTestStore({ sellerUrl: `${seller.url}/seller` });
  for (const sql of options.setupSql ?? []) await store.query(sql);
  const directory = createDirectory(store);
  // On PostgreSQL the first LISTEN drops the directory's cache once, whenever it connects:
  // before the first case, not between a look-up and the assertion on its cached copy.
  await store.directoryChangesListening?.();
  const sellerClient = createSellerClient({ maxReplyBytes: options.config?.protection?.maxSellerReplyBytes });
  const logs: Record<string, unknown>[] = [];
  const clock = options.clock ?? (() => Date.now());
  const app = createGateway({
    store,
    directory,
    sellerClient,
    clock,
    config: gatewayConfig(options.config),
    logger: (entry) => logs.push(entry),
    draining: options.draining,
    speedups: options.speedups,
  });

  async function token(user: 'demo' | 'other' = 'demo', overrides: Partial<MintOptions> = {}): Promise<string> {
    return mintDevToken(KID_OF[user], { issuedAt: Math.floor(clock() / 1000), ...overrides });
  }

  return {
    app,
    store,
    directory,
    sellerClient,
    seller,
    logs,
    token,
    async post(path, body, opts = {}) {
      const bearer = opts.token ?? (await token(opts.user ?? 'demo'));
      return app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, ...opts.headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async close() {
      await sellerClient.close();
      await seller.close();
      await store.close();
    },
  };
}
