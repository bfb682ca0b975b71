import { request } from 'undici';
import type { Store } from '../gateway/store/store';
import type { Directory } from '../gateway/directory/directory';
import {
  MemberCommandError,
  memberWriter,
  type MemberProblem,
  type MemberRefusalKind,
  type MemberWriter,
} from '../gateway/directory/members';
import { OPERATOR_HEADER } from '../gateway/internal-api/member-routes';

// Where `npm run members` reads and writes: the running server's internal API (/internal/members;
// with the embedded store only that process may open it), or the store itself when nothing runs.
// Both refuse alike: a MemberCommandError with its kind and every problem.

export type MembersBackend = MemberWriter & { readonly description: string };

export function storeMembersBackend(
  store: Store,
  options: { directory?: Directory; sellerUrlRefusal?: (url: string) => Promise<string | undefined> } = {},
): MembersBackend {
  return { description: 'store', ...memberWriter({ store, ...options }) };
}

const KIND_OF: Record<number, MemberRefusalKind> = { 400: 'invalid', 404: 'not-found', 409: 'conflict' };

/** The internal API's /internal/members routes. Rejects with code ECONNREFUSED when nothing listens. */
export function httpMembersBackend(baseUrl: string, token: string): MembersBackend {
  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    actor?: string,
  ): Promise<T> => {
    const res = await request(`${baseUrl}/internal/members${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(actor === undefined ? {} : { [OPERATOR_HEADER.toLowerCase()]: actor }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.body.json()) as T & { message?: string; errors?: MemberProblem[] };
    const kind = KIND_OF[res.statusCode];
    // The writer's refusals read exactly as they do on the store; anything else names the server.
    if (kind !== undefined)
      throw new MemberCommandError(kind, answer.message ?? `internal API answered ${res.statusCode}`, answer.errors);
    if (res.statusCode >= 300)
      throw new MemberCommandError(
        'invalid',
        `internal API at ${baseUrl} answered ${res.statusCode}: ${answer.message ?? ''}`,
      );
    return answer;
  };
  const at = (id: string, rest = '') => `/${encodeURIComponent(id)}${rest}`;
  return {
    description: `internal API ${baseUrl}`,
    create: (body, actor) => call('POST', '', body, actor),
    update: (id, body, actor) => call('PATCH', at(id), body, actor),
    suspend: (id, body, actor) => call('POST', at(id, '/suspend'), body, actor),
    reinstate: (id, body, actor) => call('POST', at(id, '/reinstate'), body ?? {}, actor),
    list: (filter = {}) =>
      call('GET', filter.status === undefined ? '' : `?status=${encodeURIComponent(filter.status)}`),
    show: (id) => call('GET', at(id)),
    changes: (id, limit) => call('GET', at(id, `/changes${limit === undefined ? '' : `?limit=${limit}`}`)),
    listLocations: (id) => call('GET', at(id, '/locations')),
    addLocation: (id, body, actor) => call('POST', at(id, '/locations'), body, actor),
    updateLocation: (id, location, body, actor) =>
      call('PATCH', at(id, `/locations/${encodeURIComponent(location)}`), body, actor),
    listAccounts: (id) => call('GET', at(id, '/accounts')),
    addAccount: (id, body, actor) => call('POST', at(id, '/accounts'), body, actor),
    updateAccount: (id, account, body, actor) =>
      call('PATCH', at(id, `/accounts/${encodeURIComponent(account)}`), body, actor),
  };
}
