import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionalFieldOf } from '../../../contracts/pact/optional-capabilities';
import type { PactDocument, PactInteraction } from '../../../contracts/pact/pact-file';
import { RULES } from '../../../contracts/reply-rules/violation';
import { startMockSeller, type RunningMockSeller } from '../../../mock-seller/index';
import { checkNotOffered } from '../../states/not-offered';
import { runVerification } from '../../verify/run-verification';
import { interactionReport, type InteractionRun } from '../../reports/verification-report';
import type { SellerContract } from '../seller-contract';
import { CANDIDATE_RULES, isCandidateRule } from './candidate-rules';

// The kit's verdict on the mock seller against a head contract: `runVerification` itself (the
// rules proxy, the kit's state endpoint, the official Pact verifier, one run per interaction),
// on a pact file holding only the interactions asked for. On top, what the kit's own run
// cannot know of a head release: its reply-rule catalogue. A code rule the catalogue no longer
// names is not enforced; a rule it newly names is one of CANDIDATE_RULES, checked on the
// interaction's exchange as the release's code would.

/** The optional fields the mock seller offers; a vendor declares any other optional interaction not offered. */
export const MOCK_OFFERS = new Set(['route_times', 'link_url']);

export interface HeadVerdict {
  ok: boolean;
  /** One line per failure: the interaction and what failed. */
  failures: string[];
  /** The interactions run (or declared not offered). */
  ran: string[];
  /** The reply the mock gave in each interaction run, by description. */
  replies: Map<string, unknown>;
  ms: number;
}

export interface HeadVerifier {
  /** The kit's verdict on the mock seller against `head`, run on the interactions `only` names (all when absent). */
  verify(head: SellerContract, only?: readonly string[]): Promise<HeadVerdict>;
  close(): Promise<void>;
}

const statesOf = (i: PactInteraction) => (i.providerStates ?? []).map((s) => s.name);

/** Failures of one interaction's run under the head catalogue `rules` (undefined: the kit's own). */
function failuresOf(
  run: InteractionRun,
  interaction: PactInteraction | undefined,
  rules: Record<string, string> | undefined,
): string[] {
  const report = interactionReport(run);
  if (report.pact === 'not-offered') return [];
  const enforced = (rule: string) => rules === undefined || rule in rules;
  const lines = [
    ...report.pactMismatches.map((m) => `pact: ${m.path ?? ''} ${m.message}`),
    ...(report.pact === 'failed' && report.pactMismatches.length === 0 ? ['pact: failed'] : []),
    ...report.problems,
    ...report.schemaErrors.map((e) => `schema: ${e.path} ${e.message}`),
    ...report.violations.filter((v) => enforced(v.rule)).map((v) => `${v.rule}: ${v.path} ${v.message}`),
  ];
  const exchange = run.exchanges.at(-1);
  for (const name of Object.keys(rules ?? {}).filter((n) => !(n in RULES))) {
    if (!isCandidateRule(name))
      throw new Error(`the head's catalogue names '${name}': neither a rule of the kit nor a candidate rule`);
    const candidate = CANDIDATE_RULES[name];
    if (exchange?.operation !== candidate.operation || exchange.reply === undefined) continue;
    const broken = candidate.check(exchange.request, exchange.reply);
    if (broken !== undefined) lines.push(`${name}: ${broken}`);
  }
  // Pending: reported, never failing (Pact's pending pacts).
  return interaction?.pending === true ? [] : lines.map((line) => `${run.description}: ${line}`);
}

/** Starts one mock seller (port 0) reused by every verification; they must run one at a time. */
export async function startHeadVerifier(mock?: RunningMockSeller): Promise<HeadVerifier> {
  const seller = mock ?? (await startMockSeller());
  const dir = mkdtempSync(join(tmpdir(), 'compat-agreement-'));
  const file = join(dir, 'head.json');
  let busy = false;
  return {
    async verify(head, only) {
      if (busy) throw new Error('one verification at a time: the mock seller has one live scenario');
      busy = true;
      const started = performance.now();
      try {
        const interactions =
          only === undefined
            ? head.pact.interactions
            : head.pact.interactions.filter((i) => only.includes(i.description));
        const pact: PactDocument = { ...head.pact, interactions };
        writeFileSync(file, JSON.stringify(pact));
        // The vendor of the mock declares every optional interaction
        // whose field it does not offer (alone in its state).
        const declared = interactions
          .filter((i) => optionalFieldOf(i) !== undefined && !MOCK_OFFERS.has(optionalFieldOf(i)!))
          .flatMap(statesOf)
          .filter((state) =>
            interactions.every((i) => !statesOf(i).includes(state) || optionalFieldOf(i) !== undefined),
          );
        const runs: InteractionRun[] = [];
        await runVerification({
          sellerUrl: `${seller.url}/seller`,
          pacts: { kind: 'file', files: [file] },
          states: { kind: 'url', url: `${seller.url}/__admin/provider-state` },
          timeoutMs: 5_000,
          notOffered: checkNotOffered(declared, interactions),
          onInteraction: (run) => runs.push(run),
        });
        const byDescription = new Map(interactions.map((i) => [i.description, i]));
        const failures = runs.flatMap((run) => failuresOf(run, byDescription.get(run.description), head.replyRules));
        const replies = new Map(
          runs.filter((r) => r.exchanges.length > 0).map((r) => [r.description, r.exchanges.at(-1)!.reply]),
        );
        return {
          ok: failures.length === 0,
          failures,
          ran: runs.map((r) => r.description),
          replies,
          ms: performance.now() - started,
        };
      } finally {
        busy = false;
      }
    },
    async close() {
      rmSync(dir, { recursive: true, force: true });
      if (mock === undefined) await seller.close();
    },
  };
}
