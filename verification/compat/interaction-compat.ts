import type { PactInteraction } from '../../contracts/pact/pact-file';
import { OPTIONAL_COMMENT_KEY, optionalFieldOf } from '../../contracts/pact/optional-capabilities';
import type { CompatFinding } from './compat-finding';
import { parseRulePath } from './pact-rule-paths';
import { compareReplyBodies } from './reply-compat';
import { expectationAt, type MatchingRule } from './reply-expectation';
import { compareRequestBodies, compareRequestGenerators, compareRequestMatchers } from './request-compat';
import { sellerFinding } from './seller-policy';

// One interaction of base against the head interaction it was paired with: every part a seller
// meets (its states, the request it receives, the reply it owes, whether it counts at all).
// A part this file does not know is compared whole and, if it changed, is 'unclassified-change'.

type Json = Record<string, unknown>;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const obj = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/** Whether an interaction counts against a seller: not optional, not pending. */
const counts = (i: PactInteraction) => optionalFieldOf(i) === undefined && i.pending !== true;

function compareStates(where: string, base: PactInteraction, head: PactInteraction): CompatFinding[] {
  const b = base.providerStates ?? [];
  const h = head.providerStates ?? [];
  if (b.length !== h.length)
    return [
      sellerFinding(
        'provider-states-changed',
        where,
        '/providerStates',
        { base: b.map((s) => s.name), head: h.map((s) => s.name) },
        `the interaction now sets up ${h.length} provider state(s), not ${b.length}`,
      ),
    ];
  const findings: CompatFinding[] = [];
  b.forEach((state, i) => {
    if (state.name !== h[i].name)
      findings.push(
        sellerFinding(
          'provider-state-renamed',
          where,
          `/providerStates/${i}/name`,
          { base: state.name, head: h[i].name },
          `provider state '${state.name}' is now '${h[i].name}'`,
        ),
      );
    if (!same(state.params ?? {}, h[i].params ?? {}))
      findings.push(
        sellerFinding(
          'provider-state-params-changed',
          where,
          `/providerStates/${i}/params`,
          { base: state.params, head: h[i].params },
          `the parameters of provider state '${h[i].name}' changed`,
        ),
      );
  });
  return findings;
}

function compareCounting(where: string, base: PactInteraction, head: PactInteraction): CompatFinding[] {
  const findings: CompatFinding[] = [];
  if (counts(base) !== counts(head)) {
    const why = (i: PactInteraction) =>
      optionalFieldOf(i) !== undefined
        ? `optional (${optionalFieldOf(i)})`
        : i.pending === true
          ? 'pending'
          : 'required';
    findings.push(
      sellerFinding(
        counts(head) ? 'interaction-made-required' : 'interaction-made-optional',
        where,
        optionalFieldOf(base) !== optionalFieldOf(head) ? '/comments' : '/pending',
        { base: why(base), head: why(head) },
        `the interaction was ${why(base)}, now ${why(head)}`,
      ),
    );
  } else if (optionalFieldOf(base) !== optionalFieldOf(head) || Boolean(base.pending) !== Boolean(head.pending)) {
    findings.push(
      sellerFinding(
        'wording-changed',
        where,
        '/comments',
        { base: optionalFieldOf(base), head: optionalFieldOf(head) },
        'why the interaction is optional changed',
      ),
    );
  }
  // The rest of the comments is for people: text, test names, references.
  const words = (i: PactInteraction) => {
    const { [OPTIONAL_COMMENT_KEY]: _key, ...rest } = obj(i.comments);
    return rest;
  };
  if (!same(words(base), words(head)))
    findings.push(
      sellerFinding(
        'wording-changed',
        where,
        '/comments',
        { base: words(base), head: words(head) },
        'the comments changed',
      ),
    );
  return findings;
}

function compareHeaders(where: string, side: 'request' | 'response', base: unknown, head: unknown): CompatFinding[] {
  const lower = (headers: unknown) =>
    Object.fromEntries(Object.entries(obj(headers)).map(([k, v]) => [k.toLowerCase(), v]));
  const b = lower(base);
  const h = lower(head);
  const findings: CompatFinding[] = [];
  for (const name of [...new Set([...Object.keys(b), ...Object.keys(h)])].sort()) {
    if (same(b[name], h[name])) continue;
    const pointer = `/${side}/headers/${escape(name)}`;
    const sides = { base: b[name], head: h[name] };
    if (side === 'request')
      findings.push(
        h[name] === undefined
          ? sellerFinding('request-changed', where, pointer, sides, `request header ${name} is no longer sent`)
          : b[name] === undefined
            ? sellerFinding('request-header-added', where, pointer, sides, `request header ${name} is newly sent`)
            : sellerFinding(
                'request-changed',
                where,
                pointer,
                sides,
                `request header ${name} is now ${JSON.stringify(h[name])}`,
              ),
      );
    else
      findings.push(
        h[name] === undefined
          ? sellerFinding(
              'reply-header-no-longer-required',
              where,
              pointer,
              sides,
              `reply header ${name} is no longer expected`,
            )
          : sellerFinding(
              'reply-header-newly-required',
              where,
              pointer,
              sides,
              `reply header ${name} is now expected as ${JSON.stringify(h[name])}`,
            ),
      );
  }
  return findings;
}

/** The parts of `base` and `head` outside `known` that differ: each an unclassified change. */
function unknownParts(
  where: string,
  prefix: string,
  base: Json,
  head: Json,
  known: readonly string[],
): CompatFinding[] {
  return [...new Set([...Object.keys(base), ...Object.keys(head)])]
    .filter((key) => !known.includes(key) && !same(base[key], head[key]))
    .sort()
    .map((key) =>
      sellerFinding(
        'unclassified-change',
        where,
        `${prefix}/${escape(key)}`,
        { base: base[key], head: head[key] },
        `${prefix}/${key} changed`,
      ),
    );
}

function compareRequest(where: string, base: Json, head: Json): CompatFinding[] {
  const findings: CompatFinding[] = [];
  for (const key of ['method', 'path', 'query'] as const) {
    if (!same(base[key], head[key]))
      findings.push(
        sellerFinding(
          'request-changed',
          where,
          `/request/${key}`,
          { base: base[key], head: head[key] },
          `the request ${key} is now ${JSON.stringify(head[key])}`,
        ),
      );
  }
  findings.push(...compareHeaders(where, 'request', base.headers, head.headers));
  const bb = obj(base.body);
  const hb = obj(head.body);
  for (const key of ['contentType', 'encoded'] as const) {
    if (!same(bb[key], hb[key]))
      findings.push(
        sellerFinding(
          'request-changed',
          where,
          `/request/body/${key}`,
          { base: bb[key], head: hb[key] },
          `the request body's ${key} is now ${JSON.stringify(hb[key])}`,
        ),
      );
  }
  const bg = obj(base.generators);
  const hg = obj(head.generators);
  findings.push(
    ...compareRequestBodies(
      where,
      { body: bb.content, generators: obj(bg.body) },
      { body: hb.content, generators: obj(hg.body) },
    ),
  );
  findings.push(...compareRequestGenerators(where, obj(bg.body), obj(hg.body)));
  findings.push(...unknownParts(where, '/request/generators', bg, hg, ['body']));
  findings.push(...compareRequestMatchers(where, obj(base.matchingRules), obj(head.matchingRules)));
  findings.push(...unknownParts(where, '/request/body', bb, hb, ['content', 'contentType', 'encoded']));
  findings.push(
    ...unknownParts(where, '/request', base, head, [
      'method',
      'path',
      'query',
      'headers',
      'body',
      'generators',
      'matchingRules',
    ]),
  );
  return findings;
}

/** A reply generator only supplies the example; it matters where the value must equal it. */
function compareReplyGenerators(
  where: string,
  base: Json,
  head: Json,
  headRules: Record<string, MatchingRule>,
): CompatFinding[] {
  const findings: CompatFinding[] = [];
  for (const path of [...new Set([...Object.keys(base), ...Object.keys(head)])].sort()) {
    if (same(base[path], head[path])) continue;
    const concrete = (parseRulePath(path) ?? []).map((token) =>
      'field' in token ? token.field : 'index' in token ? token.index : 0,
    );
    const exact = expectationAt(headRules, concrete).checks.length === 0;
    findings.push(
      sellerFinding(
        exact ? 'reply-value-changed' : 'reply-example-changed',
        where,
        `/response/generators/body/${escape(path)}`,
        { base: base[path], head: head[path] },
        `the expected value at ${path} ${exact ? 'must equal' : 'takes its example from'} ${head[path] === undefined ? 'the example again' : 'a provider state'}`,
      ),
    );
  }
  return findings;
}

function compareResponse(where: string, base: Json, head: Json): CompatFinding[] {
  const findings: CompatFinding[] = [];
  if (!same(base.status, head.status))
    findings.push(
      sellerFinding(
        'reply-status-changed',
        where,
        '/response/status',
        { base: base.status, head: head.status },
        `the reply status must now be ${String(head.status)}`,
      ),
    );
  findings.push(...compareHeaders(where, 'response', base.headers, head.headers));
  const bb = obj(base.body);
  const hb = obj(head.body);
  for (const key of ['contentType', 'encoded'] as const) {
    if (!same(bb[key], hb[key]))
      findings.push(
        sellerFinding(
          'reply-value-changed',
          where,
          `/response/body/${key}`,
          { base: bb[key], head: hb[key] },
          `the reply body's ${key} is now ${JSON.stringify(hb[key])}`,
        ),
      );
  }
  const br = obj(base.matchingRules);
  const hr = obj(head.matchingRules);
  const headBodyRules = obj(hr.body) as Record<string, MatchingRule>;
  findings.push(
    ...compareReplyBodies(
      where,
      { body: bb.content, rules: obj(br.body) as Record<string, MatchingRule> },
      { body: hb.content, rules: headBodyRules },
    ),
  );
  const bg = obj(base.generators);
  const hg = obj(head.generators);
  findings.push(...compareReplyGenerators(where, obj(bg.body), obj(hg.body), headBodyRules));
  findings.push(...unknownParts(where, '/response/generators', bg, hg, ['body']));
  findings.push(...unknownParts(where, '/response/matchingRules', br, hr, ['body']));
  findings.push(...unknownParts(where, '/response/body', bb, hb, ['content', 'contentType', 'encoded']));
  findings.push(
    ...unknownParts(where, '/response', base, head, ['status', 'headers', 'body', 'generators', 'matchingRules']),
  );
  return findings;
}

/** Every change between two paired interactions, named by head's description. */
export function compareInteractions(base: PactInteraction, head: PactInteraction): CompatFinding[] {
  const where = head.description;
  const findings: CompatFinding[] = [];
  if (base.description !== head.description)
    findings.push(
      sellerFinding(
        'interaction-reworded',
        where,
        '/description',
        { base: base.description, head: head.description },
        `the interaction was described as '${base.description}'`,
      ),
    );
  if (base.type !== head.type)
    findings.push(
      sellerFinding(
        'interaction-type-changed',
        where,
        '/type',
        { base: base.type, head: head.type },
        `the interaction is now ${String(head.type)}`,
      ),
    );
  findings.push(...compareStates(where, base, head));
  findings.push(...compareCounting(where, base, head));
  findings.push(...compareRequest(where, obj(base.request), obj(head.request)));
  findings.push(...compareResponse(where, obj(base.response), obj(head.response)));
  findings.push(
    ...unknownParts(where, '', base, head, [
      'description',
      'type',
      'providerStates',
      'comments',
      'pending',
      'request',
      'response',
    ]),
  );
  return findings;
}
