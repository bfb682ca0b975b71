import { Hono } from 'hono';
import type { Store } from '../store/store';
import type { Clock } from '../clock';
import { readJsonBody } from '../../shared/http/json-body';
import { MAX_ID_LENGTH, PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import { internalBodyNotJson } from './internal-api-errors';
import { createCertificationQueue } from '../certification/certification-queue';
import {
  jobWithCertificate,
  memberCertifications,
  membersNeedingCertification,
  type Certificate,
  type MemberNeedingCertification,
} from '../certification/certification-reads';
import { CertificationRequestInvalid } from '../certification/certification-errors';
import { CURRENT_CONTRACT_MAJOR, type CertificationJob } from '../certification/certification-types';

// Certification through the internal API: ask for a member's certification (202 with the job
// a worker will run; the open job when there is one), read a member's jobs and certificates, a
// job with its certificate and report, and the members that need certification. No
// certification runs here: a worker process (npm run certification -- worker, or the one npm
// start runs) claims the job from the store.

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export type CertificationJobJson = Omit<CertificationJob, 'requestedAt' | 'leaseUntil' | 'finishedAt'> & {
  requestedAt: string;
  leaseUntil: string | null;
  finishedAt: string | null;
};
export type CertificateJson = Omit<Certificate, 'issuedAt'> & { issuedAt: string };
export type NeedingCertificationJson = Omit<MemberNeedingCertification, 'lastPassed'> & {
  lastPassed: { contractVersion: string; contractMajor: number; issuedAt: string } | null;
};

export const jobJson = (job: CertificationJob): CertificationJobJson => ({
  ...job,
  requestedAt: job.requestedAt.toISOString(),
  leaseUntil: iso(job.leaseUntil),
  finishedAt: iso(job.finishedAt),
});
const certificateJson = <C extends Certificate>(c: C): Omit<C, 'issuedAt'> & { issuedAt: string } => ({
  ...c,
  issuedAt: c.issuedAt.toISOString(),
});

const PLAIN_TEXT = new RegExp(PLAIN_TEXT_PATTERN, 'u');
const JOB_ID = /^[1-9][0-9]{0,14}$/;
const DEFAULT_REQUESTER = 'internal-api';

/** A path or body value the store can hold (plain text, a sane length), or a 400 naming it. */
function plainId(path: string, value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new CertificationRequestInvalid(`${what} must be a non-empty string`, [{ path, message: 'required' }]);
  if (!PLAIN_TEXT.test(value) || [...value].length > MAX_ID_LENGTH)
    throw new CertificationRequestInvalid(
      `${what} must be plain text (no NUL, no unpaired surrogate) of at most ${MAX_ID_LENGTH} characters`,
      [{ path, message: `plain text, at most ${MAX_ID_LENGTH} characters` }],
    );
  return value.trim();
}

function jobIdOf(text: string): number {
  if (!JOB_ID.test(text))
    throw new CertificationRequestInvalid(`jobId must be a positive whole number, not '${text.slice(0, 40)}'`, [
      { path: '/jobId', message: 'a positive whole number' },
    ]);
  return Number(text);
}

async function requesterOf(body: unknown): Promise<string> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new CertificationRequestInvalid('the body must be a JSON object ({} or {"requestedBy": "…"})', [
      { path: '', message: 'an object' },
    ]);
  const { requestedBy } = body as { requestedBy?: unknown };
  return requestedBy === undefined ? DEFAULT_REQUESTER : plainId('/requestedBy', requestedBy, 'requestedBy');
}

export function certificationRoutes(deps: { store: Store; clock: Clock; onRequested?: () => void }): Hono {
  const app = new Hono();
  const queue = createCertificationQueue({ store: deps.store, clock: deps.clock });

  app.post('/members/:id/certifications', async (c) => {
    const memberId = plainId('/id', c.req.param('id'), 'the member id');
    const requestedBy = await requesterOf(await readJsonBody(c, internalBodyNotJson, { emptyAs: {} }));
    const { job, created } = await queue.request(memberId, requestedBy);
    if (created) deps.onRequested?.();
    return c.json({ created, job: jobJson(job) }, 202);
  });

  app.get('/members/:id/certifications', async (c) => {
    const memberId = plainId('/id', c.req.param('id'), 'the member id');
    const { jobs, certificates } = await memberCertifications(deps.store, memberId);
    return c.json({ memberId, jobs: jobs.map(jobJson), certificates: certificates.map(certificateJson) });
  });

  app.get('/certifications/:jobId', async (c) => {
    const { job, certificate } = await jobWithCertificate(deps.store, jobIdOf(c.req.param('jobId')));
    return c.json({ job: jobJson(job), certificate: certificate === null ? null : certificateJson(certificate) });
  });

  app.get('/certifications', async (c) => {
    const needs = c.req.query('needs');
    if (needs !== 'certification')
      throw new CertificationRequestInvalid(
        `needs must be 'certification' (the members lacking a passing certificate for contract major ${CURRENT_CONTRACT_MAJOR})`,
        [{ path: 'query:needs', message: "required: 'certification'" }],
      );
    const members = await membersNeedingCertification(deps.store);
    return c.json({
      contractMajor: CURRENT_CONTRACT_MAJOR,
      members: members.map((m): NeedingCertificationJson => ({
        ...m,
        lastPassed: m.lastPassed === null ? null : { ...m.lastPassed, issuedAt: m.lastPassed.issuedAt.toISOString() },
      })),
    });
  });

  return app;
}
