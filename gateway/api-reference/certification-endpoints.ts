// The certification routes of the internal API (internal-api/certification-routes.ts), as the
// internal OpenAPI document lists them: their shapes, examples and every status they answer.
import { Type, type Static } from '@sinclair/typebox';
import { OverallStatus } from '../../contracts/index';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import type { Endpoint, ErrorAnswer } from '../../contracts/openapi-builder';
import { Id } from '../../contracts/schemas/common';
import { errorAnswer } from './error-answers';
import type {
  CertificateJson,
  CertificationJobJson,
  NeedingCertificationJson,
} from '../internal-api/certification-routes';
import { JOB_STATUSES } from '../certification/certification-types';

const Timestamp = Type.String({ description: 'ISO 8601 UTC' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Job = Type.Object(
  {
    id: Type.Integer(),
    memberId: Type.String(),
    status: Type.Union(JOB_STATUSES.map((s) => Type.Literal(s))),
    contractVersion: Type.String(),
    requestedBy: Type.String(),
    requestedAt: Timestamp,
    claimedBy: Nullable(Type.String()),
    leaseUntil: Nullable(Timestamp),
    attempt: Type.Integer({ description: 'How many times a worker claimed it (the fencing token)' }),
    finishedAt: Nullable(Timestamp),
    error: Nullable(Type.String({ description: 'Why it ended without a certificate' })),
  },
  { additionalProperties: false },
);

const Finding = Type.Object(
  {
    run: Type.Union([Type.Literal('verify'), Type.Literal('explore'), Type.Literal('load')]),
    rule: Type.String(),
    message: Type.String(),
    interaction: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    pending: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

const certificateFields = {
  id: Type.Integer(),
  jobId: Type.Integer(),
  memberId: Type.String(),
  contractVersion: Type.String(),
  contractMajor: Type.Integer(),
  pactDigest: Type.String({ description: 'sha256 of the pact file the run verified against' }),
  verdict: Type.Union([Type.Literal('passed'), Type.Literal('failed')]),
  findings: Type.Array(Finding),
  toolkitVersion: Type.String(),
  issuedAt: Timestamp,
};
const Certificate = Type.Object(certificateFields, { additionalProperties: false });
const CertificateWithReport = Type.Object(
  {
    ...certificateFields,
    report: Type.Record(Type.String(), Type.Unknown(), {
      description: "The kit's JSON reports: verify, explore, load (or null) and bounds",
    }),
  },
  { additionalProperties: false },
);

export const CertificationRequest = Type.Object(
  { requestedBy: Type.Optional(Id('who asks (recorded on the job); default internal-api')) },
  { title: 'Request certification — request' },
);
export const RequestedCertificationReply = Type.Object(
  { created: Type.Boolean({ description: 'false: the member already had this job open' }), job: Job },
  { title: 'Request certification — reply', additionalProperties: false },
);
export const MemberCertificationsReply = Type.Object(
  { memberId: Type.String(), jobs: Type.Array(Job), certificates: Type.Array(Certificate) },
  { title: "A member's certifications — reply", additionalProperties: false },
);
export const CertificationJobReply = Type.Object(
  { job: Job, certificate: Nullable(CertificateWithReport) },
  { title: 'Certification job — reply', additionalProperties: false },
);
export const NeedingCertificationReply = Type.Object(
  {
    contractMajor: Type.Integer(),
    members: Type.Array(
      Type.Object(
        {
          memberId: Type.String(),
          status: Type.Union([Type.Literal('pending'), Type.Literal('live')]),
          reason: Type.Union([Type.Literal('older-major'), Type.Literal('never-certified'), Type.Literal('pending')]),
          lastPassed: Nullable(
            Type.Object(
              { contractVersion: Type.String(), contractMajor: Type.Integer(), issuedAt: Timestamp },
              { additionalProperties: false },
            ),
          ),
          openJobId: Nullable(Type.Integer()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { title: 'Members needing certification — reply', additionalProperties: false },
);

// The routes' JSON types and these schemas cannot drift apart: typecheck fails first.
const jobTypes: Static<typeof Job> = {} as CertificationJobJson;
const certificateTypes: Static<typeof Certificate> = {} as CertificateJson;
const needsTypes: Static<typeof NeedingCertificationReply>['members'][number] = {} as NeedingCertificationJson;
void [jobTypes, certificateTypes, needsTypes];

const NOW = '2026-12-01T09:30:00.000Z';
const EXAMPLE_JOB = {
  id: 7,
  memberId: 'N7',
  status: 'queued',
  contractVersion: CONTRACT_VERSION,
  requestedBy: 'ops-alice',
  requestedAt: NOW,
  claimedBy: null,
  leaseUntil: null,
  attempt: 0,
  finishedAt: null,
  error: null,
};
const EXAMPLE_CERTIFICATE = {
  id: 3,
  jobId: 7,
  memberId: 'N7',
  contractVersion: CONTRACT_VERSION,
  contractMajor: Number(CONTRACT_VERSION.split('.')[0]),
  pactDigest: 'sha256:0f3c…',
  verdict: 'failed',
  findings: [
    {
      run: 'verify',
      rule: 'alternate.original-part',
      interaction: 'an item inquiry for a part with an alternate',
      path: '/items/1/original_part',
      message: "original_part '917-030-WRONG' differs from the requested part_number '917-030'",
    },
  ],
  toolkitVersion: '0.1.0',
  issuedAt: NOW,
};

const G = 'GatewayErrorReply';
const refusal = (status: number, description: string, code: OverallStatus, message: string, path: string) =>
  errorAnswer(G, status, description, { status_code: code, message, errors: [{ path, message }] });
const MEMBER_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
  example: 'N7',
  description: 'The member id',
};
const JOB_ID = {
  name: 'jobId',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,14}$' },
  example: '7',
  description: 'The certification job id',
};
const BAD_ID = refusal(
  400,
  'The id is not plain text of a sane length (status_code 4422)',
  OverallStatus.ValidationError,
  'the member id must be plain text (no NUL, no unpaired surrogate) of at most 256 characters',
  '/id',
);
const UNKNOWN_MEMBER = refusal(
  404,
  'No member by that id (status_code 3000)',
  OverallStatus.GeneralError,
  'unknown member N9',
  '/id',
);

type Shared = { 401: ErrorAnswer; 403: ErrorAnswer; 415: ErrorAnswer; 503: ErrorAnswer };
const readsOf = (shared: Shared) => ({ 401: shared[401], 503: shared[503] });

const requestEndpoint = (shared: Shared): Endpoint => ({
  method: 'post',
  path: '/internal/members/{id}/certifications',
  summary: "Ask for a member's certification (a worker runs it)",
  tag: 'Certification',
  description:
    'Queues a certification job, or answers the one already queued or running (created: false). A worker process runs verify, a bounded explore and load when the member declares SLOs, with the state map stored for the member; a pass for the current contract major puts a pending member live.',
  parameters: [MEMBER_ID],
  request: { schema: CertificationRequest, example: { requestedBy: 'ops-alice' }, optional: true },
  reply: {
    status: 202,
    description: 'Queued (or already open)',
    schema: RequestedCertificationReply,
    example: { created: true, job: EXAMPLE_JOB },
  },
  security: ['internalApi'],
  errors: {
    ...readsOf(shared),
    400: BAD_ID,
    403: shared[403],
    404: UNKNOWN_MEMBER,
    409: refusal(
      409,
      'The member is suspended: certification never changes a suspended member (status_code 4422)',
      OverallStatus.ValidationError,
      'member N7 is suspended: lift the suspension before certifying it',
      '/id',
    ),
    415: shared[415],
    422: refusal(
      422,
      "The member's stored state map is missing or not a state map, or its SLOs are not SLOs; the rule and field are named (status_code 4422)",
      OverallStatus.ValidationError,
      'state_map is required: the member has no state map to certify with',
      '/state_map',
    ),
  },
});

const memberCertificationsEndpoint = (shared: Shared): Endpoint => ({
  method: 'get',
  path: '/internal/members/{id}/certifications',
  summary: "A member's certification jobs and certificates, newest first",
  tag: 'Certification',
  parameters: [MEMBER_ID],
  reply: {
    status: 200,
    schema: MemberCertificationsReply,
    example: {
      memberId: 'N7',
      jobs: [{ ...EXAMPLE_JOB, status: 'failed', attempt: 1, finishedAt: NOW }],
      certificates: [EXAMPLE_CERTIFICATE],
    },
  },
  security: ['internalApi'],
  errors: { ...readsOf(shared), 400: BAD_ID, 404: UNKNOWN_MEMBER },
});

const jobEndpoint = (shared: Shared): Endpoint => ({
  method: 'get',
  path: '/internal/certifications/{jobId}',
  summary: 'A certification job, its certificate, findings and report',
  tag: 'Certification',
  parameters: [JOB_ID],
  reply: {
    status: 200,
    schema: CertificationJobReply,
    example: {
      job: { ...EXAMPLE_JOB, status: 'failed', attempt: 1, finishedAt: NOW },
      certificate: { ...EXAMPLE_CERTIFICATE, report: { verify: { ok: false }, explore: null, load: null } },
    },
  },
  security: ['internalApi'],
  errors: {
    ...readsOf(shared),
    400: refusal(
      400,
      'The job id is not a positive whole number (status_code 4422)',
      OverallStatus.ValidationError,
      "jobId must be a positive whole number, not 'x'",
      '/jobId',
    ),
    404: refusal(
      404,
      'No job by that id (status_code 3000)',
      OverallStatus.GeneralError,
      'unknown certification job 99',
      '/jobId',
    ),
  },
});

const needsEndpoint = (shared: Shared): Endpoint => ({
  method: 'get',
  path: '/internal/certifications',
  summary: 'The members that need certification for the current contract major',
  tag: 'Certification',
  description:
    'Members not suspended without a passing certificate for the current major: certified under an older one (older-major), live without any (never-certified: they served buyers before certification existed) or pending.',
  parameters: [
    {
      name: 'needs',
      in: 'query',
      required: true,
      schema: { type: 'string', enum: ['certification'] },
      example: 'certification',
    },
  ],
  reply: {
    status: 200,
    schema: NeedingCertificationReply,
    example: {
      contractMajor: EXAMPLE_CERTIFICATE.contractMajor,
      members: [{ memberId: 'M100', status: 'live', reason: 'never-certified', lastPassed: null, openJobId: null }],
    },
  },
  security: ['internalApi'],
  errors: {
    ...readsOf(shared),
    400: refusal(
      400,
      'needs is missing or not certification (status_code 4422)',
      OverallStatus.ValidationError,
      "needs must be 'certification'",
      'query:needs',
    ),
  },
});

/** The certification endpoints, given the internal document's shared answers (credential, cross-site, store down). */
export const certificationEndpoints = (shared: Shared): Endpoint[] =>
  [requestEndpoint, memberCertificationsEndpoint, jobEndpoint, needsEndpoint].map((endpoint) => endpoint(shared));
