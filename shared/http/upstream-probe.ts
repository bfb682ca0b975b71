import { connect } from 'node:net';

// Before a proxy starts: can the upstream's host and port be reached at all? A clear message
// now beats a 502 on every exchange later.
export function probeUpstream(url: string, timeoutMs = 3_000): Promise<string | undefined> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no connection to ${host}:${port} within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`${host}:${port} cannot be reached (${error.code ?? error.message})`));
  });
}
