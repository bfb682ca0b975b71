// The internal API's member routes (/internal/members: members, their locations and accounts,
// their change history) as OpenAPI endpoints, for internal-api-document.ts.
import { OverallStatus } from '../../contracts/index';
import type { Endpoint, ErrorAnswer, Json } from '../../contracts/openapi-builder';
import { errorAnswer } from './error-answers';
import { MAX_ID_LENGTH, PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import {
  AddAccountInput,
  AddLocationInput,
  CreateMemberInput,
  OptionalReasonInput,
  ReasonInput,
  UpdateAccountInput,
  UpdateLocationInput,
  UpdateMemberInput,
} from '../directory/member-shapes';
import { LIVE_NEEDS_CERTIFICATE, MEMBER_RULES } from '../directory/members';
import {
  AccountListReply,
  AccountReply,
  LocationListReply,
  LocationReply,
  MemberChangesReply,
  MemberDetailReply,
  MemberListReply,
  MemberReply,
} from './member-reply-shapes';

const G = 'GatewayErrorReply';
const reply = (status_code: OverallStatus, message: string, path = '', rule?: string) => ({
  status_code,
  message,
  errors: [{ path, message, ...(rule === undefined ? {} : { rule }) }],
});

const E = {
  400: (example: unknown) =>
    errorAnswer(
      G,
      400,
      'Refused: the body or a header breaks a rule; message and errors name it (status_code 4422)',
      example,
    ),
  401: errorAnswer(G, 401, 'The internal credential is missing or wrong (status_code 4403)', {
    ...reply(OverallStatus.AccessDenied, 'invalid internal API credential'),
  }),
  403: errorAnswer(G, 403, 'A cross-site request (a browser on another origin) is refused (status_code 4403)', {
    ...reply(OverallStatus.AccessDenied, 'cross-site requests are refused'),
  }),
  404: (what: string) =>
    errorAnswer(
      G,
      404,
      `${what} (status_code 3000)`,
      reply(OverallStatus.GeneralError, "unknown member 'M999'", '/id'),
    ),
  409: (what: string, example: unknown) => errorAnswer(G, 409, `${what} (status_code 3000)`, example),
  413: errorAnswer(G, 413, 'The body is larger than 64 KiB (status_code 4422)', {
    status_code: OverallStatus.ValidationError,
    message: 'request body larger than 65536 bytes',
  }),
  415: errorAnswer(
    G,
    415,
    'The content type is not application/json (status_code 4422)',
    reply(
      OverallStatus.ValidationError,
      "content-type must be application/json, not 'text/plain'",
      'header:content-type',
    ),
  ),
  503: errorAnswer(
    G,
    503,
    "The internal API's store cannot be reached (status_code 5503)",
    reply(OverallStatus.ServiceOffline, 'the store cannot be reached; try again later'),
    true,
  ),
};

const UNKNOWN = 'The member (or its location, account) does not exist';

const operator: Json = {
  name: 'X-Operator',
  in: 'header',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 100 },
  description: 'Who makes the change: recorded in the change history',
  example: 'ops-anna',
};
/** A path id: what the store can hold (400 past it); an id that exists nowhere is a 404. */
const pathId = (name: string, example: string): Json => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH, pattern: PLAIN_TEXT_PATTERN },
  example,
});
const memberId = pathId('id', 'M300');
const locationId = pathId('locationId', 'L301');
const accountId = pathId('accountId', 'A-3001');
const BAD_PATH_ID = reply(
  OverallStatus.ValidationError,
  'path:id must be 1 to 100 characters, without NUL (U+0000) or an unpaired surrogate',
  'path:id',
);

const STATE_MAP_EXAMPLE = {
  defaults: { member: 'M300', account: 'A-3001', location_id: 'L301' },
  states: { 'part exists': { mfr_code: 'GAT', part_number: '22433' } },
};
const MEMBER = {
  id: 'M300',
  name: 'Harbour Parts',
  sellerUrl: 'https://seller.harbour-parts.example/federated',
  sellerAuth: { kind: 'bearer' },
  integration: 'harbour',
  timeoutMs: 5000,
  replyMode: 'strict',
  status: 'pending',
  stateMap: STATE_MAP_EXAMPLE,
  slos: ['p95<300ms', 'errors<0.1%'],
};
const CREATE = {
  id: 'M300',
  name: 'Harbour Parts',
  sellerUrl: 'https://seller.harbour-parts.example/federated',
  sellerAuth: { kind: 'bearer', token: 'token-the-seller-issued' },
  integration: 'harbour',
  timeoutMs: 5000,
  stateMap: STATE_MAP_EXAMPLE,
  slos: ['p95<300ms', 'errors<0.1%'],
};
const LOCATION = { id: 'L301', memberId: 'M300', description: 'Harbour St', type: 1 };
const ACCOUNT = { memberId: 'M300', accountId: 'A-3001', description: 'Demo Garage (Harbour)', standing: 'good' };
const NOW = '2026-03-01T09:30:00.000Z';

/** A write's answers besides its own: body and header refused, unknown member, the guards. */
const writeErrors = (badBody: unknown, conflict?: ErrorAnswer): Endpoint['errors'] => ({
  400: E[400](badBody),
  401: E[401],
  403: E[403],
  404: E[404](UNKNOWN),
  ...(conflict === undefined ? {} : ({ 409: conflict } as Endpoint['errors'])),
  413: E[413],
  415: E[415],
  503: E[503],
});
const readErrors = (withUnknown: boolean): Endpoint['errors'] => ({
  401: E[401],
  413: E[413],
  ...(withUnknown ? ({ 400: E[400](BAD_PATH_ID), 404: E[404](UNKNOWN) } as Endpoint['errors']) : {}),
  503: E[503],
});

const liveByWrite = E[409](
  `The write sets status live: ${LIVE_NEEDS_CERTIFICATE} (rule ${MEMBER_RULES.liveNeedsCertificate}); or the id is taken (rule ${MEMBER_RULES.idTaken})`,
  reply(
    OverallStatus.GeneralError,
    `${LIVE_NEEDS_CERTIFICATE} for contract major 3`,
    '/status',
    MEMBER_RULES.liveNeedsCertificate,
  ),
);

export const MEMBER_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/members',
    summary: 'Members, optionally of one status',
    tag: 'Members',
    parameters: [
      {
        name: 'status',
        in: 'query',
        schema: { type: 'string', enum: ['pending', 'live', 'suspended'] },
        example: 'pending',
      },
    ],
    reply: { status: 200, schema: MemberListReply, example: [MEMBER] },
    security: ['internalApi'],
    errors: {
      ...readErrors(false),
      400: E[400](
        reply(OverallStatus.ValidationError, 'status must be one of pending, live, suspended', 'query:status'),
      ),
    },
  },
  {
    method: 'post',
    path: '/internal/members',
    summary: 'Add a member: it starts pending, and goes live only on a passing certificate',
    tag: 'Members',
    description:
      'The seller URL is judged by the production address policy when NODE_ENV=production (https, a public address). ' +
      'Secrets (a bearer token, a basic password) are never shown again, and are masked in the change history.',
    parameters: [operator],
    request: { schema: CreateMemberInput, example: CREATE },
    reply: { status: 201, description: 'Added, pending', schema: MemberReply, example: MEMBER },
    security: ['internalApi'],
    errors: writeErrors(
      reply(
        OverallStatus.ValidationError,
        "sellerUrl 'http://10.0.0.7/seller' refused: http: is refused in production: a seller URL must be https",
        '/sellerUrl',
        MEMBER_RULES.sellerUrlPolicy,
      ),
      liveByWrite,
    ),
  },
  {
    method: 'get',
    path: '/internal/members/{id}',
    summary: 'One member with its locations, accounts and newest certificate',
    tag: 'Members',
    parameters: [memberId],
    reply: {
      status: 200,
      schema: MemberDetailReply,
      example: {
        ...MEMBER,
        locations: [LOCATION],
        accounts: [ACCOUNT],
        certificate: { id: 7, verdict: 'failed', contractVersion: '3.2.0', contractMajor: 3, issuedAt: NOW },
      },
    },
    security: ['internalApi'],
    errors: readErrors(true),
  },
  {
    method: 'patch',
    path: '/internal/members/{id}',
    summary: "Change a member's name, seller URL, auth, integration, timeout, reply mode, state map or SLOs",
    tag: 'Members',
    description: 'Only the fields given change. Status is not written here: suspend and reinstate change it.',
    parameters: [memberId, operator],
    request: { schema: UpdateMemberInput, example: { sellerUrl: 'https://seller2.harbour-parts.example/federated' } },
    reply: { status: 200, schema: MemberReply, example: MEMBER },
    security: ['internalApi'],
    errors: writeErrors(
      reply(
        OverallStatus.ValidationError,
        '/stateMap/states/part exists/mfr_code must be a string',
        '/stateMap/states/part exists/mfr_code',
      ),
      E[409](
        `The update sets status live: ${LIVE_NEEDS_CERTIFICATE}`,
        reply(OverallStatus.GeneralError, LIVE_NEEDS_CERTIFICATE, '/status', MEMBER_RULES.liveNeedsCertificate),
      ),
    ),
  },
  {
    method: 'post',
    path: '/internal/members/{id}/suspend',
    summary: 'Suspend a member: it serves no buyer from the next request, on every instance',
    tag: 'Members',
    parameters: [memberId, operator],
    request: { schema: ReasonInput, example: { reason: 'seller answers 5xx since 08:10' } },
    reply: { status: 200, schema: MemberReply, example: { ...MEMBER, status: 'suspended' } },
    security: ['internalApi'],
    errors: writeErrors(
      reply(OverallStatus.ValidationError, '/reason is required', '/reason'),
      E[409](
        `The member is suspended already (rule ${MEMBER_RULES.transition})`,
        reply(OverallStatus.GeneralError, "member 'M300' is suspended already", '', MEMBER_RULES.transition),
      ),
    ),
  },
  {
    method: 'post',
    path: '/internal/members/{id}/reinstate',
    summary:
      'Reinstate a suspended member: live with a passing certificate for the current contract major, else pending',
    tag: 'Members',
    parameters: [memberId, operator],
    request: { schema: OptionalReasonInput, example: { reason: 'seller fixed' }, optional: true },
    reply: { status: 200, schema: MemberReply, example: MEMBER },
    security: ['internalApi'],
    errors: writeErrors(
      reply(OverallStatus.ValidationError, "/colour unknown field 'colour'", '/colour'),
      E[409](
        `The member is not suspended (rule ${MEMBER_RULES.transition})`,
        reply(
          OverallStatus.GeneralError,
          "member 'M300' is pending, not suspended: nothing to reinstate",
          '',
          MEMBER_RULES.transition,
        ),
      ),
    ),
  },
  {
    method: 'get',
    path: '/internal/members/{id}/changes',
    summary: "A member's change history, newest first: who, when, what",
    tag: 'Members',
    parameters: [
      memberId,
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 }, example: 20 },
    ],
    reply: {
      status: 200,
      schema: MemberChangesReply,
      example: [
        {
          id: 12,
          memberId: 'M300',
          actor: 'ops-anna',
          action: 'member.suspend',
          detail: {
            reason: 'seller answers 5xx since 08:10',
            before: { status: 'live' },
            after: { status: 'suspended' },
          },
          at: NOW,
        },
      ],
    },
    security: ['internalApi'],
    errors: {
      ...readErrors(true),
      400: E[400](reply(OverallStatus.ValidationError, 'limit must be an integer from 1 to 1000', 'query:limit')),
    },
  },
  {
    method: 'get',
    path: '/internal/members/{id}/locations',
    summary: "A member's locations",
    tag: 'Members',
    parameters: [memberId],
    reply: { status: 200, schema: LocationListReply, example: [LOCATION] },
    security: ['internalApi'],
    errors: readErrors(true),
  },
  {
    method: 'post',
    path: '/internal/members/{id}/locations',
    summary: 'Add a location to a member (location ids are unique across members)',
    tag: 'Members',
    parameters: [memberId, operator],
    request: { schema: AddLocationInput, example: { id: 'L301', description: 'Harbour St', type: 1 } },
    reply: { status: 201, description: 'Added', schema: LocationReply, example: LOCATION },
    security: ['internalApi'],
    errors: writeErrors(
      reply(OverallStatus.ValidationError, '/type must be one of 1, 2', '/type'),
      E[409](
        `The location id is taken (rule ${MEMBER_RULES.idTaken})`,
        reply(
          OverallStatus.GeneralError,
          "location 'L301' exists already (member 'M300')",
          '/id',
          MEMBER_RULES.idTaken,
        ),
      ),
    ),
  },
  {
    method: 'patch',
    path: '/internal/members/{id}/locations/{locationId}',
    summary: "Change a location's description or type",
    tag: 'Members',
    parameters: [memberId, locationId, operator],
    request: { schema: UpdateLocationInput, example: { description: 'Harbour St (north door)' } },
    reply: { status: 200, schema: LocationReply, example: LOCATION },
    security: ['internalApi'],
    errors: writeErrors(reply(OverallStatus.ValidationError, '/type must be one of 1, 2', '/type')),
  },
  {
    method: 'get',
    path: '/internal/members/{id}/accounts',
    summary: "A member's accounts",
    tag: 'Members',
    parameters: [memberId],
    reply: { status: 200, schema: AccountListReply, example: [ACCOUNT] },
    security: ['internalApi'],
    errors: readErrors(true),
  },
  {
    method: 'post',
    path: '/internal/members/{id}/accounts',
    summary: 'Add an account to a member',
    tag: 'Members',
    parameters: [memberId, operator],
    request: { schema: AddAccountInput, example: { accountId: 'A-3001', description: 'Demo Garage (Harbour)' } },
    reply: { status: 201, description: 'Added', schema: AccountReply, example: ACCOUNT },
    security: ['internalApi'],
    errors: writeErrors(
      reply(OverallStatus.ValidationError, '/standing must be one of good, on_hold, credit_limit', '/standing'),
      E[409](
        `The account id is taken at this member (rule ${MEMBER_RULES.idTaken})`,
        reply(
          OverallStatus.GeneralError,
          "member 'M300' has an account 'A-3001' already",
          '/accountId',
          MEMBER_RULES.idTaken,
        ),
      ),
    ),
  },
  {
    method: 'patch',
    path: '/internal/members/{id}/accounts/{accountId}',
    summary: "Change an account's description or standing",
    tag: 'Members',
    parameters: [memberId, accountId, operator],
    request: { schema: UpdateAccountInput, example: { standing: 'on_hold' } },
    reply: { status: 200, schema: AccountReply, example: { ...ACCOUNT, standing: 'on_hold' } },
    security: ['internalApi'],
    errors: writeErrors(
      reply(OverallStatus.ValidationError, '/standing must be one of good, on_hold, credit_limit', '/standing'),
    ),
  },
];
