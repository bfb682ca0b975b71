// The OpenAPI 3.1 document of the internal API (its own port, its own credential): user
// creation, buyer systems' keys, the welcome-mail outbox, metrics and the inspector's JSON
// endpoints. Served by the internal API itself at GET /openapi.json.
import { GatewayErrorReply, PAYLOADS } from '../../contracts/index';
import { loadFixture } from '../../contracts/payload-examples';
import { OverallStatus } from '../../contracts/index';
import { SERVER_ANSWER_RESPONSES } from './server-answer-responses';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import { buildOpenApiDocument, type Endpoint, type ErrorAnswer, type Json } from '../../contracts/openapi-builder';
import { errorAnswer } from './error-answers';
import { CONFORMANCE_ENDPOINTS } from './conformance-endpoints';
import { SESSION_COOKIE } from '../../inspector/inspector-access';
import { certificationEndpoints } from './certification-endpoints';
import {
  InspectorErrorReply,
  InspectorExchangesReply,
  InspectorSessionRequest,
  KeyListingReply,
  OutboxRetryReply,
  OutboxRetryRequest,
  OutboxViewReply,
  RegisteredKeyReply,
  RegisterKeyRequest,
  RevokedKeyReply,
} from './internal-api-shapes';
import { MEMBER_ENDPOINTS } from './member-endpoints';

const reply = (status_code: OverallStatus, message: string, path = '') => ({
  status_code,
  message,
  errors: [{ path, message }],
});
const G = 'GatewayErrorReply';

const E = {
  400: (example: unknown) =>
    errorAnswer(G, 400, 'Refused: the body breaks a rule; message and errors name it (status_code 4422)', example),
  401: () =>
    errorAnswer(
      G,
      401,
      'The internal credential is missing or wrong (status_code 4403)',
      reply(OverallStatus.AccessDenied, 'invalid internal API credential'),
    ),
  403: () =>
    errorAnswer(
      G,
      403,
      'A cross-site request (a browser on another origin) is refused (status_code 4403)',
      reply(OverallStatus.AccessDenied, 'cross-site requests are refused'),
    ),
  413: () =>
    errorAnswer(G, 413, 'The body is larger than 64 KiB (status_code 4422)', {
      status_code: OverallStatus.ValidationError,
      message: 'request body larger than 65536 bytes',
    }),
  415: () =>
    errorAnswer(
      G,
      415,
      'The content type is not application/json (status_code 4422)',
      reply(
        OverallStatus.ValidationError,
        "content-type must be application/json, not 'text/plain'",
        'header:content-type',
      ),
    ),
  503: (what: string) =>
    errorAnswer(
      G,
      503,
      `${what} (status_code 5503)`,
      reply(OverallStatus.ServiceOffline, 'address validation is unavailable; try again later'),
      true,
    ),
};
const STORE_DOWN = "The internal API's store cannot be reached";

const withBody = (): Record<number, ErrorAnswer> => ({
  401: E[401](),
  403: E[403](),
  413: E[413](),
  415: E[415](),
  503: E[503](STORE_DOWN),
});

const inspectorError = (status: number, description: string, example: unknown, retryAfter = false) =>
  errorAnswer('InspectorErrorReply', status, description, example, retryAfter);
/** Wrong credentials from one address are limited (10 a minute): past it, even the right one waits. */
const inspectorGuesses = () =>
  inspectorError(
    429,
    'Too many wrong credentials from this address; retry after Retry-After seconds',
    { message: 'too many wrong credentials from this address; retry after 42 s' },
    true,
  );

const EXAMPLE_KEY = {
  clientId: 'acme-buyer',
  kid: 'acme-key-1',
  publicKeyPem:
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEjptaFUCuCjjAj2J4woOq6adtlpeg\nz65zKWvFZRIQj3cYHKMwtdBxAXarq0ynJF400jJm5k0V6jMNquqc5hbNYg==\n-----END PUBLIC KEY-----\n',
  algorithm: 'ES256',
  usernames: ['demo'],
  clientName: 'ACME buyer system',
};
const NOW = '2026-03-01T09:30:00.000Z';

// Every /internal/* route bounds its body (64 KiB), a GET's too: 413 is added to each below.
const withBodyLimit = (endpoints: Endpoint[]): Endpoint[] =>
  endpoints.map((e) => (e.path.startsWith('/internal/') ? { ...e, errors: { 413: E[413](), ...e.errors } } : e));
export const INTERNAL_ENDPOINTS: Endpoint[] = withBodyLimit([
  {
    method: 'post',
    path: '/internal/users/create',
    summary: 'Create a user with assigned locations',
    tag: 'Users',
    description: 'Sends the welcome e-mail (through the outbox) on success.',
    request: { schema: PAYLOADS['users-create'].request, example: loadFixture('users-create', 'request') },
    reply: { status: 200, schema: PAYLOADS['users-create'].reply, example: loadFixture('users-create', 'reply') },
    security: ['internalApi'],
    errors: {
      ...withBody(),
      400: E[400](reply(OverallStatus.ValidationError, 'Username already exists', '/username')),
      503: E[503]('Address validation or the store is unavailable; retry later'),
    },
  },
  {
    method: 'get',
    path: '/internal/keys',
    summary: "Buyer systems' registered keys",
    tag: 'Keys',
    reply: {
      status: 200,
      schema: KeyListingReply,
      example: [
        {
          kid: 'acme-key-1',
          clientId: 'acme-buyer',
          algorithm: 'ES256',
          active: true,
          createdAt: NOW,
          revokedAt: null,
          linkedUsernames: ['demo'],
        },
      ],
    },
    security: ['internalApi'],
    errors: { 401: E[401](), 503: E[503](STORE_DOWN) },
  },
  {
    method: 'post',
    path: '/internal/keys',
    summary: "Register a buyer system's public key",
    tag: 'Keys',
    request: { schema: RegisterKeyRequest, example: EXAMPLE_KEY },
    reply: {
      status: 201,
      description: 'Registered',
      schema: RegisteredKeyReply,
      example: {
        kid: 'acme-key-1',
        clientId: 'acme-buyer',
        algorithm: 'ES256',
        createdClient: true,
        linkedUsernames: ['demo'],
      },
    },
    security: ['internalApi'],
    errors: {
      ...withBody(),
      400: E[400](reply(OverallStatus.ValidationError, 'kid is required (a non-empty string)', '/kid')),
    },
  },
  {
    method: 'post',
    path: '/internal/keys/{kid}/revoke',
    summary: 'Revoke a key: tokens signed with it stop working at once',
    tag: 'Keys',
    parameters: [
      { name: 'kid', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, example: 'acme-key-1' },
    ],
    reply: { status: 200, schema: RevokedKeyReply, example: { kid: 'acme-key-1', revokedAt: NOW } },
    security: ['internalApi'],
    errors: {
      400: E[400]({ status_code: OverallStatus.ValidationError, message: 'unknown kid acme-key-9' }),
      401: E[401](),
      403: E[403](),
      413: E[413](),
      // No body, but a POST: the one content-type rule of the internal API applies to it too.
      415: E[415](),
      503: E[503](STORE_DOWN),
    },
  },
  {
    method: 'get',
    path: '/internal/outbox',
    summary: 'The welcome-mail outbox: counts by state and the latest messages',
    tag: 'Outbox',
    parameters: [
      {
        name: 'state',
        in: 'query',
        schema: { type: 'string', enum: ['pending', 'sent', 'failed'] },
        example: 'failed',
      },
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 }, example: 20 },
    ],
    reply: {
      status: 200,
      schema: OutboxViewReply,
      example: {
        counts: { pending: 0, sent: 3, failed: 1 },
        messages: [
          {
            id: 4,
            kind: 'welcome',
            recipient: 'jordan.doe@demo-garage.example',
            subject: 'Welcome',
            userId: 12,
            state: 'failed',
            attempts: 5,
            lastError: 'connect ECONNREFUSED 127.0.0.1:25',
            nextAttemptAt: NOW,
            createdAt: NOW,
            sentAt: null,
          },
        ],
      },
    },
    security: ['internalApi'],
    errors: {
      400: E[400](reply(OverallStatus.ValidationError, 'state must be pending, sent or failed', '/state')),
      401: E[401](),
      503: E[503](STORE_DOWN),
    },
  },
  {
    method: 'post',
    path: '/internal/outbox/retry',
    summary: 'Make failed messages due now and run a delivery pass',
    tag: 'Outbox',
    request: { schema: OutboxRetryRequest, example: { ids: [4] }, optional: true },
    reply: {
      status: 200,
      schema: OutboxRetryReply,
      example: { retried: 1, dispatched: { sent: 1, deferred: 0, failed: 0 } },
    },
    security: ['internalApi'],
    errors: {
      ...withBody(),
      400: E[400](reply(OverallStatus.ValidationError, 'ids must be a list of message ids', '/ids')),
    },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: "The gateway's Prometheus metrics",
    tag: 'Operations',
    reply: {
      status: 200,
      mediaType: 'text/plain',
      description: 'Prometheus text exposition format',
      example: 'gateway_requests_total{route="/health",status="200"} 1\n',
    },
    security: ['internalApi'],
    errors: { 401: E[401]() },
  },
  {
    method: 'post',
    path: '/inspector/session',
    summary: "Exchange the internal credential for the inspector's session cookie",
    tag: 'Inspector',
    request: { schema: InspectorSessionRequest, example: { token: 'dev-internal-token-not-for-production' } },
    reply: {
      status: 204,
      description: 'Session started (Set-Cookie)',
      headers: {
        'Set-Cookie': {
          schema: { type: 'string' },
          description: 'The inspector session cookie (HttpOnly, SameSite=Strict)',
        },
      },
    },
    security: [],
    errors: {
      400: inspectorError(400, 'The body is not {"token": "<credential>"}', {
        message: 'token is required (a non-empty string)',
        path: '/token',
      }),
      401: inspectorError(401, 'Wrong credential', { message: 'wrong credential' }),
      403: inspectorError(403, 'A cross-site request is refused', { message: 'cross-site requests are refused' }),
      413: E[413](),
      415: inspectorError(415, 'The content type is not application/json', {
        message: 'content-type must be application/json',
      }),
      429: inspectorGuesses(),
    },
  },
  {
    method: 'get',
    path: '/inspector/exchanges',
    summary: "The gateway's latest forwarded exchanges, with their verdicts",
    tag: 'Inspector',
    parameters: [
      { name: 'service', in: 'query', schema: { type: 'string' }, example: 'item_inquiry' },
      { name: 'verdict', in: 'query', schema: { type: 'string' }, example: 'broken' },
      { name: 'rule', in: 'query', schema: { type: 'string' }, example: 'reply.item-id-echo' },
    ],
    reply: { status: 200, schema: InspectorExchangesReply, example: { limit: 200, count: 0, exchanges: [] } },
    security: ['internalApi', 'inspectorSession'],
    errors: {
      400: inspectorError(400, 'An unknown verdict', {
        message: "verdict must be one of ok, broken, error, got 'maybe'",
        path: 'query:verdict',
      }),
      401: inspectorError(401, 'Neither the credential nor a session', {
        message: 'the inspector needs the internal credential',
      }),
      429: inspectorGuesses(),
    },
  },
  ...MEMBER_ENDPOINTS,
  ...certificationEndpoints({ 401: E[401](), 403: E[403](), 415: E[415](), 503: E[503](STORE_DOWN) }),
]);

export function internalApiDocument(options: { serverUrl?: string } = {}): Json {
  return buildOpenApiDocument({
    title: 'Federated Gateway — internal API',
    // The contract's version (contracts/contract-version.ts): the internal API is part of the contract.
    version: CONTRACT_VERSION,
    description:
      "The gateway's internal API, on its own port (INTERNAL_PORT) behind the internal credential (INTERNAL_API_TOKEN): " +
      "user creation, buyer systems' keys, members, the welcome-mail outbox, metrics and the exchange inspector.",
    serverUrl: options.serverUrl ?? '/',
    serverDescription: 'The internal API (its own port, not the gateway’s)',
    tags: [
      ['Users', 'User creation (the specification’s internal operation)'],
      ['Keys', "Buyer systems' public keys (npm run keys)"],
      ['Members', 'Members, their locations and accounts, and their change history (npm run members)'],
      ['Outbox', 'The welcome-mail outbox (npm run outbox)'],
      ['Certification', "Members' certification jobs and certificates (npm run certification)"],
      ['Inspector', "The live view of the gateway's forwarded exchanges"],
      ['Conformance', 'Production conformance: replies judged and broken per member, the replay file'],
      ['Operations', 'Metrics and this document'],
    ].map(([name, description]) => ({ name, description })),
    errorSchemas: { GatewayErrorReply, InspectorErrorReply },
    endpoints: [...INTERNAL_ENDPOINTS, ...CONFORMANCE_ENDPOINTS],
    sharedAnswers: SERVER_ANSWER_RESPONSES,
    securitySchemes: {
      internalApi: { type: 'http', scheme: 'bearer', description: 'The internal API credential (INTERNAL_API_TOKEN)' },
      inspectorSession: {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description: 'The session cookie POST /inspector/session sets',
      },
    },
  });
}
