// npm run certification -- request <member> [--wait] [--by <name>] [--json]
// npm run certification -- show <job> [--json] | list <member> [--json] | needs [--json]
// npm run certification -- worker [--concurrency N]
//
// Asks for a member's certification, shows a job's certificate and findings, lists a member's
// jobs and certificates and the members needing certification — through the running internal
// API first (INTERNAL_API_URL, credential INTERNAL_API_TOKEN), else on the store itself — and
// runs a certification worker (on the store: DATABASE_URL, else GATEWAY_DATA_DIR, else
// var/pglite). Exit 0 done, 1 refused or a failed certification, 2 bad usage.
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { openGatewayStore } from '../gateway/open-gateway-store';
import { describeStore, storeOptionsFromEnv } from '../gateway/store/store-config';
import type { Store } from '../gateway/store/store';
import { EnvironmentError } from '../shared/environment';
import { internalApiClientFromEnv, isConnectionRefused } from './internal-api-client';
import {
  CertificationCommandError,
  httpCertificationBackend,
  storeCertificationBackend,
  type CertificationBackend,
  type JobJson,
} from './certification/certification-backend';
import { startCertificationWorker } from './certification/worker';

const USAGE = `usage: npm run certification -- <command>
  request <member> [--wait] [--timeout <s>] [--by <name>] [--json]
                          queue the member's certification (or find the open job);
                          --wait: until it ends, exit 1 unless it passed
  show <job> [--json]     a job: its status, certificate, verdict and findings (--json: the report too)
  list <member> [--json]  the member's jobs and certificates, newest first
  needs [--json]          members without a passing certificate for the current contract major
  worker [--concurrency N]
                          run certifications from the queue until Ctrl-C (releases its jobs)
exit 0 done, 1 refused or not passed, 2 bad usage`;

export interface CertificationIo {
  backend: CertificationBackend;
  out: (line: string) => void;
  err: (line: string) => void;
  /** With the store itself (nothing else runs the queue): `request --wait` certifies here. */
  localWorker?: () => { stop(): Promise<void> };
  /** Waits between looks at a job (default 1 s). */
  sleep?: (ms: number) => Promise<void>;
}

class UsageError extends Error {}
const FINAL = new Set(['passed', 'failed', 'error']);

function parse(args: string[], options: ParseArgsConfig['options'], positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals)
    throw new UsageError(positionals === 0 ? 'takes no argument' : `takes ${positionals} argument(s)`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, args: parsed.positionals };
}

const positiveWhole = (text: string, what: string): number => {
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new UsageError(`${what} must be a positive whole number, not '${text}'`);
  return Number(text);
};

function showJob(io: CertificationIo, { job, certificate }: JobJson): void {
  io.out(`job ${job.id}  member ${job.memberId}  ${job.status}  (attempt ${job.attempt}, asked by ${job.requestedBy})`);
  if (job.error !== null) io.out(`  error: ${job.error}`);
  if (certificate === null) return;
  io.out(
    `  certificate ${certificate.id}: ${certificate.verdict.toUpperCase()} for contract ${certificate.contractVersion}, ` +
      `toolkit ${certificate.toolkitVersion}, ${certificate.pactDigest.slice(0, 19)}…, ${certificate.issuedAt}`,
  );
  for (const f of certificate.findings)
    io.out(
      `  - ${f.run} ${f.rule}${f.pending === true ? ' (pending)' : ''}: ${f.interaction ? `${f.interaction}: ` : ''}${f.path ? `${f.path} ` : ''}${f.message}`,
    );
}

async function requestCommand(args: string[], io: CertificationIo): Promise<number> {
  const {
    values,
    args: [member],
  } = parse(
    args,
    { wait: { type: 'boolean' }, timeout: { type: 'string' }, by: { type: 'string' }, json: { type: 'boolean' } },
    1,
  );
  const timeoutMs = positiveWhole(String(values.timeout ?? '900'), '--timeout') * 1000;
  const by = typeof values.by === 'string' && values.by.trim() !== '' ? values.by : userInfo().username || 'operator';
  const { job, created } = await io.backend.request(member, `cli:${by}`);
  io.err(`certification: job ${job.id} of member ${member} ${created ? 'queued' : `already ${job.status}`}`);
  if (values.wait !== true) {
    io.out(values.json === true ? JSON.stringify({ created, job }) : `job ${job.id} ${job.status}`);
    return 0;
  }
  const local = io.localWorker?.();
  const sleep = io.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const shown = await io.backend.show(job.id);
      if (FINAL.has(shown.job.status)) {
        if (values.json === true) io.out(JSON.stringify(shown));
        else showJob(io, shown);
        return shown.job.status === 'passed' ? 0 : 1;
      }
      if (Date.now() > deadline) {
        io.err(
          `certification: job ${job.id} still ${shown.job.status} after ${timeoutMs / 1000} s (is a worker running?)`,
        );
        return 1;
      }
      await sleep(1_000);
    }
  } finally {
    await local?.stop();
  }
}

async function readCommand(command: 'show' | 'list' | 'needs', args: string[], io: CertificationIo) {
  const { values, args: rest } = parse(args, { json: { type: 'boolean' } }, command === 'needs' ? 0 : 1);
  const json = values.json === true;
  if (command === 'show') {
    const shown = await io.backend.show(positiveWhole(rest[0], 'the job id'));
    if (json) io.out(JSON.stringify(shown));
    else showJob(io, shown);
    return;
  }
  if (command === 'list') {
    const listed = await io.backend.list(rest[0]);
    if (json) return io.out(JSON.stringify(listed));
    if (listed.jobs.length === 0) io.out(`member ${listed.memberId}: no certification asked for yet`);
    for (const j of listed.jobs) io.out(`job ${j.id}  ${j.status.padEnd(7)}  ${j.requestedAt}  by ${j.requestedBy}`);
    for (const c of listed.certificates)
      io.out(
        `certificate ${c.id} (job ${c.jobId})  ${c.verdict.padEnd(6)}  contract ${c.contractVersion}  ${c.issuedAt}`,
      );
    return;
  }
  const needs = await io.backend.needs();
  if (json) return io.out(JSON.stringify(needs));
  if (needs.members.length === 0)
    io.out(`every member holds a passing certificate for contract major ${needs.contractMajor}`);
  for (const m of needs.members)
    io.out(
      `${m.memberId.padEnd(12)} ${m.status.padEnd(8)} ${m.reason}` +
        `${m.lastPassed === null ? '' : ` (last passed ${m.lastPassed.contractVersion})`}` +
        `${m.openJobId === null ? '' : `  job ${m.openJobId} open`}`,
    );
}

/** One certification command (not `worker`); the exit code: 0 done, 1 refused or not passed, 2 bad usage. */
export async function runCertificationCommand(argv: string[], io: CertificationIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'request':
        return await requestCommand(rest, io);
      case 'show':
      case 'list':
      case 'needs':
        await readCommand(command, rest, io);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        (command === undefined ? io.err : io.out)(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`certification: ${command ?? ''}: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof CertificationCommandError) {
      io.err(`certification: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

async function runWorker(args: string[]): Promise<number> {
  let concurrency: number;
  try {
    const { values } = parse(args, { concurrency: { type: 'string' } }, 0);
    concurrency = positiveWhole(String(values.concurrency ?? '1'), '--concurrency');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`certification: worker: ${error.message}\n${USAGE}`);
    return 2;
  }
  const store = await openStore();
  if (store === undefined) return 1;
  const worker = startCertificationWorker({ store, concurrency });
  console.error(
    `certification: worker ${worker.workerId} running ${concurrency} at once on ${store.kind}; Ctrl-C stops it`,
  );
  await new Promise<void>((done) => {
    const stop = (signal: string) => {
      console.error(`certification: ${signal}, releasing ${worker.running().length} job(s)`);
      void worker.stop().then(done);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await store.close();
  return 0;
}

async function openStore(): Promise<Store | undefined> {
  try {
    return await openGatewayStore();
  } catch (error) {
    console.error(
      `certification: cannot open the store (${describeStore(storeOptionsFromEnv())}): ${(error as Error).message}`,
    );
    return undefined;
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'worker') return runWorker(argv.slice(1));
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  const { baseUrl, token } = internalApiClientFromEnv();
  try {
    return await runCertificationCommand(argv, { ...io, backend: httpCertificationBackend(baseUrl, token) });
  } catch (error) {
    if (!isConnectionRefused(error)) throw error;
  }
  const store = await openStore();
  if (store === undefined) return 1;
  try {
    return await runCertificationCommand(argv, {
      ...io,
      backend: storeCertificationBackend(store),
      localWorker: () => startCertificationWorker({ store, pollMs: 500 }),
    });
  } finally {
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(
        `certification: ${error instanceof EnvironmentError ? error.message : ((error as Error).stack ?? error)}`,
      );
      process.exitCode = error instanceof EnvironmentError ? 2 : 1;
    },
  );
}
