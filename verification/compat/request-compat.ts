import type { CompatFinding } from './compat-finding';
import { entryFor, pointerOf, type PathSegment } from './pact-rule-paths';
import { jsonKind } from './reply-expectation';
import { sellerFinding, type SellerPolicyRule } from './seller-policy';

// The request side of one interaction: what the seller receives. A verifier sends the pact's
// example, with the values its provider-state generators inject; request matchers only bind the
// gateway (the consumer). So for a seller, what counts is the example and where its values come from.

export interface RequestSide {
  body: unknown;
  /** generators.body: paths whose value the seller's state set-up supplies. */
  generators: Record<string, unknown> | undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const bodyPointer = (path: readonly PathSegment[]) => `/request/body/content${pointerOf(path)}`;
const shown = (path: readonly PathSegment[]) =>
  path.length === 0 ? 'the request body' : `request field ${pointerOf(path)}`;

/** Every change of the request body the seller receives. */
export function compareRequestBodies(where: string, base: RequestSide, head: RequestSide): CompatFinding[] {
  const findings: CompatFinding[] = [];
  const found = (
    rule: SellerPolicyRule,
    path: PathSegment[],
    sides: { base?: unknown; head?: unknown },
    message: string,
  ) => findings.push(sellerFinding(rule, where, bodyPointer(path), sides, message));
  const walk = (path: PathSegment[], b: unknown, h: unknown) => {
    const kb = jsonKind(b);
    const kh = jsonKind(h);
    if (kb !== kh) {
      found('request-value-changed', path, { base: b, head: h }, `${shown(path)} is now sent as ${kh}, not ${kb}`);
      return;
    }
    if (kb === 'object') {
      const bo = b as Record<string, unknown>;
      const ho = h as Record<string, unknown>;
      for (const key of Object.keys(ho))
        if (!(key in bo))
          found('request-field-added', [...path, key], { head: ho[key] }, `${shown([...path, key])} is newly sent`);
      for (const key of Object.keys(bo)) {
        if (!(key in ho))
          found(
            'request-field-removed',
            [...path, key],
            { base: bo[key] },
            `${shown([...path, key])} is no longer sent`,
          );
        else walk([...path, key], bo[key], ho[key]);
      }
      return;
    }
    if (kb === 'array') {
      const ba = b as unknown[];
      const ha = h as unknown[];
      if (ba.length !== ha.length)
        found(
          'request-value-changed',
          path,
          { base: ba.length, head: ha.length },
          `${shown(path)} now carries ${ha.length} entries, not ${ba.length}`,
        );
      for (let i = 0; i < Math.min(ba.length, ha.length); i++) walk([...path, i], ba[i], ha[i]);
      return;
    }
    if (same(b, h)) return;
    // Both sides inject this value from the seller's own state: the example is never sent.
    if (entryFor(base.generators, path) !== undefined && entryFor(head.generators, path) !== undefined)
      found(
        'request-example-changed',
        path,
        { base: b, head: h },
        `the example of ${shown(path)} changed; the seller receives its own state's value`,
      );
    else
      found(
        'request-value-changed',
        path,
        { base: b, head: h },
        `${shown(path)} is now sent as ${JSON.stringify(h)}, not ${JSON.stringify(b)}`,
      );
  };
  walk([], base.body, head.body);
  return findings;
}

/** Where injected request values come from: a generator added, removed or changed changes what the seller receives. */
export function compareRequestGenerators(
  where: string,
  base: Record<string, unknown> | undefined,
  head: Record<string, unknown> | undefined,
): CompatFinding[] {
  const paths = new Set([...Object.keys(base ?? {}), ...Object.keys(head ?? {})]);
  const findings: CompatFinding[] = [];
  for (const path of [...paths].sort()) {
    const b = base?.[path];
    const h = head?.[path];
    if (same(b, h)) continue;
    findings.push(
      sellerFinding(
        'request-value-changed',
        where,
        `/request/generators/body/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        { base: b, head: h },
        `the request value at ${path} ${b === undefined ? 'is now injected from a provider state' : h === undefined ? 'is no longer injected from a provider state' : 'is injected differently'}`,
      ),
    );
  }
  return findings;
}

/** Request matchers bind the gateway only: each changed path is listed, safe for a seller. */
export function compareRequestMatchers(
  where: string,
  base: Record<string, unknown> | undefined,
  head: Record<string, unknown> | undefined,
): CompatFinding[] {
  const findings: CompatFinding[] = [];
  for (const category of [...new Set([...Object.keys(base ?? {}), ...Object.keys(head ?? {})])].sort()) {
    const b = (base?.[category] ?? {}) as Record<string, unknown>;
    const h = (head?.[category] ?? {}) as Record<string, unknown>;
    for (const path of [...new Set([...Object.keys(b), ...Object.keys(h)])].sort()) {
      if (same(b[path], h[path])) continue;
      findings.push(
        sellerFinding(
          'request-matcher-changed',
          where,
          `/request/matchingRules/${category}/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          { base: b[path], head: h[path] },
          `the request matcher at ${category} ${path} changed (it binds the gateway, not the seller)`,
        ),
      );
    }
  }
  return findings;
}
