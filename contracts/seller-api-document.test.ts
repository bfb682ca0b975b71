import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { FORMATS } from './formats';
import { PACT_FILE_NAME } from './pact/pact-names';
import { RULES, type RuleName } from './reply-rules/violation';
import { SERVICE_OF } from './schemas/index';
import { replyComponent, requestComponent, rulesOf, SELLER_OPERATIONS, sellerApiDocument } from './seller-api-document';
import { loadFixture } from './payload-examples';

// The seller API document says what the gateway sends and accepts. Its schemas are checked here
// by a fresh Ajv of their own (not the project's validator), reading the committed document as a
// vendor's tools would: every seller fixture and every example of the pact must pass.

interface Doc {
  servers: { url: string; variables: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}
const committed = JSON.parse(readFileSync(packagePath('contracts/openapi/seller.openapi.json'), 'utf8')) as Doc;
const operation = committed.paths['/'].post as {
  operationId: string;
  requestBody: { content: { 'application/json': { examples: Record<string, { value: unknown }> } } };
  responses: Record<string, { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } }>;
};

/** A validator of one component of the committed document, its $refs resolved by Ajv. */
function componentValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, check as (value: string) => boolean);
  ajv.addSchema({ ...committed, $id: 'seller.openapi.json' } as object);
  return (name: string) => {
    const validate = ajv.getSchema(`seller.openapi.json#/components/schemas/${name}`);
    if (validate === undefined) throw new Error(`no component ${name}`);
    return (value: unknown) =>
      validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

const pactExamples = () => {
  const pact = JSON.parse(readFileSync(packagePath(`contracts/pacts/${PACT_FILE_NAME}`), 'utf8')) as {
    interactions: {
      description: string;
      request: { body: { content: unknown } };
      response: { body: { content: unknown } };
    }[];
  };
  return pact.interactions.map((i) => ({
    description: i.description,
    request: i.request.body.content as { service: keyof typeof OPERATION_OF },
    reply: i.response.body.content,
  }));
};
const OPERATION_OF = Object.fromEntries(SELLER_OPERATIONS.map((o) => [SERVICE_OF[o], o])) as Record<
  string,
  (typeof SELLER_OPERATIONS)[number]
>;

describe('the seller API document', () => {
  it('is one POST at a server variable, its request a oneOf discriminated by service', () => {
    expect(Object.keys(committed.paths)).toEqual(['/']);
    expect(committed.servers[0].url).toBe('{seller_url}');
    expect(committed.servers[0].variables.seller_url.default).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/seller$/);
    expect(operation.operationId).toBe('answerForwardedRequest');
    expect(committed.components.schemas.SellerRequest).toEqual({
      title: 'Seller request',
      oneOf: SELLER_OPERATIONS.map((o) => ({ $ref: `#/components/schemas/${requestComponent(o)}` })),
      discriminator: {
        propertyName: 'service',
        mapping: Object.fromEntries(
          SELLER_OPERATIONS.map((o) => [SERVICE_OF[o], `#/components/schemas/${requestComponent(o)}`]),
        ),
      },
    });
    expect(Object.keys(operation.responses)).toEqual(['200', '503', '4XX', '5XX']);
  });

  it('names every rule of the catalogue on the reply it judges, as reports name it', () => {
    const covered = new Set(SELLER_OPERATIONS.flatMap(rulesOf));
    expect([...covered].sort()).toEqual(Object.keys(RULES).sort());
    for (const o of SELLER_OPERATIONS) {
      const reply = committed.components.schemas[replyComponent(o)];
      expect(reply['x-reply-rules']).toEqual(rulesOf(o));
      for (const rule of rulesOf(o)) expect(reply.description).toContain(`\`${rule}\`: ${RULES[rule as RuleName]}`);
    }
    expect(rulesOf('item-inquiry')).toContain('alternate.original-part');
  });

  it('carries each seller fixture as its example', () => {
    const requests = operation.requestBody.content['application/json'].examples;
    const replies = operation.responses['200'].content['application/json'].examples!;
    expect(Object.values(requests).map((e) => e.value)).toEqual(
      SELLER_OPERATIONS.map((o) => loadFixture(o, 'seller-request')),
    );
    expect(Object.values(replies).map((e) => e.value)).toEqual(
      SELLER_OPERATIONS.map((o) => loadFixture(o, 'seller-reply')),
    );
  });

  it('is what the generator writes', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(sellerApiDocument())));
  });
});

describe('Ajv, reading the committed document', () => {
  const validator = componentValidator();

  it('passes every seller fixture against its component and the union', () => {
    for (const o of SELLER_OPERATIONS) {
      expect(validator(requestComponent(o))(loadFixture(o, 'seller-request')), `${o} request`).toEqual([]);
      expect(validator('SellerRequest')(loadFixture(o, 'seller-request')), `${o} request`).toEqual([]);
      expect(validator(replyComponent(o))(loadFixture(o, 'seller-reply')), `${o} reply`).toEqual([]);
      expect(validator('SellerReply')(loadFixture(o, 'seller-reply')), `${o} reply`).toEqual([]);
    }
  });

  it("passes every request and reply of the pact's interactions", () => {
    const examples = pactExamples();
    expect(examples.length).toBeGreaterThan(10);
    for (const { description, request, reply } of examples) {
      const o = OPERATION_OF[request.service];
      expect(validator(requestComponent(o))(request), description).toEqual([]);
      expect(validator('SellerRequest')(request), description).toEqual([]);
      expect(validator(replyComponent(o))(reply), description).toEqual([]);
    }
  });

  it('refuses a request whose service is none of the four, and a reply without its required field', () => {
    expect(validator('SellerRequest')({ ...loadFixture('invoice', 'seller-request'), service: 'refund' })).not.toEqual(
      [],
    );
    const { order_number: _, ...reply } = loadFixture('place-order', 'seller-reply') as Record<string, unknown>;
    expect(validator(replyComponent('place-order'))(reply).join()).toMatch(/order_number/);
  });
});
