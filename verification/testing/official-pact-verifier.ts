import { spawn } from 'node:child_process';
import { pactBinary } from '../verify/pact-cli';

// The official Rust `pact verifier`, spawned as a vendor runs it by hand: tests use it to
// prove the pact and the rules proxy work with a verifier that is not ours.

export interface VerifierRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `pact verifier --file <pact> --hostname/--port of baseUrl [extra]`, no colour. */
export function runOfficialVerifier(pactFile: string, baseUrl: string, extra: string[] = []): Promise<VerifierRun> {
  const url = new URL(baseUrl);
  const args = [
    'verifier',
    '--file',
    pactFile,
    '--hostname',
    url.hostname,
    '--port',
    url.port,
    '--no-colour',
    ...(url.pathname !== '/' ? ['--base-path', url.pathname] : []),
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(pactBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
