import { optionalFieldOf } from '../../../contracts/pact/optional-capabilities';
import type { PactDocument } from '../../../contracts/pact/pact-file';
import { CANDIDATE_RULES, type CandidateRuleName } from './candidate-rules';
import {
  dropUnder,
  expressionOf,
  isArraySite,
  isLeaf,
  isObjectSite,
  keyFor,
  parentOf,
  sitesOf,
  type Site,
} from './pact-sites';
import type { Random } from './seeded-random';

// One kind of change to a head contract each: it changes the pact (or its rule catalogue) in
// place and says what it did, or returns undefined when the pact offers it no place to land.
// Together they cover what the policy names: matchers, examples, fields, rules, interactions,
// provider states. Pacts are mutated through `any`: a mutation reaches anywhere in a pact.

export interface MutationContext {
  pact: PactDocument;
  /** The head's reply-rule catalogue. */
  rules: Record<string, string>;
  random: Random;
  /** The mock seller's reply to each base interaction, by description (fields it sends that the pact omits). */
  observed: ReadonlyMap<string, unknown>;
  /**
   * Descriptions the change reaches beyond the interactions it edits (a new rule: every interaction of its operation).
   */
  reach: Set<string>;
}

type Mutation = (ctx: MutationContext) => string | undefined;

const OPERATION_OF_SERVICE = {
  item_inquiry: 'item-inquiry',
  place_order: 'place-order',
  invoice: 'invoice',
  statement: 'statement',
} as const;
const serviceOf = (i: any): string => String(i.request?.body?.content?.service ?? '');

const required = (ctx: MutationContext) =>
  ctx.pact.interactions.filter((i) => optionalFieldOf(i) === undefined && i.pending !== true);
const anyInteraction = (ctx: MutationContext): any => ctx.random.pick(ctx.pact.interactions);
const replyRules = (i: any): Record<string, any> =>
  ((i.response.matchingRules ??= {}).body ??= {}) as Record<string, any>;
const sitesIn = (content: unknown, keep: (s: Site) => boolean) =>
  sitesOf(content).filter((s) => s.path.length > 0 && keep(s));
const shown = (s: Site) => expressionOf(s.path);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex of the example's shape: letters and digits as classes, the rest literal. */
const shapeOf = (example: string) =>
  `^${example
    .replace(/[A-Z]+/g, '\u0001')
    .replace(/[a-z]+/g, '\u0002')
    .replace(/\d+/g, '\u0003')
    .split('')
    .map((c) => (c === '\u0001' ? '[A-Z]+' : c === '\u0002' ? '[a-z]+' : c === '\u0003' ? '\\d+' : escapeRegex(c)))
    .join('')}$`;

/**
 * A leaf of some interaction's reply, with the interaction and
 * the key of the matching rule that governs it (or its own).
 */
function replyLeaf(ctx: MutationContext, keep: (s: Site) => boolean = () => true) {
  const interaction = anyInteraction(ctx);
  const leaves = sitesIn(interaction.response.body?.content, (s) => isLeaf(s) && s.value !== null && keep(s));
  if (leaves.length === 0) return undefined;
  const site = ctx.random.pick(leaves);
  const rules = replyRules(interaction);
  return { interaction, site, rules, key: keyFor(rules, site.path) ?? expressionOf(site.path) };
}

const setMatcher = (rules: Record<string, any>, key: string, matcher: Record<string, unknown>) => {
  const bounds = (rules[key]?.matchers ?? []).find((m: any) => m.min !== undefined || m.max !== undefined);
  // An array's bounds stay with it: only the check changes.
  rules[key] = {
    combine: 'AND',
    matchers: [
      {
        ...matcher,
        ...(bounds?.min !== undefined ? { min: bounds.min } : {}),
        ...(bounds?.max !== undefined ? { max: bounds.max } : {}),
      },
    ],
  };
};

const NEW_FIELDS: [string, unknown][] = [
  ['currency', 'USD'],
  ['eta_days', 2],
  ['warehouse_note', 'dock 4'],
  ['core_charge', 12.5],
];
const OPTIONAL_FIELDS = ['gift_wrap', 'core_charge', 'delivery_window', 'hazmat_class'];

/** A copy of a required interaction under a new description (and states when `newState`). */
function copyOf(ctx: MutationContext, suffix: string, newState: boolean): any {
  const original: any = ctx.random.pick(required(ctx));
  const copy: any = structuredClone(original);
  copy.description = `${original.description} (${suffix} ${ctx.random.int(1, 999)})`;
  if (newState) for (const s of copy.providerStates ?? []) s.name = `${s.name}, ${suffix}`;
  ctx.pact.interactions.push(copy);
  return copy;
}

export const MUTATIONS = {
  'matcher-regex': (ctx) => {
    const leaf = replyLeaf(ctx);
    if (leaf === undefined) return undefined;
    const example = String(leaf.site.value);
    const regex = ctx.random.pick([
      shapeOf(example),
      `^${escapeRegex(example)}$`,
      '^.*$',
      `^${escapeRegex(example.slice(0, 2))}`,
      '^#never#$',
    ]);
    setMatcher(leaf.rules, leaf.key, { match: 'regex', regex });
    return `${leaf.interaction.description} ${leaf.key}: regex /${regex}/`;
  },
  'matcher-number': (ctx) => {
    const leaf = replyLeaf(ctx, (s) => typeof s.value === 'number');
    if (leaf === undefined) return undefined;
    const match = ctx.random.pick(['integer', 'decimal', 'number', 'type']);
    setMatcher(leaf.rules, leaf.key, { match });
    return `${leaf.interaction.description} ${leaf.key}: ${match}`;
  },
  'matcher-include': (ctx) => {
    const leaf = replyLeaf(ctx, (s) => typeof s.value === 'string' && s.value !== '');
    if (leaf === undefined) return undefined;
    const value = ctx.random.chance(0.5) ? String(leaf.site.value).slice(0, 3) : 'zz';
    setMatcher(leaf.rules, leaf.key, { match: 'include', value });
    return `${leaf.interaction.description} ${leaf.key}: include '${value}'`;
  },
  'matcher-loosened': (ctx) => {
    const leaf = replyLeaf(ctx);
    if (leaf === undefined) return undefined;
    setMatcher(leaf.rules, leaf.key, { match: 'type' });
    return `${leaf.interaction.description} ${leaf.key}: type`;
  },
  'array-bounds': (ctx) => {
    const interaction = anyInteraction(ctx);
    const arrays = sitesIn(interaction.response.body?.content, isArraySite);
    if (arrays.length === 0) return undefined;
    const site = ctx.random.pick(arrays);
    const rules = replyRules(interaction);
    const key = keyFor(rules, site.path) ?? expressionOf(site.path);
    const min = ctx.random.chance(0.6) ? ctx.random.int(0, 3) : undefined;
    const max = min === undefined || ctx.random.chance(0.3) ? ctx.random.int(Math.max(1, min ?? 1), 4) : undefined;
    rules[key] = {
      combine: 'AND',
      matchers: [{ match: 'type', ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) }],
    };
    return `${interaction.description} ${key}: type, min ${min ?? '-'}, max ${max ?? '-'}`;
  },
  'example-changed': (ctx) => {
    const leaf = replyLeaf(ctx);
    if (leaf === undefined) return undefined;
    const v = leaf.site.value;
    const changed = ctx.random.chance(0.2)
      ? typeof v === 'string'
        ? 7
        : String(v)
      : typeof v === 'string'
        ? `${v}-2`
        : typeof v === 'number'
          ? ctx.random.pick([v + 1, v * 2 + 0.5, 0])
          : !v;
    const at = parentOf(leaf.interaction.response.body.content, leaf.site.path)!;
    (at.parent as any)[at.key] = changed;
    return `${leaf.interaction.description} ${shown(leaf.site)}: example ${JSON.stringify(v)} → ${JSON.stringify(changed)}`;
  },
  'reply-field-added': (ctx) => {
    const interaction = anyInteraction(ctx);
    const objects = sitesOf(interaction.response.body?.content).filter(isObjectSite);
    if (objects.length === 0) return undefined;
    const site = ctx.random.pick(objects);
    // Half the time a field the mock seller does send but the pact leaves out.
    const seen = sitesOf(ctx.observed.get(interaction.description)).find(
      (s) => JSON.stringify(s.path) === JSON.stringify(site.path),
    )?.value;
    const sent = Object.entries((seen ?? {}) as Record<string, unknown>).filter(
      ([k, v]) => !(k in (site.value as object)) && (v === null || typeof v !== 'object'),
    );
    const [name, value] =
      sent.length > 0 && ctx.random.chance(0.5) ? ctx.random.pick(sent) : ctx.random.pick(NEW_FIELDS);
    (site.value as Record<string, unknown>)[name] = value;
    const typed = ctx.random.chance(0.7);
    if (typed)
      replyRules(interaction)[expressionOf([...site.path, name])] = { combine: 'AND', matchers: [{ match: 'type' }] };
    return `${interaction.description} ${expressionOf([...site.path, name])}: new field ${JSON.stringify(value)}${typed ? ' (type)' : ''}`;
  },
  'reply-field-removed': (ctx) => {
    const interaction = anyInteraction(ctx);
    const fields = sitesIn(interaction.response.body?.content, (s) => typeof s.path[s.path.length - 1] === 'string');
    if (fields.length === 0) return undefined;
    const site = ctx.random.pick(fields);
    const at = parentOf(interaction.response.body.content, site.path)!;
    delete (at.parent as any)[at.key];
    dropUnder(interaction.response.matchingRules?.body, site.path);
    dropUnder(interaction.response.generators?.body, site.path);
    return `${interaction.description} ${shown(site)}: removed`;
  },
  'request-field-added': (ctx) => {
    const interaction = anyInteraction(ctx);
    const content = interaction.request.body.content;
    const target = Array.isArray(content.items) && ctx.random.chance(0.5) ? content.items[0] : content;
    const name = ctx.random.pick(['note', 'priority', 'channel']);
    target[name] = name === 'priority' ? 1 : 'buyer-app';
    return `${interaction.description} request ${target === content ? '' : 'items[0].'}${name}: added`;
  },
  'request-field-removed': (ctx) => {
    const interaction = anyInteraction(ctx);
    const fields = sitesIn(
      interaction.request.body.content,
      (s) => typeof s.path[s.path.length - 1] === 'string' && s.path[s.path.length - 1] !== 'service',
    );
    if (fields.length === 0) return undefined;
    const site = ctx.random.pick(fields);
    const at = parentOf(interaction.request.body.content, site.path)!;
    delete (at.parent as any)[at.key];
    dropUnder(interaction.request.matchingRules?.body, site.path);
    dropUnder(interaction.request.generators?.body, site.path);
    return `${interaction.description} request ${shown(site)}: removed`;
  },
  'request-field-renamed': (ctx) => {
    const interaction = anyInteraction(ctx);
    const fields = sitesIn(
      interaction.request.body.content,
      (s) => isLeaf(s) && typeof s.path[s.path.length - 1] === 'string' && s.path[s.path.length - 1] !== 'service',
    );
    if (fields.length === 0) return undefined;
    const site = ctx.random.pick(fields);
    const at = parentOf(interaction.request.body.content, site.path)!;
    const renamed = `${String(at.key)}_v2`;
    (at.parent as any)[renamed] = site.value;
    delete (at.parent as any)[at.key];
    const to = [...site.path.slice(0, -1), renamed];
    for (const part of [interaction.request.matchingRules?.body, interaction.request.generators?.body]) {
      const key = part?.[expressionOf(site.path)];
      if (key === undefined) continue;
      delete part[expressionOf(site.path)];
      part[expressionOf(to)] = key;
    }
    return `${interaction.description} request ${shown(site)} → ${renamed}`;
  },
  'reply-rule-added': (ctx) => {
    const names = (Object.keys(CANDIDATE_RULES) as CandidateRuleName[]).filter((n) => !(n in ctx.rules));
    if (names.length === 0) return undefined;
    const name = ctx.random.pick(names);
    ctx.rules[name] = CANDIDATE_RULES[name].description;
    for (const i of ctx.pact.interactions)
      if (OPERATION_OF_SERVICE[serviceOf(i) as keyof typeof OPERATION_OF_SERVICE] === CANDIDATE_RULES[name].operation)
        ctx.reach.add(i.description);
    return `catalogue: + ${name}`;
  },
  'reply-rule-removed-or-reworded': (ctx) => {
    const name = ctx.random.pick(Object.keys(ctx.rules));
    if (ctx.random.chance(0.5)) delete ctx.rules[name];
    else ctx.rules[name] = `${ctx.rules[name]} (reworded)`;
    return `catalogue: ${name in ctx.rules ? '~' : '-'} ${name}`;
  },
  'interaction-removed': (ctx) => {
    const gone: any = anyInteraction(ctx);
    ctx.pact.interactions = ctx.pact.interactions.filter((i) => i !== gone);
    return `- ${gone.description}`;
  },
  'interaction-added': (ctx) => {
    const variant = ctx.random.pick(['new state', 'state value', 'reply example', 'reply field']);
    const copy = copyOf(ctx, 'variant', variant === 'new state');
    const params = copy.providerStates?.[0]?.params ?? {};
    const stringParam = Object.keys(params).find(
      (k) => typeof params[k] === 'string' && k !== 'member' && k !== 'account',
    );
    if (variant === 'state value' && stringParam !== undefined) params[stringParam] = `${params[stringParam]}9`;
    if (variant === 'reply example') copy.response.body.content.status_code = 2001;
    if (variant === 'reply field') copy.response.body.content.currency = 'USD';
    return `+ ${copy.description} (${variant})`;
  },
  'interaction-added-optional': (ctx) => {
    const copy = copyOf(ctx, 'optional', true);
    copy.comments = { ...(copy.comments ?? {}), optional_field: ctx.random.pick(OPTIONAL_FIELDS) };
    copy.response.body.content[copy.comments.optional_field] = 'yes';
    return `+ ${copy.description} (optional: ${copy.comments.optional_field})`;
  },
  'interaction-added-pending': (ctx) => {
    const copy = copyOf(ctx, 'pending', ctx.random.chance(0.5));
    copy.pending = true;
    copy.response.body.content.currency = 'USD';
    return `+ ${copy.description} (pending)`;
  },
  'interaction-made-pending-or-required': (ctx) => {
    const interaction: any = anyInteraction(ctx);
    if (optionalFieldOf(interaction) !== undefined) {
      delete interaction.comments.optional_field;
      return `${interaction.description}: now required`;
    }
    interaction.pending = !interaction.pending;
    return `${interaction.description}: pending ${String(interaction.pending)}`;
  },
  'state-renamed': (ctx) => {
    const interaction: any = anyInteraction(ctx);
    const state = interaction.providerStates?.[0];
    if (state === undefined) return undefined;
    const others = [
      ...new Set(ctx.pact.interactions.flatMap((i) => (i.providerStates ?? []).map((s) => s.name))),
    ].filter((n) => n !== state.name);
    const was = state.name;
    state.name = ctx.random.chance(0.3) && others.length > 0 ? ctx.random.pick(others) : `${was} (v2)`;
    return `${interaction.description} state '${was}' → '${state.name}'`;
  },
  'state-params-changed': (ctx) => {
    const interaction: any = anyInteraction(ctx);
    const params = interaction.providerStates?.[0]?.params;
    if (params === undefined) return undefined;
    const names = Object.keys(params);
    const name = ctx.random.pick(names);
    const how = ctx.random.pick(['value', 'renamed', 'added']);
    if (how === 'value') params[name] = typeof params[name] === 'number' ? params[name] + 1 : `${params[name]}9`;
    else if (how === 'renamed') {
      params[`${name}_id`] = params[name];
      delete params[name];
    } else params.channel = 'web';
    return `${interaction.description} state params: ${how} ${how === 'added' ? 'channel' : name}`;
  },
  'reply-status-changed': (ctx) => {
    const interaction: any = anyInteraction(ctx);
    interaction.response.status = ctx.random.pick([201, 404]);
    return `${interaction.description} status ${interaction.response.status}`;
  },
} as const satisfies Record<string, Mutation>;

export type MutationKind = keyof typeof MUTATIONS;
export const MUTATION_KINDS = Object.keys(MUTATIONS) as MutationKind[];
