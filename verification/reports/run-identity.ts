import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import { packagePath } from '../../shared/package-root';
import { replyMatchersOf, type ReplyMatchers } from '../verify/pact-matchers';

// What a report judged, so a verdict can be traced to the exact run: the toolkit and contract
// versions, the pact's bytes (sha256), the seller, when the run started and how long it took.
// Built once where a run starts, finished where its report is built, and carried by the report
// itself, so every form (text, JSON, JUnit, CTRF, HTML) names the same facts from one home.

/** A pact a run read: its path as given, and the sha256 of its bytes (hex). */
export interface PactIdentity {
  file: string;
  sha256: string;
}

export interface RunIdentity {
  /** The toolkit's version (the package's, as `federated-gateway --version` prints it). */
  toolkitVersion: string;
  /** The contract's own version (contracts/contract-version.ts). */
  contractVersion: string;
  /** The pact files verified; empty when none was read (a broker's pacts, or generated exchanges). */
  pacts: PactIdentity[];
  /** Where the pacts came from when not files: the broker's URL. */
  pactBroker?: string;
  sellerUrl: string;
  /** ISO 8601, UTC. */
  startedAt: string;
  durationMs: number;
}

/** A run under way: its identity but for its length, and the pacts' reply matchers (for the mismatch texts). */
export type RunStart = Omit<RunIdentity, 'durationMs'> & { startedMs: number; replyMatchers?: ReplyMatchers };

let toolkitVersionRead: string | undefined;
/** The package's version, read once from the package.json beside the code (as `--version` reads it). */
export function toolkitVersion(): string {
  toolkitVersionRead ??= (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  return toolkitVersionRead;
}

/** The sha256 of a file's bytes, hex. */
export const fileSha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The identity of a run starting now. */
export function startRun(
  sellerUrl: string,
  pacts: { files: readonly string[] } | { broker: string } | 'none',
): RunStart {
  const startedMs = Date.now();
  const files = typeof pacts === 'object' && 'files' in pacts ? pacts.files : [];
  return {
    toolkitVersion: toolkitVersion(),
    contractVersion: CONTRACT_VERSION,
    pacts: files.map((file) => ({ file, sha256: fileSha256(file) })),
    ...(typeof pacts === 'object' && 'broker' in pacts ? { pactBroker: pacts.broker } : {}),
    sellerUrl,
    startedAt: new Date(startedMs).toISOString(),
    startedMs,
    ...(files.length > 0 ? { replyMatchers: replyMatchersOf(files) } : {}),
  };
}

/** The identity of a run that ends now. */
export function finishRun(start: RunStart, endMs = Date.now()): RunIdentity {
  return {
    toolkitVersion: start.toolkitVersion,
    contractVersion: start.contractVersion,
    pacts: start.pacts,
    ...(start.pactBroker !== undefined ? { pactBroker: start.pactBroker } : {}),
    sellerUrl: start.sellerUrl,
    startedAt: start.startedAt,
    durationMs: Math.max(0, Math.round(endMs - start.startedMs)),
  };
}

/** The first 12 hex digits: enough to tell two pacts apart in a line of text. */
export const shortDigest = (sha256: string): string => sha256.slice(0, 12);

/** The pact(s) a run judged, in a few words: `pact.json (sha256 1a2b3c4d5e6f)`. */
export function pactsText(run: RunIdentity, short = true): string {
  if (run.pacts.length > 0)
    return run.pacts.map((p) => `${p.file} (sha256 ${short ? shortDigest(p.sha256) : p.sha256})`).join(', ');
  if (run.pactBroker !== undefined)
    return `the pacts of the broker ${run.pactBroker} (their bytes not seen by the kit)`;
  return "none (generated exchanges, judged by the contract's schemas and reply rules)";
}

/** A duration as people read it: `840 ms`, `12.3 s`, `4 min 05 s`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** The identity as labelled lines, the same in every form (text, JUnit properties, HTML, CTRF). */
export function identityEntries(run: RunIdentity, short = true): [label: string, value: string][] {
  return [
    ['toolkit', run.toolkitVersion],
    ['contract', run.contractVersion],
    ['pact', pactsText(run, short)],
    ['seller', run.sellerUrl],
    ['started', run.startedAt],
    ['duration', durationText(run.durationMs)],
  ];
}

/** The identity as text lines under a report's title. */
export const identityLines = (run: RunIdentity, indent = '  '): string[] =>
  identityEntries(run).map(([label, value]) => `${indent}${`${label}:`.padEnd(10)}${value}`);

/**
 * The identity as name/value pairs for machine readers (JUnit `<properties>`, CTRF `extra`):
 * every pact's whole digest, the duration in milliseconds.
 */
export function identityProperties(run: RunIdentity): [name: string, value: string][] {
  return [
    ['toolkit.version', run.toolkitVersion],
    ['contract.version', run.contractVersion],
    ...run.pacts.flatMap((p): [string, string][] => [
      ['pact.file', p.file],
      ['pact.sha256', p.sha256],
    ]),
    ...(run.pactBroker !== undefined ? [['pact.broker', run.pactBroker] as [string, string]] : []),
    ['seller.url', run.sellerUrl],
    ['run.started', run.startedAt],
    ['run.duration_ms', String(run.durationMs)],
  ];
}
