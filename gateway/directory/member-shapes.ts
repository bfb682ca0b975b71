// The shapes of what an operator writes about members, their locations and accounts (the
// internal API's /internal/members routes and `npm run members`), bounded as the buyer API's
// requests are (contracts/schemas/common.ts). members.ts checks every write against these; the
// internal OpenAPI document publishes them.
import { Type, type Static } from '@sinclair/typebox';
import { Id, MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, Text, CodeOf } from '../../contracts/schemas/common';
import { LocationType } from '../../contracts/codes';
import { StateMapFile } from '../../contracts/state-map-schema';

/** A seller call's deadline: at least 100 ms, at most a minute (a buyer waits for it). */
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 60_000;
export const DEFAULT_TIMEOUT_MS = 5_000;
/** A seller URL: a URL, not a document. */
export const MAX_URL_LENGTH = 2_048;
export const MAX_SLOS = 20;

/** New member ids go into paths and logs: letters, digits, `.`, `_`, `-`. */
export const MEMBER_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';

export const MemberId = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern: MEMBER_ID_PATTERN,
  description: 'Member id in the member network: letters, digits, `.`, `_`, `-`',
});

const SellerUrl = Id(
  'Where forwarded requests are POSTed: http(s); in production https to a public address (GATEWAY_ALLOWED_SELLER_HOSTS)',
  MAX_URL_LENGTH,
);

/** Secrets are written, never read back: replies say only the kind (and a basic username). */
export const SellerAuthInput = Type.Object(
  {
    kind: Type.String({ enum: ['none', 'bearer', 'basic'], description: 'none, bearer (token) or basic' }),
    token: Type.Optional(Id('bearer: the token the gateway sends (never shown again)', MAX_TEXT_LENGTH)),
    username: Type.Optional(Id('basic: the username')),
    password: Type.Optional(Id('basic: the password (never shown again)', MAX_TEXT_LENGTH)),
  },
  { additionalProperties: false, description: "How the gateway authenticates to the member's seller system" },
);

/** `--slo` thresholds as the kit's `load` takes them: p95<300ms, errors<0.1%, timeouts=0. */
const SloExpression = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern:
    '^\\s*(p50|p90|p95|p99|p\\(\\d+\\)|max|rps|errors|timeouts|dropped)\\s*(<=|>=|==|=|<|>)\\s*\\d+(\\.\\d+)?(ms|s|%|/s)?\\s*$',
  description: 'metric<value as `load --slo` takes it: p95<300ms, errors<0.1%, timeouts=0',
});

const Status = Type.String({
  enum: ['pending', 'live', 'suspended'],
  description: 'Not writable: a member starts pending, goes live only on a passing certificate',
});

const memberFields = {
  name: Id('Display name', MAX_NAME_LENGTH),
  sellerUrl: SellerUrl,
  sellerAuth: Type.Optional(SellerAuthInput),
  integration: Type.Optional(Text('Sent as `integration` in forwarded requests; empty: none', MAX_ID_LENGTH)),
  timeoutMs: Type.Optional(
    Type.Integer({ minimum: MIN_TIMEOUT_MS, maximum: MAX_TIMEOUT_MS, description: 'Deadline of one seller call' }),
  ),
  replyMode: Type.Optional(
    Type.String({
      enum: ['strict', 'lenient'],
      description: 'strict: a reply that breaks a rule is refused (5500); lenient: passed on with a warning',
    }),
  ),
  stateMap: Type.Optional(StateMapFile),
  slos: Type.Optional(
    Type.Array(SloExpression, { maxItems: MAX_SLOS, description: 'Load SLOs certification holds the seller to' }),
  ),
  status: Type.Optional(Status),
};

export const CreateMemberInput = Type.Object(
  { id: MemberId, ...memberFields },
  { additionalProperties: false, title: 'Create member — request' },
);
export type CreateMemberInput = Static<typeof CreateMemberInput>;

const { name, sellerUrl, ...optional } = memberFields;
export const UpdateMemberInput = Type.Object(
  { name: Type.Optional(name), sellerUrl: Type.Optional(sellerUrl), ...optional },
  { additionalProperties: false, minProperties: 1, title: 'Update member — request' },
);
export type UpdateMemberInput = Static<typeof UpdateMemberInput>;

export const ReasonInput = Type.Object(
  { reason: Id('Why, for the change history', MAX_TEXT_LENGTH) },
  { additionalProperties: false, title: 'Suspend member — request' },
);
export const OptionalReasonInput = Type.Object(
  { reason: Type.Optional(Id('Why, for the change history', MAX_TEXT_LENGTH)) },
  { additionalProperties: false, title: 'Reinstate member — request' },
);

const locationFields = {
  description: Id('What buyers see', MAX_NAME_LENGTH),
  type: CodeOf(LocationType, '1 store, 2 warehouse'),
};
export const AddLocationInput = Type.Object(
  { id: Id('Location id in the member network (unique across members)'), ...locationFields },
  { additionalProperties: false, title: 'Add location — request' },
);
export type AddLocationInput = Static<typeof AddLocationInput>;
export const UpdateLocationInput = Type.Object(
  { description: Type.Optional(locationFields.description), type: Type.Optional(locationFields.type) },
  { additionalProperties: false, minProperties: 1, title: 'Update location — request' },
);
export type UpdateLocationInput = Static<typeof UpdateLocationInput>;

const Standing = Type.String({
  enum: ['good', 'on_hold', 'credit_limit'],
  description: "good, on_hold or credit_limit: the account's standing at the member",
});
export const AddAccountInput = Type.Object(
  {
    accountId: Id('Account id in the member system'),
    description: Id('Whose account', MAX_NAME_LENGTH),
    standing: Type.Optional(Standing),
  },
  { additionalProperties: false, title: 'Add account — request' },
);
export type AddAccountInput = Static<typeof AddAccountInput>;
export const UpdateAccountInput = Type.Object(
  { description: Type.Optional(Id('Whose account', MAX_NAME_LENGTH)), standing: Type.Optional(Standing) },
  { additionalProperties: false, minProperties: 1, title: 'Update account — request' },
);
export type UpdateAccountInput = Static<typeof UpdateAccountInput>;

/** Who made a change: the X-Operator header on the internal API, $USER for `npm run members`. */
export const OperatorName = Id('Who makes the change (recorded in the change history)');
