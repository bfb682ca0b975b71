import { describe, expect, it } from 'vitest';
import { sellerApiDocument } from '../../contracts/seller-api-document';
import { compareDocuments } from './compare-documents';
import { compareOpenApiDocuments } from './openapi-compat';
import { compareSellerApiDocuments, SELLER_API_POLICY } from './seller-api-compat';

// The seller API document read by the seller system that serves it: it reads requests and
// writes replies, so each change's class is the buyer reading's turned round.

interface Schema {
  required: string[];
  properties: Record<string, { enum?: unknown[]; type?: string }>;
}
const document = () =>
  JSON.parse(JSON.stringify(sellerApiDocument())) as { components: { schemas: Record<string, Schema> } };

function changed(edit: (schemas: Record<string, Schema>) => void) {
  const head = document();
  edit(head.components.schemas);
  return { seller: compareSellerApiDocuments(document(), head), buyer: compareOpenApiDocuments(document(), head) };
}

describe('compareSellerApiDocuments', () => {
  it('finds nothing between two copies', () => {
    expect(compareSellerApiDocuments(document(), document())).toEqual([]);
  });

  it('turns the class round: a reply field made optional is safe for the seller that writes it', () => {
    const { seller, buyer } = changed((s) => {
      s.PlaceOrderSellerReply.required = s.PlaceOrderSellerReply.required.filter((f) => f !== 'order_number');
    });
    expect(buyer.map((f) => [f.side, f.class, f.policy])).toEqual([['buyer', 'breaking', 'reply-field-made-optional']]);
    expect(seller.map((f) => [f.side, f.class, f.policy])).toEqual([['seller', 'safe', 'reply-field-made-optional']]);
  });

  it('breaks the seller when the gateway may send a value it did not before, never blaming a buyer', () => {
    const { seller, buyer } = changed((s) => s.PlaceOrderSellerRequest.properties.order_type.enum!.push(9));
    expect(buyer.map((f) => [f.class, f.policy])).toEqual([['safe', 'request-enum-widened']]);
    expect(seller).toEqual([
      expect.objectContaining({ side: 'seller', class: 'breaking', policy: 'request-enum-widened', where: 'POST /' }),
    ]);
    expect(seller.every((f) => !/buyer/.test(f.message))).toBe(true);
  });

  it('is the reading compat gives two seller API documents named as files', () => {
    const head = document();
    head.components.schemas.PlaceOrderSellerReply.required.push('comment');
    const report = compareDocuments(
      { kind: 'openapi', source: 'base.json', document: document() },
      { kind: 'openapi', source: 'head.json', document: head },
    );
    expect(report.findings).toEqual([
      expect.objectContaining({ side: 'seller', class: 'breaking', policy: 'reply-field-newly-required' }),
    ]);
  });

  it('has a class for every rule the buyer walk can cite, and calls a new operation new work', () => {
    expect(SELLER_API_POLICY['path-added']).toBe('new-work');
    expect(SELLER_API_POLICY['request-field-added']).toBe('safe');
    expect(SELLER_API_POLICY['reply-field-newly-required']).toBe('breaking');
  });
});
