import { optionalFieldOf } from '../../contracts/pact/optional-capabilities';
import type { CompatFinding } from './compat-finding';
import { compareInteractions } from './interaction-compat';
import { pairInteractions } from './interaction-pairing';
import type { SellerContract } from './seller-contract';
import { sellerFinding } from './seller-policy';

// The classifier for seller systems: every change between two seller contracts, each under a
// rule of the policy (seller-policy.ts). Pure: contracts in, findings out; no file, no git.

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const specOf = (c: SellerContract) =>
  (c.pact.metadata?.pactSpecification as { version?: unknown } | undefined)?.version;

function compareReplyRules(base: Record<string, string>, head: Record<string, string>): CompatFinding[] {
  const where = 'reply-rule catalogue';
  const findings: CompatFinding[] = [];
  for (const name of Object.keys(head).sort()) {
    const pointer = `/metadata/replyRules/${escape(name)}`;
    if (!(name in base))
      findings.push(
        sellerFinding(
          'reply-rule-added',
          where,
          pointer,
          { head: head[name] },
          `new reply rule ${name}: ${head[name]}`,
        ),
      );
    else if (base[name] !== head[name])
      findings.push(
        sellerFinding(
          'reply-rule-reworded',
          where,
          pointer,
          { base: base[name], head: head[name] },
          `reply rule ${name} is described anew`,
        ),
      );
  }
  for (const name of Object.keys(base).sort()) {
    if (!(name in head))
      findings.push(
        sellerFinding(
          'reply-rule-removed',
          where,
          `/metadata/replyRules/${escape(name)}`,
          { base: base[name] },
          `reply rule ${name} is no longer enforced`,
        ),
      );
  }
  return findings;
}

/** Every change from `base` to `head` for a seller system, classified. Identical contracts: []. */
export function compareSellerContracts(base: SellerContract, head: SellerContract): CompatFinding[] {
  const findings: CompatFinding[] = [];
  if (specOf(base) !== specOf(head))
    findings.push(
      sellerFinding(
        'pact-specification-changed',
        'pact',
        '/metadata/pactSpecification/version',
        { base: specOf(base), head: specOf(head) },
        'the Pact specification version changed',
      ),
    );
  const byDescription = (a: { description: string }, b: { description: string }) =>
    a.description < b.description ? -1 : a.description > b.description ? 1 : 0;
  const { pairs, removed, added } = pairInteractions(base.pact.interactions, head.pact.interactions);
  for (const pair of [...pairs].sort((a, b) => byDescription(a.head, b.head)))
    findings.push(...compareInteractions(pair.base, pair.head));
  for (const interaction of [...added].sort(byDescription)) {
    const optional = optionalFieldOf(interaction);
    const rule =
      optional !== undefined
        ? 'interaction-added-optional'
        : interaction.pending === true
          ? 'interaction-added-pending'
          : 'interaction-added';
    const message =
      optional !== undefined
        ? `a new optional interaction (for '${optional}'): a seller that does not offer it leaves it out`
        : interaction.pending === true
          ? 'a new pending interaction: reported, never failing, until a later release requires it'
          : 'a new required interaction: every seller must implement it';
    findings.push(
      sellerFinding(
        rule,
        interaction.description,
        '',
        { head: interaction.providerStates?.map((s) => s.name) },
        message,
      ),
    );
  }
  for (const interaction of [...removed].sort(byDescription))
    findings.push(
      sellerFinding(
        'interaction-removed',
        interaction.description,
        '',
        { base: interaction.providerStates?.map((s) => s.name) },
        'the interaction is no longer in the pact',
      ),
    );
  if (base.replyRules !== undefined && head.replyRules !== undefined)
    findings.push(...compareReplyRules(base.replyRules, head.replyRules));
  return findings;
}

/** What the comparison could not see, said beside its findings. */
export function comparisonNotes(base: SellerContract, head: SellerContract): string[] {
  const notes: string[] = [];
  for (const [side, c] of [
    ['base', base],
    ['head', head],
  ] as const) {
    if (c.replyRules === undefined)
      notes.push(`${side} (${c.source}) names no reply-rule catalogue: reply rules were not compared`);
    if (c.version === undefined)
      notes.push(`${side} (${c.source}) states no contract version (a pact from before 3.2.0)`);
  }
  return notes;
}
