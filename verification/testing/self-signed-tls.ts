import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A key and a self-signed certificate for 127.0.0.1, made by openssl when a test asks: no
// secret lives in the repository, and nothing is left in /tmp.

export interface SelfSignedTls {
  key: string;
  cert: string;
}

export function selfSignedTls(): SelfSignedTls {
  const directory = mkdtempSync(join(tmpdir(), 'self-signed-'));
  try {
    const key = join(directory, 'key.pem');
    const cert = join(directory, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
        '-keyout',
        key,
        '-out',
        cert,
      ]),
      { stdio: 'ignore', env: { ...process.env, RANDFILE: join(directory, '.rnd') } },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
