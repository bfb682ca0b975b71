import { Type, type Static } from '@sinclair/typebox';
import { compileValidator } from './validator';

// A member's production replay file: the exchanges that broke a reply rule at the gateway,
// as the vendor's kit runs them against the vendor's own (staging) system with
// `federated-gateway replay <file> --seller-url <url>`. The gateway writes it
// (gateway/conformance/), the kit reads it (cli/replay-command.ts): one shape, here.
// Each request is the forwarded request as the gateway sent it, with the buyer's identity
// removed (the buyer user's terminal_id; an order's ship_to and free-text comment); the
// reply is the seller's body as the gateway read it.

export const PRODUCTION_REPLAY_KIND = 'production-replay';

const Operation = Type.Union([
  Type.Literal('item-inquiry'),
  Type.Literal('place-order'),
  Type.Literal('invoice'),
  Type.Literal('statement'),
]);

export const ProductionReplayExchange = Type.Object({
  rule: Type.String({ minLength: 1, description: 'The rule the reply broke (e.g. item.id-echo, reply.schema)' }),
  operation: Operation,
  seen_at: Type.String({ description: 'When the gateway judged the reply (ISO 8601)' }),
  request: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The forwarded request, the buyer identity removed: POST it to the seller as JSON',
  }),
  reply: Type.Union([Type.String(), Type.Null()], {
    description: 'The seller reply body as the gateway read it; null when larger than a sample keeps',
  }),
  reply_bytes: Type.Integer({ minimum: 0 }),
  violations: Type.Array(Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: true }), {
    description: 'What the gateway found, at its JSON pointer in the reply',
  }),
});
export type ProductionReplayExchange = Static<typeof ProductionReplayExchange>;

export const ProductionReplayFile = Type.Object({
  kind: Type.Literal(PRODUCTION_REPLAY_KIND),
  member: Type.String({ minLength: 1 }),
  contract_version: Type.String(),
  generated_at: Type.String(),
  removed: Type.Array(Type.String(), {
    description: 'JSON pointers (per operation) of what was taken out of each request: the buyer identity',
  }),
  exchanges: Type.Array(ProductionReplayExchange),
});
export type ProductionReplayFile = Static<typeof ProductionReplayFile>;

export const validateProductionReplayFile = compileValidator(ProductionReplayFile);
