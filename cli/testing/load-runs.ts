import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { readDefaultScenario } from '../../mock-seller/default-scenario';
import type { ScenarioLoad } from '../../contracts/schemas/scenario';
import { startRealisticSeller, type SellerBehaviour } from '../../verification/testing/realistic-sellers';
import type { LoadReport } from '../../verification/load/load-report';
import { runInProcess } from './run-in-process';
import { verifyCommand } from '../verify-command';
import { main } from '../main';

// verify --load runs for a test file: an honest mock seller (its provider states feed every
// run), sellers that misbehave in front of it (realistic-sellers.ts) or mock sellers with a load
// section, each closed after the file; a run (as `verify --load` or as the `load` command) and its
// exit code, output and JSON report.

export function useLoadRuns(name: string) {
  const dir = useTemporaryDirectory(name);
  let honest: RunningMockSeller;
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    honest = await startMockSeller({ scenario: readDefaultScenario() });
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await honest.close();
  });
  let runs = 0;
  return {
    dir,
    /** A seller with `behaviour` in front of the honest mock seller: its endpoint. */
    async sellerThat(behaviour: SellerBehaviour): Promise<string> {
      const seller = await startRealisticSeller(`${honest.url}/seller`, behaviour);
      closers.push(() => seller.close());
      return seller.url;
    },
    /** A mock seller with a load section: its endpoint. */
    async mockWith(load: ScenarioLoad): Promise<string> {
      const mock = await startMockSeller({ scenario: { ...readDefaultScenario(), load } });
      closers.push(() => mock.close());
      return `${mock.url}/seller`;
    },
    /** One run (item inquiries only, seed 3, replay files in the temporary directory). */
    load: (sellerUrl: string, ...args: string[]) => run(verifyCommand, ['--load'], sellerUrl, args),
    /** The same run as a vendor types it: `federated-gateway load …`, through main. */
    loadCommand: (sellerUrl: string, ...args: string[]) => run(main, ['load'], sellerUrl, args),
  };
  async function run(
    command: typeof main,
    head: string[],
    sellerUrl: string,
    args: string[],
  ): Promise<{ code: number; out: { stdout: string; stderr: string }; report: LoadReport }> {
    const json = join(dir.path, `run-${++runs}.json`);
    const argv = [
      ...head,
      '--seller-url',
      sellerUrl,
      '--states-url',
      `${honest.url}/__admin/provider-state`,
      '--seed',
      '3',
      '--mix',
      'item_inquiry=1',
    ];
    const run = await runInProcess(command, [
      ...argv,
      '--json',
      json,
      '--replay-dir',
      join(dir.path, 'replays'),
      ...args,
    ]);
    const report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
    return { code: run.code, out: { stdout: run.stdout, stderr: run.stderr }, report };
  }
}
