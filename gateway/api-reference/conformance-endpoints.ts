// Production conformance's routes in the internal API's OpenAPI document
// (gateway/internal-api/conformance-routes.ts): the figures, the replay file, the page.
import { OverallStatus } from '../../contracts/index';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import type { Endpoint, ErrorAnswer } from '../../contracts/openapi-builder';
import { errorAnswer } from './error-answers';
import { ConformanceReportReply, MemberConformanceReply, ProductionReplayReply } from './conformance-shapes';

const G = 'GatewayErrorReply';
const AT = '2026-03-01T09:30:00.000Z';
const HOUR = '2026-03-01T08:31:00.000Z';

const reply = (status_code: OverallStatus, message: string, path = '') => ({
  status_code,
  message,
  errors: [{ path, message }],
});

const ERRORS = {
  400: errorAnswer(
    G,
    400,
    'The member is not a member id (status_code 4422)',
    reply(OverallStatus.ValidationError, 'member must be a member id (1 to 100 characters)', 'path:member'),
  ),
  401: errorAnswer(
    G,
    401,
    'The internal credential is missing or wrong (status_code 4403)',
    reply(OverallStatus.AccessDenied, 'invalid internal API credential'),
  ),
  404: errorAnswer(
    G,
    404,
    'No such member: not in the directory and never counted (status_code 3000)',
    reply(OverallStatus.GeneralError, "no member 'M999': not in the directory and never counted", 'path:member'),
  ),
  413: errorAnswer(G, 413, 'The body is larger than 64 KiB (status_code 4422)', {
    status_code: OverallStatus.ValidationError,
    message: 'request body larger than 65536 bytes',
  }),
  503: errorAnswer(
    G,
    503,
    "The internal API's store cannot be reached (status_code 5503)",
    reply(OverallStatus.ServiceOffline, 'the store is unavailable; try again later'),
    true,
  ),
} satisfies Record<number, ErrorAnswer>;

const inspector401 = errorAnswer('InspectorErrorReply', 401, 'Neither the credential nor a session', {
  message: 'the inspector needs the internal credential',
});

const MEMBER = {
  name: 'member',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 100 },
  example: 'M100',
};

const window = (from: string) => ({
  from,
  operations: [
    {
      operation: 'item-inquiry',
      judged: 10000,
      nonconforming: 98,
      rate: 0.0098,
      rules: [
        { rule: 'reply.schema', broken: 0, rate: 0 },
        { rule: 'item.id-echo', broken: 98, rate: 0.0098 },
      ],
    },
  ],
});
const MEMBER_EXAMPLE = {
  member: 'M100',
  status: 'live',
  certificate: null,
  windows: { hour: window(HOUR), day: window(HOUR), week: window(HOUR), since_certificate: window(HOUR) },
  samples: 20,
};
const REPLAY_EXAMPLE = {
  kind: 'production-replay',
  member: 'M100',
  contract_version: CONTRACT_VERSION,
  generated_at: AT,
  removed: ['item-inquiry:/terminal_id', 'place-order:/terminal_id', 'place-order:/ship_to', 'place-order:/comment'],
  exchanges: [
    {
      rule: 'item.id-echo',
      operation: 'item-inquiry',
      seen_at: AT,
      request: {
        service: 'item_inquiry',
        integration: 'northside-dev',
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
        items: [{ id: 'q-1', mfr_code: 'WIX', part_number: '51515' }],
      },
      reply: '{"status_code":2000,"items":[]}',
      reply_bytes: 31,
      violations: [{ path: '/items', message: "requested item id 'q-1' is missing from the reply", id: 'q-1' }],
    },
  ],
};
const REPLAY_HEADERS = {
  'Content-Disposition': {
    schema: { type: 'string' },
    description: 'attachment; filename="replay-<member>.json"',
  },
};

export const CONFORMANCE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/conformance',
    summary: "Every member's production conformance: replies judged and broken, per operation and rule",
    tag: 'Conformance',
    description:
      'Over the rolling hour, day and week and since the last passing certificate (else since counting began), every gateway instance added up.',
    reply: { status: 200, schema: ConformanceReportReply, example: { generated_at: AT, members: [MEMBER_EXAMPLE] } },
    security: ['internalApi'],
    errors: { 401: ERRORS[401], 413: ERRORS[413], 503: ERRORS[503] },
  },
  {
    method: 'get',
    path: '/internal/conformance/{member}',
    summary: "One member's production conformance",
    tag: 'Conformance',
    parameters: [MEMBER],
    reply: { status: 200, schema: MemberConformanceReply, example: { generated_at: AT, ...MEMBER_EXAMPLE } },
    security: ['internalApi'],
    errors: { 400: ERRORS[400], 401: ERRORS[401], 404: ERRORS[404], 413: ERRORS[413], 503: ERRORS[503] },
  },
  {
    method: 'get',
    path: '/internal/conformance/{member}/replay',
    summary: "The member's replay file: the exchanges that broke a rule, for the kit's replay",
    tag: 'Conformance',
    description:
      'The newest 20 exchanges per broken rule, the buyer identity removed. The vendor runs: federated-gateway replay <file> --seller-url <staging>.',
    parameters: [MEMBER],
    reply: { status: 200, schema: ProductionReplayReply, example: REPLAY_EXAMPLE, headers: REPLAY_HEADERS },
    security: ['internalApi'],
    errors: { 400: ERRORS[400], 401: ERRORS[401], 404: ERRORS[404], 413: ERRORS[413], 503: ERRORS[503] },
  },
  {
    method: 'get',
    path: '/inspector/conformance',
    summary: 'The production conformance page, beside the inspector (HTML)',
    tag: 'Conformance',
    description: "Without the credential or the inspector's session: the inspector's sign-in page.",
    reply: {
      status: 200,
      mediaType: 'text/html',
      description: 'The page (or the sign-in page)',
      example: '<!doctype html>…',
    },
    security: ['internalApi', 'inspectorSession'],
    anonymous: true,
    errors: { 503: ERRORS[503] },
  },
  {
    method: 'get',
    path: '/inspector/conformance/{member}/replay',
    summary: "The member's replay file, for the page's links",
    tag: 'Conformance',
    parameters: [MEMBER],
    reply: { status: 200, schema: ProductionReplayReply, example: REPLAY_EXAMPLE, headers: REPLAY_HEADERS },
    security: ['internalApi', 'inspectorSession'],
    errors: { 400: ERRORS[400], 401: inspector401, 404: ERRORS[404], 503: ERRORS[503] },
  },
];
