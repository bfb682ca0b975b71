import type { CompatFinding } from './compat-finding';
import { pointerOf, type PathSegment } from './pact-rule-paths';
import {
  accepts,
  arrayBounds,
  expectationAt,
  jsonKind,
  loosensOrKeeps,
  type Expectation,
  type MatchingRule,
} from './reply-expectation';
import { sellerFinding } from './seller-policy';

// The reply side of one interaction: what a seller must send back. A seller passed base when its
// reply met every expectation of base; it can fail head wherever head expects a value base did
// not, or accepts fewer values where both expect one.

export interface ReplySide {
  body: unknown;
  rules: Record<string, MatchingRule> | undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const bodyPointer = (path: readonly PathSegment[]) => `/response/body/content${pointerOf(path)}`;
const shown = (path: readonly PathSegment[]) =>
  path.length === 0 ? 'the reply body' : `reply field ${pointerOf(path)}`;

function describeExpectation(e: Expectation, example: unknown): string {
  if (e.checks.length === 0) return `equal to ${JSON.stringify(example)}`;
  return e.checks
    .map((c) => ('regex' in c ? `regex ${c.regex}` : 'value' in c ? `include '${c.value}'` : c.kind))
    .join(' and ');
}

/** One comparison under way: where it is, both sides, and what it found so far. */
interface ReplyWalk {
  where: string;
  base: ReplySide;
  head: ReplySide;
  findings: CompatFinding[];
}

/** Every change of the expected reply body between base and head, for `where`. */
export function compareReplyBodies(where: string, base: ReplySide, head: ReplySide): CompatFinding[] {
  const w: ReplyWalk = { where, base, head, findings: [] };
  walk(w, [], base.body, head.body);
  return w.findings;
}

function walk(w: ReplyWalk, path: PathSegment[], b: unknown, h: unknown): void {
  const eb = expectationAt(w.base.rules, path);
  const eh = expectationAt(w.head.rules, path);
  const kb = jsonKind(b);
  const kh = jsonKind(h);
  if (kb !== kh) {
    w.findings.push(
      sellerFinding(
        'reply-value-changed',
        w.where,
        bodyPointer(path),
        { base: b, head: h },
        `${shown(path)} must now be ${kh}, not ${kb}`,
      ),
    );
    return;
  }
  if (kb === 'object' || kb === 'array') compareContainerMatchers(w, path, b, h, eb, eh);
  if (kb === 'object') compareObject(w, path, b as Record<string, unknown>, h as Record<string, unknown>);
  else if (kb === 'array') compareArray(w, path, b as unknown[], h as unknown[], eb, eh);
  else compareLeaf(w, path, b, h, eb, eh);
}

function compareObject(
  w: ReplyWalk,
  path: PathSegment[],
  bo: Record<string, unknown>,
  ho: Record<string, unknown>,
): void {
  for (const key of Object.keys(ho)) {
    if (!(key in bo))
      w.findings.push(
        sellerFinding(
          'reply-field-newly-required',
          w.where,
          bodyPointer([...path, key]),
          { head: ho[key] },
          `${shown([...path, key])} is newly expected in the reply`,
        ),
      );
  }
  for (const key of Object.keys(bo)) {
    if (!(key in ho))
      w.findings.push(
        sellerFinding(
          'reply-field-no-longer-required',
          w.where,
          bodyPointer([...path, key]),
          { base: bo[key] },
          `${shown([...path, key])} is no longer expected`,
        ),
      );
    else walk(w, [...path, key], bo[key], ho[key]);
  }
}

/** A container's own matchers beyond type and bounds (eachKey, values, arrayContains…). */
function compareContainerMatchers(
  w: ReplyWalk,
  path: PathSegment[],
  b: unknown,
  h: unknown,
  eb: Expectation,
  eh: Expectation,
): void {
  const beyondType = (e: Expectation) => e.checks.filter((c) => c.kind !== 'type');
  if (same(beyondType(eb), beyondType(eh)) && eb.anyOf === eh.anyOf) return;
  const looser = beyondType(eh).length === 0 && !eh.anyOf;
  w.findings.push(
    sellerFinding(
      looser ? 'reply-matcher-loosened' : 'reply-matcher-stricter',
      w.where,
      bodyPointer(path),
      { base: describeExpectation(eb, b), head: describeExpectation(eh, h) },
      `the matcher of ${shown(path)} changed from ${describeExpectation(eb, b)} to ${describeExpectation(eh, h)}`,
    ),
  );
}

function compareArray(
  w: ReplyWalk,
  path: PathSegment[],
  b: unknown[],
  h: unknown[],
  eb: Expectation,
  eh: Expectation,
): void {
  const rb = arrayBounds(eb, b);
  const rh = arrayBounds(eh, h);
  if (rb.min !== rh.min || rb.max !== rh.max) {
    const text = (r: { min: number; max: number }) =>
      r.min === r.max ? `exactly ${r.min}` : `${r.min}..${r.max === Number.POSITIVE_INFINITY ? '' : r.max}`;
    const widened = rh.min <= rb.min && rh.max >= rb.max;
    w.findings.push(
      sellerFinding(
        eb.checks.length === 0 && eh.checks.length === 0
          ? 'reply-value-changed'
          : widened
            ? 'reply-range-widened'
            : 'reply-range-narrowed',
        w.where,
        bodyPointer(path),
        { base: text(rb), head: text(rh) },
        `${shown(path)} may have ${text(rh)} entries (was ${text(rb)})`,
      ),
    );
  }
  // Under a type matcher every entry of the seller's array is judged by the example's entries
  // (the first as template); so each head entry is compared with the base entry it replaces.
  if (b.length === 0) return;
  for (let i = 0; i < h.length; i++) walk(w, [...path, i], b[Math.min(i, b.length - 1)], h[i]);
}

function compareLeaf(
  w: ReplyWalk,
  path: PathSegment[],
  b: unknown,
  h: unknown,
  eb: Expectation,
  eh: Expectation,
): void {
  if (same(eb.checks, eh.checks) && eb.anyOf === eh.anyOf) {
    if (same(b, h)) return;
    const ok = eh.checks.length > 0 && accepts(eh, h, b) === true;
    w.findings.push(
      ok
        ? sellerFinding(
            'reply-example-changed',
            w.where,
            bodyPointer(path),
            { base: b, head: h },
            `the example of ${shown(path)} changed; ${describeExpectation(eh, h)} still accepts the old one`,
          )
        : sellerFinding(
            'reply-value-changed',
            w.where,
            bodyPointer(path),
            { base: b, head: h },
            `${shown(path)} must now be ${JSON.stringify(h)}, not ${JSON.stringify(b)}`,
          ),
    );
    return;
  }
  const looser = loosensOrKeeps(eb, b, eh, h);
  w.findings.push(
    sellerFinding(
      looser ? 'reply-matcher-loosened' : 'reply-matcher-stricter',
      w.where,
      bodyPointer(path),
      { base: describeExpectation(eb, b), head: describeExpectation(eh, h) },
      `${shown(path)} was ${describeExpectation(eb, b)}, now ${describeExpectation(eh, h)}${looser ? ': every value accepted before still is' : ': a value accepted before may fail'}`,
    ),
  );
}
