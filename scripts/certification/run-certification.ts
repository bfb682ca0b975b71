// One certification: the kit's verification of a member's seller, with the member's seller
// URL, credentials and stored state map — `verify`, then a bounded `explore`, then `load` only
// when the member declares SLOs — assembled into a verdict, its findings and the JSON report.
// This entry point holds the gateway↔kit edge: the gateway hands it a CertificationSpec and
// takes back a CertificationOutcome, and never imports verification/.
//
// As a process (the worker's children): the spec as JSON on stdin, the outcome as one JSON
// line on stdout, progress on stderr; SIGTERM stops the run within about a second.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTRACT_TAG_PREFIX, CONTRACT_VERSION } from '../../contracts/contract-version';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { PACKAGE_ROOT, packagePath } from '../../shared/package-root';
import type {
  CertificationFinding,
  CertificationOutcome,
  CertificationSpec,
} from '../../gateway/certification/certification-types';
import { verifySeller } from '../../verification/verify/verify-seller';
import { exploreSeller } from '../../verification/explore/explore-seller';
import { loadSeller } from '../../verification/load/load-seller';
import { KitInputError, SellerUnreachableError } from '../../verification/kit-errors';
import type { StateMapFile } from '../../verification/states/state-map';
import type { VerificationReport } from '../../verification/reports/verification-report';
import type { ConformanceReport } from '../../verification/explore/conformance';
import type { LoadReport } from '../../verification/load/load-report';

/** What bounds a certification's runs, so one takes under a minute against an honest seller. */
export interface CertificationBounds {
  exploreRuns: number;
  exploreConcurrency: number;
  exploreTimeLimitMs: number;
  loadConcurrency: number[];
  loadStepSeconds: number;
  loadTimeLimitMs: number;
}

export const DEFAULT_BOUNDS: CertificationBounds = {
  exploreRuns: 60,
  exploreConcurrency: 2,
  exploreTimeLimitMs: 30_000,
  loadConcurrency: [1, 2, 4],
  loadStepSeconds: 5,
  loadTimeLimitMs: 30_000,
};

const MAX_FINDINGS = 200;

let toolkitVersionRead: string | undefined;
/** The version of the toolkit package whose kit ran (packages/toolkit/package.json). */
export function toolkitPackageVersion(): string {
  toolkitVersionRead ??= (
    JSON.parse(readFileSync(packagePath('packages', 'toolkit', 'package.json'), 'utf8')) as { version: string }
  ).version;
  return toolkitVersionRead;
}

/** sha256 of the pact file the run verified against. */
export const pactDigest = (file = PACT_FILE): string =>
  `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;

/**
 * The git ref of the contract release `version` (its `contract-v<version>` tag), when this
 * clone has it: `verify --since` then marks what is new or changed since as pending.
 */
function releaseRef(version: string): string | undefined {
  const tag = `${CONTRACT_TAG_PREFIX}${version}`;
  try {
    execFileSync('git', ['-C', PACKAGE_ROOT, 'rev-parse', '--verify', '--quiet', `refs/tags/${tag}`], {
      stdio: 'ignore',
    });
    return tag;
  } catch {
    return undefined;
  }
}

function verifyFindings(report: VerificationReport): CertificationFinding[] {
  const findings: CertificationFinding[] = [];
  if (report.fatal !== undefined) findings.push({ run: 'verify', rule: 'pact', message: report.fatal });
  if (report.stopped !== undefined)
    findings.push({ run: 'verify', rule: 'incomplete', message: `the run was stopped: ${report.stopped}` });
  for (const i of report.interactions) {
    const base = {
      run: 'verify' as const,
      interaction: i.description,
      ...(i.pending === true ? { pending: true as const } : {}),
    };
    for (const m of i.pactMismatches)
      findings.push({ ...base, rule: 'pact', message: m.message, ...(m.path ? { path: m.path } : {}) });
    if (i.pact === 'failed' && i.pactMismatches.length === 0)
      findings.push({ ...base, rule: 'pact', message: 'Pact failed this interaction' });
    for (const e of i.schemaErrors) findings.push({ ...base, rule: 'reply.schema', path: e.path, message: e.message });
    for (const v of i.violations) findings.push({ ...base, rule: v.rule, path: v.path, message: v.message });
    for (const p of i.problems) findings.push({ ...base, rule: 'problem', message: p });
    if (i.pact === 'not-run') findings.push({ ...base, rule: 'incomplete', message: 'not run' });
  }
  return findings;
}

function exploreFindings(report: ConformanceReport): CertificationFinding[] {
  const findings: CertificationFinding[] = report.failures.map((f) => ({
    run: 'explore',
    rule: f.rule,
    interaction: f.operation,
    path: f.finding.path,
    message: `${f.finding.message} (${f.count} exchange(s); ${f.curl})`,
  }));
  if (report.runs.done === 0)
    findings.push({ run: 'explore', rule: 'incomplete', message: 'no exchange was explored: nothing was measured' });
  if (!report.ok && findings.length === 0)
    findings.push({
      run: 'explore',
      rule: 'conformance',
      message: report.stopped !== undefined ? `stopped: ${report.stopped}` : 'a conformance score is below the minimum',
    });
  return findings;
}

function loadFindings(report: LoadReport): CertificationFinding[] {
  const v = report.verdict;
  const findings: CertificationFinding[] = [
    ...v.rules_broken.map((r) => ({
      run: 'load' as const,
      rule: r.rule,
      message: `broken from level ${r.first_level} (${r.exchanges} exchange(s))`,
    })),
    ...v.slo
      .filter((s) => !s.run_held)
      .map((s) => ({ run: 'load' as const, rule: 'slo', message: `${s.expression} did not hold (${s.run_value})` })),
  ];
  if (!v.ok && findings.length === 0) findings.push({ run: 'load', rule: 'load', message: v.summary });
  return findings;
}

export const REDACTED = '[seller credential]';

/**
 * `value` with the seller's credentials taken out wherever they appear (explore's and load's
 * curl commands carry the request headers): a certificate is read by operators, and kept.
 */
export function withoutCredentials<T>(value: T, headers: Record<string, string>): T {
  const secrets = Object.values(headers)
    .flatMap((v) => [v, v.replace(/^(Bearer|Basic)\s+/i, '')])
    .filter((v) => v.length >= 4)
    .sort((a, b) => b.length - a.length)
    .map((v) => JSON.stringify(v).slice(1, -1));
  if (secrets.length === 0) return value;
  let text = JSON.stringify(value);
  for (const secret of secrets) text = text.split(secret).join(REDACTED);
  return JSON.parse(text) as T;
}

const failed = (i: VerificationReport['interactions'][number]) => i.pact === 'failed' || i.rules === 'failed';

interface KitReports {
  verify: VerificationReport;
  explore?: ConformanceReport;
  load?: LoadReport;
}

/** What `since` did: the last passing version, the tag compared against, and a sentence. */
function sinceOf(spec: CertificationSpec) {
  if (spec.since === null) return undefined;
  const ref = releaseRef(spec.since);
  const note =
    ref !== undefined
      ? `interactions new or changed since ${ref} ran as pending`
      : `no ${CONTRACT_TAG_PREFIX}${spec.since} tag in this clone: the interactions the pact marks pending ran as pending`;
  return { lastPassed: spec.since, ref: ref ?? null, note };
}

async function runKit(
  spec: CertificationSpec,
  signal: AbortSignal,
  bounds: CertificationBounds,
  log: (line: string) => void,
  sinceRef: string | undefined,
): Promise<KitReports> {
  const stateMap = spec.stateMap as StateMapFile;
  const target = { sellerUrl: spec.sellerUrl, headers: spec.headers, timeoutMs: spec.timeoutMs, signal, stateMap };
  // A seed of the job's own: the same job explores the same exchanges when it runs again.
  const seed = (spec.jobId * 7919) % 2 ** 31;
  log(`job ${spec.jobId}: verify ${spec.sellerUrl}`);
  const verify = await verifySeller({
    ...target,
    ...(spec.since !== null ? { pending: true, ...(sinceRef !== undefined ? { since: sinceRef } : {}) } : {}),
  });
  if (signal.aborted) return { verify };
  log(`job ${spec.jobId}: explore (${bounds.exploreRuns} runs at most)`);
  const explore = await exploreSeller({
    ...target,
    runs: bounds.exploreRuns,
    concurrency: bounds.exploreConcurrency,
    timeLimitMs: bounds.exploreTimeLimitMs,
    seed,
  });
  if (spec.slos === null || signal.aborted) return { verify, explore };
  log(`job ${spec.jobId}: load (${spec.slos.join(', ')})`);
  const load = await loadSeller({
    ...target,
    slos: spec.slos,
    concurrency: bounds.loadConcurrency,
    stepSeconds: bounds.loadStepSeconds,
    timeLimitMs: bounds.loadTimeLimitMs,
    seed,
  });
  return { verify, explore, load };
}

/** Passed only when every run that was made passed and measured something. */
function verdictOf(spec: CertificationSpec, { verify, explore, load }: KitReports) {
  const findings = [
    ...verifyFindings(verify),
    ...(explore === undefined
      ? [{ run: 'explore' as const, rule: 'incomplete', message: 'not run: the certification was stopped' }]
      : exploreFindings(explore)),
    ...(load === undefined ? [] : loadFindings(load)),
  ];
  if (spec.slos !== null && load === undefined)
    findings.push({ run: 'load', rule: 'incomplete', message: 'not run: the certification was stopped' });
  const ran = verify.interactions.filter((i) => i.pact !== 'not-offered' && i.pact !== 'not-run');
  if (ran.length === 0)
    findings.push({ run: 'verify', rule: 'incomplete', message: 'no interaction was verified: nothing was measured' });
  const passed =
    verify.ok &&
    !verify.interactions.some(failed) &&
    explore?.ok === true &&
    (spec.slos === null || load?.verdict.ok === true) &&
    findings.length === 0;
  return { passed, findings };
}

/**
 * Runs the certification of `spec` and returns its outcome: a certificate, passed only when
 * every run that was made passed and measured something (a pending interaction that fails
 * fails it too: a certificate for this major covers the new interactions), or an error when
 * the kit refused the input or the seller could not be reached (nothing was certified).
 */
export async function runCertification(
  spec: CertificationSpec,
  signal: AbortSignal,
  options: { bounds?: Partial<CertificationBounds>; log?: (line: string) => void } = {},
): Promise<CertificationOutcome> {
  const bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
  const since = sinceOf(spec);
  let reports: KitReports;
  try {
    reports = await runKit(spec, signal, bounds, options.log ?? (() => {}), since?.ref ?? undefined);
  } catch (error) {
    if (error instanceof KitInputError || error instanceof SellerUnreachableError)
      return { kind: 'error', message: error.message };
    throw error;
  }
  // Stopped (the worker is stopping, or lost its lease): nothing complete was measured, so no certificate.
  if (signal.aborted) return { kind: 'error', message: `stopped before it was complete: ${String(signal.reason)}` };
  const { passed, findings } = withoutCredentials(verdictOf(spec, reports), spec.headers);
  reports = withoutCredentials(reports, spec.headers);
  return {
    kind: 'certificate',
    verdict: passed ? 'passed' : 'failed',
    contractVersion: CONTRACT_VERSION,
    pactDigest: pactDigest(),
    findings: findings.slice(0, MAX_FINDINGS),
    report: {
      verify: reports.verify,
      explore: reports.explore ?? null,
      load: reports.load ?? null,
      bounds: { ...bounds, load: spec.slos === null ? 'not run: the member declares no SLOs' : 'run' },
      ...(since !== undefined ? { since } : {}),
      ...(findings.length > MAX_FINDINGS ? { findingsCut: findings.length - MAX_FINDINGS } : {}),
    },
    toolkitVersion: toolkitPackageVersion(),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const abort = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => abort.abort(`${signal} received`));
  const spec = JSON.parse(await readStdin()) as CertificationSpec;
  const outcome = await runCertification(spec, abort.signal, {
    log: (line) => process.stderr.write(`certification: ${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: Error) => {
    process.stderr.write(`certification: ${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  });
}
