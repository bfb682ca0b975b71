// The agreement run: every derived document's static verdict (check-openapi) beside what the
// kit's `verify` says of a seller that answers exactly as that document says. Lanes run side
// by side, each its own mock seller behind its own document seller; verdicts do not depend on
// the lanes or on timing.
import { readFileSync } from 'node:fs';
import { readPact } from '../../contracts/pact/pact-file';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { RULES } from '../../contracts/reply-rules/violation';
import { packagePath } from '../../shared/package-root';
import { sellerContractOf } from '../../verification/compat/seller-contract';
import { startHeadVerifier, type HeadVerifier } from '../../verification/compat/testing/verify-head';
import { checkOpenApi, type OpenApiFinding } from '../../verification/openapi-check/check-openapi';
import { vendorDocumentOf } from '../../verification/openapi-check/vendor-document';
import { deriveDocuments, KINDS, type Derived, type Kind } from './derive-documents';
import { startDocumentSeller, type DocumentSeller } from './document-seller';
import { occurrences, type ReplySite, type Service } from './reply-sites';

export type Outcome = 'agree-compatible' | 'agree-incompatible' | 'false-compatible' | 'false-incompatible';

export interface Judged {
  derived: Pick<Derived, 'index' | 'kind' | 'change'>;
  findings: OpenApiFinding[];
  /** verify's failures on the schema, Pact or the exchange (not a reply rule). */
  failures: string[];
  /** verify's reply-rule failures: beyond what a document states, not counted either way. */
  ruleFailures: string[];
  /** Replies the document's own seller could not send (its document refused them: answered 500). */
  refusedReplies: number;
  outcome: Outcome;
  ms: number;
}

export interface AgreementRun {
  /** The derived documents, by index. */
  documents: Derived[];
  /** By index. */
  judged: Judged[];
  ms: number;
}

const SELLER_API = packagePath('contracts', 'openapi', 'seller.openapi.json');

/** A verify failure line (`<interaction>: <what>`) that names a reply rule. */
function isRuleLine(line: string, descriptions: string[]): boolean {
  const description = descriptions.find((d) => line.startsWith(`${d}: `));
  const rest = description === undefined ? line : line.slice(description.length + 2);
  return Object.hasOwn(RULES, rest.split(':')[0]);
}

export interface AgreementOptions {
  /** Documents of each kind at most (spread over the kind's candidates). */
  perKind: number;
  /** Only these kinds of change (default: every kind). */
  kinds?: readonly Kind[];
  lanes?: number;
  onDocument?: (judged: Judged, done: number, total: number) => void;
}

export async function runAgreement({ perKind, kinds, lanes = 1, onDocument }: AgreementOptions): Promise<AgreementRun> {
  const started = performance.now();
  const head = sellerContractOf(readPact(PACT_FILE), 'base');
  const interactions = head.pact.interactions;
  const descriptions = interactions.map((i) => i.description);
  const serviceOf = new Map(
    interactions.map((i) => [i.description, (i.request.body as { content?: { service?: Service } })?.content?.service]),
  );
  const onlyFor = (services: readonly Service[]) =>
    descriptions.filter((d) => services.includes(serviceOf.get(d) as Service));
  const sellers: DocumentSeller[] = [];
  const verifiers: HeadVerifier[] = [];
  try {
    for (let i = 0; i < Math.max(1, lanes); i++) {
      const seller = await startDocumentSeller();
      sellers.push(seller);
      verifiers.push(await startHeadVerifier(seller.running));
    }
    const base = await verifiers[0].verify(head);
    if (!base.ok)
      throw new Error(`the mock seller fails today's pact, so nothing can be judged:\n${base.failures.join('\n')}`);
    const contract = JSON.parse(readFileSync(SELLER_API, 'utf8')) as Record<string, unknown>;
    // The seller of the contract's own document must pass too, or the document seller is wrong.
    sellers[0].use({ index: -1, kind: 'allof-split', change: 'none', document: contract, witness: {}, services: [] });
    const own = await verifiers[0].verify(head);
    if (!own.ok) throw new Error(`the seller of the contract's own document fails:\n${own.failures.join('\n')}`);
    const seen = (site: ReplySite) =>
      [...base.replies]
        .filter(([d]) => serviceOf.get(d) === site.service)
        .flatMap(([, reply]) => occurrences(reply, site.segments).map((o) => o.value));
    const documents = deriveDocuments(contract, seen, perKind).filter(
      (d) => kinds === undefined || kinds.includes(d.kind),
    );
    const judged: Judged[] = [];
    let next = 0;
    let done = 0;
    await Promise.all(
      verifiers.map(async (verifier, lane) => {
        for (let index = next++; index < documents.length; index = next++) {
          const derived = documents[index];
          const t0 = performance.now();
          const vendor = vendorDocumentOf(`derived-${index}.json`, derived.document);
          const findings = checkOpenApi(vendor, '/').findings;
          sellers[lane].use(derived);
          const verdict = await verifier.verify(head, onlyFor(derived.services));
          const ruleFailures = verdict.failures.filter((l) => isRuleLine(l, descriptions));
          const failures = verdict.failures.filter((l) => !isRuleLine(l, descriptions));
          const compatible = findings.length === 0;
          const passes = failures.length === 0;
          judged[index] = {
            derived: { index, kind: derived.kind, change: derived.change },
            findings,
            failures,
            ruleFailures,
            refusedReplies: sellers[lane].refusedReplies(),
            outcome: compatible
              ? passes
                ? 'agree-compatible'
                : 'false-compatible'
              : passes
                ? 'false-incompatible'
                : 'agree-incompatible',
            ms: performance.now() - t0,
          };
          onDocument?.(judged[index], ++done, documents.length);
        }
      }),
    );
    return { documents, judged, ms: performance.now() - started };
  } finally {
    await Promise.all(verifiers.map((v) => v.close()));
    await Promise.all(sellers.map((s) => s.close()));
  }
}

export interface KindFigures {
  kind: Kind | 'all';
  documents: number;
  calledIncompatible: number;
  verifyFails: number;
  falseCompatible: number;
  falseIncompatible: number;
  falseIncompatibleRate: number;
  ms: number;
}

export function agreementFigures(judged: Judged[]): KindFigures[] {
  const figure = (kind: KindFigures['kind'], list: Judged[]): KindFigures => {
    const count = (f: (j: Judged) => boolean) => list.filter(f).length;
    const falseIncompatible = count((j) => j.outcome === 'false-incompatible');
    return {
      kind,
      documents: list.length,
      calledIncompatible: count((j) => j.findings.length > 0),
      verifyFails: count((j) => j.failures.length > 0),
      falseCompatible: count((j) => j.outcome === 'false-compatible'),
      falseIncompatible,
      falseIncompatibleRate: list.length === 0 ? 0 : falseIncompatible / list.length,
      ms: list.reduce((sum, j) => sum + j.ms, 0),
    };
  };
  return [
    ...KINDS.map((kind) =>
      figure(
        kind,
        judged.filter((j) => j.derived.kind === kind),
      ),
    ).filter((f) => f.documents > 0),
    figure('all', judged),
  ];
}

export function figuresTable(figures: KindFigures[]): string {
  const header = [
    'kind of change',
    'documents',
    'called incompatible',
    'verify fails',
    'false compatible',
    'false incompatible',
  ];
  const rows = figures.map((f) => [
    f.kind,
    String(f.documents),
    String(f.calledIncompatible),
    String(f.verifyFails),
    String(f.falseCompatible),
    `${f.falseIncompatible} (${(f.falseIncompatibleRate * 100).toFixed(1)}%)`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function disagreementText(j: Judged): string {
  return [
    `#${j.derived.index} ${j.derived.kind}: ${j.derived.change} — ${j.outcome}`,
    ...j.findings
      .slice(0, 3)
      .map((f) => `  check-openapi: ${f.interaction}: ${f.kind} ${f.path}: ${f.vendor} / ${f.contract}`),
    ...j.failures.slice(0, 3).map((l) => `  verify: ${l}`),
    ...(j.refusedReplies > 0 ? [`  the document's seller could not send ${j.refusedReplies} replies`] : []),
  ].join('\n');
}

export const agreementOk = (all: KindFigures, maxFalseIncompatible: number) =>
  all.falseCompatible === 0 && all.falseIncompatibleRate < maxFalseIncompatible;

export { KINDS };
