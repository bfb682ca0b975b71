import { optionalFieldOf } from '../../../contracts/pact/optional-capabilities';
import { REPLY_RULES_METADATA_KEY } from '../../../contracts/pact/contract-metadata';
import type { PactInteraction } from '../../../contracts/pact/pact-file';
import { sellerContractOf, type SellerContract } from '../seller-contract';
import { MUTATION_KINDS, MUTATIONS, type MutationContext, type MutationKind } from './head-mutations';
import { seededRandom, type Random } from './seeded-random';

// Random heads from a base contract, reproducible: head n of seed s is the same on every run
// and does not depend on how many came before it. Most heads carry one mutation, one in five a
// combination of two or three. Each says which interactions its verification must run: those
// it changed or added, those a new reply rule reaches, and one it left alone, as a witness
// that the rest of the pact still holds.

export type HeadKind = MutationKind | 'combination';

export interface GeneratedHead {
  index: number;
  kind: HeadKind;
  /** What each mutation did, in order. */
  changes: string[];
  head: SellerContract;
  /** Descriptions of head interactions to verify. */
  verify: string[];
}

const canonical = (i: PactInteraction) => JSON.stringify(i);

function mutate(kind: MutationKind, ctx: MutationContext): string {
  // A mutation with no place to land in the interaction it drew tries another draw.
  for (let attempt = 0; attempt < 8; attempt++) {
    const change = MUTATIONS[kind](ctx);
    if (change !== undefined) return change;
  }
  return `${kind}: no place to land`;
}

function headOf(
  base: SellerContract,
  observed: ReadonlyMap<string, unknown>,
  random: Random,
  index: number,
): GeneratedHead {
  const pact = structuredClone(base.pact);
  const rules = { ...base.replyRules };
  const ctx: MutationContext = { pact, rules, random, observed, reach: new Set() };
  const kinds: MutationKind[] = random.chance(0.2)
    ? Array.from({ length: random.int(2, 3) }, () => random.pick(MUTATION_KINDS))
    : [random.pick(MUTATION_KINDS)];
  const changes = kinds.map((kind) => `${kind}: ${mutate(kind, ctx)}`);
  pact.metadata = { ...pact.metadata, [REPLY_RULES_METADATA_KEY]: rules };
  const before = new Map(base.pact.interactions.map((i) => [i.description, canonical(i)]));
  const changed = pact.interactions.filter((i) => before.get(i.description) !== canonical(i)).map((i) => i.description);
  const alone = pact.interactions.filter(
    (i) =>
      !changed.includes(i.description) &&
      !ctx.reach.has(i.description) &&
      optionalFieldOf(i) === undefined &&
      i.pending !== true,
  );
  const verify = new Set([...changed, ...ctx.reach]);
  if (alone.length > 0) verify.add(random.pick(alone).description);
  return {
    index,
    kind: kinds.length === 1 ? kinds[0] : 'combination',
    changes,
    head: sellerContractOf(pact, `generated head #${index}`),
    verify: pact.interactions.map((i) => i.description).filter((d) => verify.has(d)),
  };
}

/** Head `index` of `seed`: the same on every run. */
export function generateHead(
  base: SellerContract,
  observed: ReadonlyMap<string, unknown>,
  seed: number,
  index: number,
): GeneratedHead {
  return headOf(base, observed, seededRandom((seed * 1_000_003 + index) >>> 0), index);
}
