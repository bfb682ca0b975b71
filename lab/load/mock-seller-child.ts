import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMockSeller } from '../../mock-seller/index';
import { readDefaultScenario } from '../../mock-seller/default-scenario';

// A bench's honest mock seller in a child process (so the driver it measures steals none of its
// CPU): the bench script forks itself with --serve, and that child serves and reports its URL.

/** In the child (--serve): serves the default scenario, reports its URL, exits when the parent lets go. True there. */
export async function servedAsMockSellerChild(): Promise<boolean> {
  if (!process.argv.includes('--serve')) return false;
  const mock = await startMockSeller({ scenario: await readDefaultScenario() });
  process.send!({ url: mock.url });
  process.on('disconnect', () => void mock.close().then(() => process.exit(0)));
  return true;
}

/** In the parent: forks `scriptUrl` (the bench's import.meta.url) with --serve; disconnect the child to stop it. */
export async function forkMockSeller(scriptUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(scriptUrl), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve) =>
    child.once('message', (m) => resolve(m as { url: string })),
  );
  return { url, child };
}
