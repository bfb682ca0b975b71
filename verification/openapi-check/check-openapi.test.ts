import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { RULES } from '../../contracts/reply-rules/violation';
import { checkOpenApi, openApiCheckAsText, RULES_PROVEN_ONLY_BY_VERIFY } from './check-openapi';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { as31, chosenPath, readVendorDocument, VendorDocumentError } from './vendor-document';

// A vendor's OpenAPI document against the pact: the contract's own document passes, and each
// way a vendor's document can refuse the contract (or allow what it forbids) is a finding.

type Doc = Record<string, any>;
const SELLER_API = packagePath('contracts', 'openapi', 'seller.openapi.json');
const NORTHWIND = packagePath('fixtures', 'vendor-openapi', 'northwind-parts.openapi.yaml');
const contractDocument = () => JSON.parse(readFileSync(SELLER_API, 'utf8')) as Doc;
const scratch = useTemporaryDirectory('check-openapi');

function documentFile(name: string, change: (doc: Doc) => void): string {
  const doc = contractDocument();
  change(doc);
  const file = join(scratch.path, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
const checked = (file: string) => {
  const vendor = readVendorDocument(file);
  return checkOpenApi(vendor, chosenPath(vendor, undefined));
};

describe('check-openapi', () => {
  it("finds nothing in the contract's own seller API document", () => {
    const report = checked(SELLER_API);
    expect(report.findings).toEqual([]);
    expect(report.operation).toBe('POST /');
    expect(openApiCheckAsText(report)).toMatch(/^PASSED: .* \(15 interactions; .*\)\n$/m);
  });

  it('finds a reply field the contract requires left optional, naming its path and both sides', () => {
    const file = documentFile('optional.json', (doc) => {
      const invoice = doc.components.schemas.InvoiceSellerReply.properties.invoices.items;
      invoice.required = invoice.required.filter((name: string) => name !== 'invoice_number');
    });
    const report = checked(file);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(new Set(report.findings.map((f) => [f.kind, f.path, f.vendor, f.contract].join(' ')))).toEqual(
      new Set(['reply-schema $.invoices[*].invoice_number optional required']),
    );
    expect(report.findings.map((f) => f.interaction)).toContain('an invoice by invoice number');
    expect(openApiCheckAsText(report)).toMatch(
      /^an invoice by invoice number: reply-schema \$\.invoices\[\*\]\.invoice_number: vendor: optional, contract: required$/m,
    );
    expect(openApiCheckAsText(report)).toMatch(/^FAILED: \d+ findings in \d+ of 15 interactions$/m);
  });

  it("finds a request schema that refuses the pact's statement request", () => {
    const file = documentFile('no-statement.json', (doc) => {
      doc.components.schemas.StatementSellerRequest.properties.service = { type: 'string', enum: ['invoice'] };
    });
    const findings = checked(file).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.kind === 'request' && f.interaction.startsWith('statements'))).toBe(true);
    // Told by the branch meant for a statement, not by every branch of the request's oneOf.
    expect(findings.map((f) => `${f.path} ${f.contract}`)).toEqual(['$.service sends "statement"']);
  });

  it('finds a reply type wider than the contract and an enum the contract does not list', () => {
    const file = documentFile('wider.json', (doc) => {
      doc.components.schemas.InvoiceSellerReply.properties.status.type = ['string', 'number'];
      doc.components.schemas.PlaceOrderSellerReply.properties.items.items.properties.status_code.enum.push(7);
    });
    const findings = checked(file).findings;
    expect(findings).toContainEqual(
      expect.objectContaining({ path: '$.status', vendor: 'number | string', contract: 'string' }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({ path: '$.items[*].status_code', vendor: 'also 7', contract: 'one of 0, 1, 2' }),
    );
  });

  it("reads a 3.0 document's nullable as a type union", () => {
    expect(as31({ type: 'string', nullable: true, enum: ['a'] })).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
    expect(as31({ type: 'number', minimum: 1, exclusiveMinimum: true })).toEqual({
      type: 'number',
      exclusiveMinimum: 1,
    });
    const file = documentFile('nullable-3.0.json', (doc) => {
      doc.openapi = '3.0.3';
      doc.components.schemas.InvoiceSellerReply.properties.error_description.nullable = true;
    });
    const vendor = readVendorDocument(file);
    expect(vendor.version).toBe('3.0');
    const findings = checkOpenApi(vendor, '/').findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => `${f.path} ${f.vendor} ${f.contract}`))).toEqual(
      new Set(['$.error_description null | string string']),
    );
  });

  it('refuses bad input naming the file: Swagger 2.0, not JSON, a dangling $ref, several POST paths', () => {
    const swagger = join(scratch.path, 'swagger.json');
    writeFileSync(swagger, JSON.stringify({ swagger: '2.0', paths: {} }));
    expect(() => readVendorDocument(swagger)).toThrow(
      new VendorDocumentError(`${swagger}: Swagger 2.0 is not supported: convert it to OpenAPI 3 first`),
    );
    const yaml = join(scratch.path, 'seller.yaml');
    writeFileSync(yaml, 'openapi: 3.1.0\npaths: [unclosed\n');
    expect(() => readVendorDocument(yaml)).toThrow(`${yaml} is not YAML (`);
    const neither = join(scratch.path, 'seller.json');
    writeFileSync(neither, '{"openapi": "3.1.0",\n  paths: [\n');
    expect(() => readVendorDocument(neither)).toThrow(`${neither} is neither JSON (`);
    const text = join(scratch.path, 'notes.yaml');
    writeFileSync(text, 'just some notes\n');
    expect(() => readVendorDocument(text)).toThrow(`${text} is not an OpenAPI document (not an object)`);
    const dangling = documentFile('dangling.json', (doc) => {
      doc.components.schemas.SellerReply.anyOf[0] = { $ref: '#/components/schemas/Nowhere' };
    });
    expect(() => readVendorDocument(dangling)).toThrow(
      `${dangling}: $ref '#/components/schemas/Nowhere' at /components/schemas/SellerReply/anyOf/0/$ref resolves nowhere`,
    );
    expect(() => readVendorDocument(join(scratch.path, 'absent.json'))).toThrow(/cannot read .*absent\.json: ENOENT/);
    const two = documentFile('two-posts.json', (doc) => {
      doc.paths['/orders'] = doc.paths['/'];
    });
    expect(() => chosenPath(readVendorDocument(two), undefined)).toThrow('2 POST paths (/, /orders)');
  });

  it('reads a YAML document as its JSON twin', () => {
    const file = join(scratch.path, 'seller.yml');
    writeFileSync(file, stringifyYaml(contractDocument()));
    const report = checked(file);
    expect(report.findings).toEqual([]);
    expect(report.interactionNames).toHaveLength(15);
  });

  it('finds bounds, formats and patterns wider than the contract, and items left open', () => {
    const file = documentFile('constraints.json', (doc) => {
      const item = doc.components.schemas.ItemInquirySellerReply.properties.items.items;
      delete item.properties.id.minLength;
      item.properties.locations.items.properties.cost.minimum = -1;
      delete item.properties.mfr_code.maxLength;
      const invoice = doc.components.schemas.InvoiceSellerReply.properties.invoices.items;
      delete invoice.properties.invoice_date.format;
      delete doc.components.schemas.PlaceOrderSellerReply.properties.order_number.pattern;
      delete doc.components.schemas.StatementSellerReply.properties.statements.items;
    });
    const found = new Set(checked(file).findings.map((f) => `${f.kind} ${f.path}: ${f.vendor} / ${f.contract}`));
    expect(found).toEqual(
      new Set([
        'reply-schema $.items[*].id: no minLength / minLength 1',
        'reply-schema $.items[*].locations[*].cost: minimum -1 / minimum 0',
        'reply-schema $.items[*].mfr_code: no maxLength / maxLength 65536',
        'reply-schema $.invoices[*].invoice_date: no format / format date',
        'reply-schema $.order_number: no pattern: allows "\\u0000" / pattern ^[^\\u0000\\uD800-\\uDFFF]*$',
        'reply-schema $.statements[*]: any item / object',
      ]),
    );
  });

  it('finds other properties a vendor allows where the contract allows none, and none where it allows them', () => {
    const contract = contractDocument();
    contract.components.schemas.InvoiceSellerReply.additionalProperties = false;
    const strict = join(scratch.path, 'strict-contract.json');
    writeFileSync(strict, JSON.stringify(contract));
    const vendor = readVendorDocument(SELLER_API);
    const findings = checkOpenApi(vendor, '/', undefined, strict).findings;
    expect(new Set(findings.map((f) => `${f.path}: ${f.vendor} / ${f.contract}`))).toEqual(
      new Set(['$.*: other properties allowed / no other property']),
    );
    // The contract's own replies allow other properties: a vendor saying so, or not, is within them.
    const closed = documentFile('closed.json', (doc) => {
      doc.components.schemas.InvoiceSellerReply.additionalProperties = false;
      doc.components.schemas.StatementSellerReply.additionalProperties = { type: 'string' };
    });
    expect(checked(closed).findings).toEqual([]);
  });

  it('reads a vendor media type reply as JSON, and finds a request body the gateway cannot send', () => {
    const vendorType = documentFile('vendor-type.json', (doc) => {
      const content = doc.paths['/'].post.responses['200'].content;
      content['application/vnd.seller+json'] = content['application/json'];
      delete content['application/json'];
      doc.components.schemas.InvoiceSellerReply.properties.status.type = 'integer';
    });
    const findings = checked(vendorType).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings).toContainEqual(
      expect.objectContaining({ kind: 'reply-schema', path: '$.status', vendor: 'integer' }),
    );
    const xml = documentFile('xml-request.json', (doc) => {
      const content = doc.paths['/'].post.requestBody.content;
      content['application/xml'] = content['application/json'];
      delete content['application/json'];
    });
    expect(new Set(checked(xml).findings.map((f) => `${f.kind} ${f.vendor} / ${f.contract}`))).toEqual(
      new Set(['request request body as application/xml / sends application/json']),
    );
    const put = documentFile('put.json', (doc) => {
      doc.paths['/'] = { put: doc.paths['/'].post };
    });
    const vendor = readVendorDocument(put);
    expect(checkOpenApi(vendor, '/').findings[0]).toMatchObject({
      vendor: 'no POST at / (only PUT)',
      contract: 'POST /',
    });
  });

  it('passes a vendor document written by hand from the specification (3.0 YAML, allOf, a vendor media type)', () => {
    const report = checked(NORTHWIND);
    expect(report.operation).toBe('POST /federated');
    expect(report.findings).toEqual([]);
  });

  it('finds what is broken in a hand-written document, each with its interaction, path and both sides', () => {
    const doc = parseYaml(readFileSync(NORTHWIND, 'utf8')) as Doc;
    const schemas = doc.components.schemas;
    schemas.OverallCode.enum.push(9999);
    schemas.Money.nullable = true;
    schemas.OrderAnswer.properties.items.items.properties.id.pattern = '^[^\\x00-\\x1F]{1,64}$';
    delete schemas.StatementAnswer.allOf[1].properties.statements.items.properties.statement_date.format;
    const content = doc.paths['/federated'].post.responses['200'].content;
    content['application/vnd.northwind.gateway.v2+json'] = content['application/json'];
    delete content['application/json'];
    const file = join(scratch.path, 'northwind-broken.yaml');
    writeFileSync(file, stringifyYaml(doc));
    const report = checked(file);
    const found = new Set(report.findings.map((f) => `${f.kind} ${f.path}: ${f.vendor} / ${f.contract}`));
    expect(found).toContain(
      'reply $: replies as application/vnd.northwind.gateway.v2+json / the pact expects Content-Type application/json',
    );
    expect(found).toContain(
      'reply-schema $.status_code: also 9999 / one of 2000, 3000, 3100, 3110, 3200, 3210, 3220, 3300, 4403, 4408, 4422, 5500, 5503',
    );
    expect(found).toContain('reply-schema $.items[*].locations[*].cost: null | number / number');
    expect(found).toContain(
      'reply-schema $.items[*].id: pattern ^[^\\x00-\\x1F]{1,64}$: allows "\\ud800" / pattern ^[^\\u0000\\uD800-\\uDFFF]*$',
    );
    expect(found).toContain('reply-schema $.statements[*].statement_date: no format / format date');
    expect(report.findings.find((f) => f.path === '$.statements[*].statement_date')?.interaction).toBe(
      'statements by date range, with their detail lines',
    );
  });

  it('notes every reply rule that compares the reply with the request, and only rules that exist', () => {
    for (const rule of RULES_PROVEN_ONLY_BY_VERIFY) expect(RULES).toHaveProperty([rule]);
    expect(openApiCheckAsText(checked(SELLER_API))).toContain('item.id-echo');
  });
});
