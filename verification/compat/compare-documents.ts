import { compareOpenApiDocuments } from './openapi-compat';
import { CompatInputError, type ContractDocument } from './contract-source';
import { compareSellerContracts, comparisonNotes } from './pact-compat';
import { compatReport, type CompatReport } from './compat-report';
import { incomparable } from './seller-contract';
import { SELLER_API_TITLE } from '../../contracts/seller-api-document';
import { compareSellerApiDocuments } from './seller-api-compat';

// Two documents of the same kind, compared by the classifier for their audience: two pacts for
// seller systems, two OpenAPI documents for buyer programs (two seller API documents, by their
// title, for seller systems). Anything else is bad input.

/** The report of base against head; CompatInputError when they cannot be compared. */
export function compareDocuments(base: ContractDocument, head: ContractDocument): CompatReport {
  if (base.kind === 'pact' && head.kind === 'pact') {
    const why = incomparable(base.contract, head.contract);
    if (why !== undefined) throw new CompatInputError(why);
    return compatReport(
      { source: base.contract.source, version: base.contract.version },
      { source: head.contract.source, version: head.contract.version },
      compareSellerContracts(base.contract, head.contract),
      comparisonNotes(base.contract, head.contract),
    );
  }
  if (base.kind === 'openapi' && head.kind === 'openapi') {
    const info = (d: unknown) => (d as { info?: { version?: string; title?: string } }).info;
    const forSellers = [base, head].every((d) => info(d.document)?.title === SELLER_API_TITLE);
    return compatReport(
      { source: base.source, version: info(base.document)?.version },
      { source: head.source, version: info(head.document)?.version },
      (forSellers ? compareSellerApiDocuments : compareOpenApiDocuments)(base.document, head.document),
    );
  }
  const name = (d: ContractDocument) =>
    d.kind === 'pact' ? `${d.contract.source} is a pact` : `${d.source} is an OpenAPI document`;
  throw new CompatInputError(
    `${name(base)} and ${name(head)}: compare a pact with a pact, an OpenAPI document with an OpenAPI document`,
  );
}
