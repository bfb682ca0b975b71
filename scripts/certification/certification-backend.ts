import { request } from 'undici';
import type { Store } from '../../gateway/store/store';
import { createCertificationQueue } from '../../gateway/certification/certification-queue';
import {
  jobWithCertificate,
  memberCertifications,
  membersNeedingCertification,
} from '../../gateway/certification/certification-reads';
import { GatewayError } from '../../gateway/errors';
import { CURRENT_CONTRACT_MAJOR } from '../../gateway/certification/certification-types';
import {
  jobJson,
  type CertificateJson,
  type CertificationJobJson,
  type NeedingCertificationJson,
} from '../../gateway/internal-api/certification-routes';

// Where `npm run certification` asks: the running server's internal API (with the embedded
// store only that process may open it), or the store itself when nothing answers. Both give
// the same JSON the internal API answers.

/** A refusal (unknown member, suspended, no state map): the command exits 1 with its message. */
export class CertificationCommandError extends Error {}

export interface RequestedJson {
  created: boolean;
  job: CertificationJobJson;
}
export interface JobJson {
  job: CertificationJobJson;
  certificate: (CertificateJson & { report: Record<string, unknown> }) | null;
}
export interface MemberJson {
  memberId: string;
  jobs: CertificationJobJson[];
  certificates: CertificateJson[];
}
export interface NeedsJson {
  contractMajor: number;
  members: NeedingCertificationJson[];
}

export interface CertificationBackend {
  readonly kind: 'internal-api' | 'store';
  request(memberId: string, requestedBy: string): Promise<RequestedJson>;
  show(jobId: number): Promise<JobJson>;
  list(memberId: string): Promise<MemberJson>;
  needs(): Promise<NeedsJson>;
}

const refused = (error: unknown): never => {
  throw error instanceof GatewayError && error.httpStatus < 500 ? new CertificationCommandError(error.message) : error;
};
/** Dates as the internal API writes them. */
const asJson = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;

export function storeCertificationBackend(store: Store): CertificationBackend {
  const queue = createCertificationQueue({ store });
  return {
    kind: 'store',
    request: (memberId, requestedBy) =>
      queue
        .request(memberId, requestedBy)
        .then(({ created, job }) => ({ created, job: jobJson(job) }))
        .catch(refused),
    show: (jobId) =>
      jobWithCertificate(store, jobId)
        .then(asJson<JobJson>)
        .catch(refused),
    list: (memberId) =>
      memberCertifications(store, memberId)
        .then(({ jobs, certificates }) => asJson<MemberJson>({ memberId, jobs, certificates }))
        .catch(refused),
    needs: async () =>
      asJson<NeedsJson>({ contractMajor: CURRENT_CONTRACT_MAJOR, members: await membersNeedingCertification(store) }),
  };
}

/** The internal API's certification routes. Rejects with code ECONNREFUSED when nothing listens. */
export function httpCertificationBackend(baseUrl: string, token: string): CertificationBackend {
  const call = async <T>(path: string, method: 'GET' | 'POST', body?: unknown): Promise<T> => {
    const res = await request(`${baseUrl}/internal${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const reply = (await res.body.json()) as T & { message?: string };
    if (res.statusCode >= 400 && res.statusCode < 500)
      throw new CertificationCommandError(reply.message ?? `internal API answered ${res.statusCode}`);
    if (res.statusCode >= 300)
      throw new Error(`internal API at ${baseUrl} answered ${res.statusCode}: ${reply.message ?? ''}`);
    return reply;
  };
  const member = (id: string) => `/members/${encodeURIComponent(id)}/certifications`;
  return {
    kind: 'internal-api',
    request: (memberId, requestedBy) => call<RequestedJson>(member(memberId), 'POST', { requestedBy }),
    show: (jobId) => call<JobJson>(`/certifications/${jobId}`, 'GET'),
    list: (memberId) => call<MemberJson>(member(memberId), 'GET'),
    needs: () => call<NeedsJson>('/certifications?needs=certification', 'GET'),
  };
}
