// JSON Schemas of the internal API's own replies (keys, outbox, inspector), for its OpenAPI
// document. Their TypeScript types live with the routes; the assignments at the bottom make
// typecheck fail when the two drift apart.
import { Type, type Static } from '@sinclair/typebox';
import type { KeyListingJson } from '../internal-api/key-routes';
import type { OutboxView, RetryOutcome } from '../internal-api/outbox-routes';
import type { RegisteredKey } from '../directory/api-keys';
import { Id, MAX_NAME_LENGTH, MAX_PEM_LENGTH, Text } from '../../contracts/schemas/common';

const Algorithm = Type.Union([Type.Literal('RS256'), Type.Literal('ES256')]);
const Timestamp = Type.String({ description: 'ISO 8601 UTC' });

// The bounds the routes enforce (key-routes.ts; its test holds the two together). clientId, kid
// and publicKeyPem are trimmed first, and blank is refused as missing.
export const RegisterKeyRequest = Type.Object(
  {
    clientId: Id(),
    kid: Id(),
    publicKeyPem: Id('SPKI PEM of the RS256 or ES256 public key', MAX_PEM_LENGTH),
    algorithm: Type.Optional(Algorithm),
    usernames: Type.Optional(Type.Array(Id(), { description: 'buyer users this key may act for' })),
    clientName: Type.Optional(Text(undefined, MAX_NAME_LENGTH)),
  },
  { title: 'Register key — request' },
);

export const RegisteredKeyReply = Type.Object(
  {
    kid: Type.String(),
    clientId: Type.String(),
    algorithm: Algorithm,
    createdClient: Type.Boolean(),
    linkedUsernames: Type.Array(Type.String()),
  },
  { title: 'Register key — reply', additionalProperties: false },
);

export const KeyListingReply = Type.Array(
  Type.Object(
    {
      kid: Type.String(),
      clientId: Type.String(),
      algorithm: Algorithm,
      active: Type.Boolean(),
      createdAt: Timestamp,
      revokedAt: Type.Union([Timestamp, Type.Null()]),
      linkedUsernames: Type.Array(Type.String()),
    },
    { additionalProperties: false },
  ),
  { title: 'Key listing — reply' },
);

export const RevokedKeyReply = Type.Object(
  { kid: Type.String(), revokedAt: Timestamp },
  { title: 'Revoke key — reply', additionalProperties: false },
);

const OutboxState = Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]);

export const OutboxViewReply = Type.Object(
  {
    counts: Type.Object(
      { pending: Type.Integer(), sent: Type.Integer(), failed: Type.Integer() },
      { additionalProperties: false },
    ),
    messages: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          kind: Type.String(),
          recipient: Type.String(),
          subject: Type.String(),
          userId: Type.Union([Type.Integer(), Type.Null()]),
          state: OutboxState,
          attempts: Type.Integer(),
          lastError: Type.Union([Type.String(), Type.Null()]),
          nextAttemptAt: Timestamp,
          createdAt: Timestamp,
          sentAt: Type.Union([Timestamp, Type.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { title: 'Outbox — reply', additionalProperties: false },
);

export const OutboxRetryRequest = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), { description: 'only these messages; every failed one when omitted' }),
    ),
  },
  { title: 'Outbox retry — request' },
);

const Dispatched = Type.Object(
  { sent: Type.Integer(), deferred: Type.Integer(), failed: Type.Integer() },
  {
    additionalProperties: false,
    description:
      'what the delivery run right after did: the pass in progress at the call (if any) and a new one, counted together',
  },
);
export const OutboxRetryReply = Type.Object(
  { retried: Type.Integer(), dispatched: Type.Union([Dispatched, Type.Null()]) },
  { title: 'Outbox retry — reply', additionalProperties: false },
);

export const InspectorSessionRequest = Type.Object(
  { token: Type.String({ minLength: 1, description: 'the internal credential' }) },
  { title: 'Inspector session — request' },
);

export const InspectorExchangesReply = Type.Object(
  {
    limit: Type.Integer(),
    count: Type.Integer(),
    exchanges: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'Inspector exchanges — reply' },
);

/** The inspector's own refusal body (inspector/inspector-app.ts). */
export const InspectorErrorReply = Type.Object(
  { message: Type.String(), path: Type.Optional(Type.String()) },
  { title: 'Inspector error reply' },
);

// Drift checks, both ways: each schema's static type and the routes' type accept each other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _shapesMatchRoutes: [
  Same<Static<typeof RegisteredKeyReply>, RegisteredKey>,
  Same<Static<typeof KeyListingReply>, KeyListingJson[]>,
  Same<Static<typeof OutboxViewReply>, OutboxView>,
  Same<Static<typeof OutboxRetryReply>, RetryOutcome>,
] = [true, true, true, true];
