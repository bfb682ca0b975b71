import { connect } from 'node:net';

// Before a proxy starts: can the upstream's host and port be reached at all? A clear message
// now beats a 502 on every exchange later.

/** Why a TCP connection did not open: refused or failed (the error's code), or no answer in time. */
export type ProbeFailure = { host: string; port: number } & (
  { kind: 'failed'; code: string } | { kind: 'timeout'; timeoutMs: number }
);

/** Whether a TCP connection to the URL's host and port opens within `timeoutMs`: undefined when it does. */
export function probeTcp(url: string | URL, timeoutMs = 3_000): Promise<ProbeFailure | undefined> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (failure: ProbeFailure | undefined) => {
      socket.destroy();
      resolve(failure);
    };
    socket.setTimeout(timeoutMs, () => done({ host, port, kind: 'timeout', timeoutMs }));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({ host, port, kind: 'failed', code: error.code ?? error.message }),
    );
  });
}

/** The upstream's problem in the kit's words (verify, rules-proxy), or undefined when it can be reached. */
export async function probeUpstream(url: string, timeoutMs = 3_000): Promise<string | undefined> {
  const failure = await probeTcp(url, timeoutMs);
  if (failure === undefined) return undefined;
  const { host, port } = failure;
  return failure.kind === 'timeout'
    ? `no connection to ${host}:${port} within ${failure.timeoutMs} ms`
    : `${host}:${port} cannot be reached (${failure.code})`;
}
