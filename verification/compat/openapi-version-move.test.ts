import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../gateway/api-reference/openapi-document';
import { compareOperations } from './openapi-compat';
import { compareApiVersions } from './openapi-version-move';
import type { CompatFinding } from './compat-finding';

const BUYER = JSON.parse(JSON.stringify(openApiDocument())) as any;
const V31 = '/json/federated/v3_1/';
const V32 = '/json/federated/v3_2/';
const op = (version: string, name: string) => ({ method: 'post', path: `${version}${name}` });
const brief = (f: CompatFinding) => [f.class, f.policy, f.where, f.pointer];
const P = (version: string, name: string, key = '') => `/paths/~1json~1federated~1${version}~1${name}/post${key}`;

describe('a v3.1 buyer program moved to v3.2 (the served buyer document)', () => {
  it('item inquiry: same request and reply schemas, same statuses and headers; only wording and the operationId differ', () => {
    expect(compareOperations(BUYER, op(V31, 'item_inquiry'), op(V32, 'item_inquiry')).map(brief)).toEqual([
      ['safe', 'wording-changed', 'POST /json/federated/v3_2/item_inquiry', P('v3_2', 'item_inquiry', '/summary')],
      ['safe', 'wording-changed', 'POST /json/federated/v3_2/item_inquiry', P('v3_1', 'item_inquiry', '/description')],
      ['safe', 'wording-changed', 'POST /json/federated/v3_2/item_inquiry', P('v3_2', 'item_inquiry', '/tags')],
      [
        'safe',
        'operation-id-changed',
        'POST /json/federated/v3_2/item_inquiry',
        P('v3_2', 'item_inquiry', '/operationId'),
      ],
    ]);
  });

  it('every operation of both versions: place order as item inquiry, invoice and statement new in v3.2, nothing breaking', () => {
    const findings = compareApiVersions(BUYER, V31, V32);
    expect(findings.filter((f) => f.class === 'breaking')).toEqual([]);
    expect(findings.filter((f) => f.where.endsWith('place_order')).map((f) => f.policy)).toEqual([
      'wording-changed',
      'wording-changed',
      'wording-changed',
      'operation-id-changed',
    ]);
    expect(findings.filter((f) => f.policy === 'operation-added').map((f) => f.where)).toEqual([
      'POST /json/federated/v3_2/invoice',
      'POST /json/federated/v3_2/statement',
    ]);
  });

  it('the way back, v3.2 to v3.1, breaks a program that retrieves invoices or statements', () => {
    const back = compareApiVersions(BUYER, V32, V31).filter((f) => f.class === 'breaking');
    expect(back.map(brief)).toEqual([
      ['breaking', 'operation-removed', 'POST /json/federated/v3_2/invoice', P('v3_2', 'invoice')],
      ['breaking', 'operation-removed', 'POST /json/federated/v3_2/statement', P('v3_2', 'statement')],
    ]);
  });

  it('sees the bodies across paths: were v3.2 to add an item status, the move would break a v3.1 program', () => {
    const diverged = structuredClone(BUYER);
    diverged.components.schemas.ItemInquiryV32Reply = structuredClone(
      diverged.components.schemas.ItemInquiryBuyerReply,
    );
    diverged.components.schemas.ItemInquiryV32Reply.properties.items.items.properties.status_code.enum.push(5);
    diverged.paths[`${V32}item_inquiry`].post.responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/ItemInquiryV32Reply',
    };
    const breaking = compareOperations(diverged, op(V31, 'item_inquiry'), op(V32, 'item_inquiry')).filter(
      (f) => f.class === 'breaking',
    );
    expect(breaking.map(brief)).toEqual([
      [
        'breaking',
        'reply-enum-widened',
        'POST /json/federated/v3_2/item_inquiry',
        '/components/schemas/ItemInquiryV32Reply/properties/items/items/properties/status_code/enum',
      ],
    ]);
  });

  it('names an operation that does not exist', () => {
    expect(() => compareOperations(BUYER, op(V31, 'invoice'), op(V32, 'invoice'))).toThrow(
      'base has no operation POST /json/federated/v3_1/invoice',
    );
  });
});
