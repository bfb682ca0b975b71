// What every reply the fuzzer gets must satisfy, judged by the served document alone: no 5xx
// (unless the seller was told to fail and the status is documented), a documented status, a
// JSON body valid against that status's schema, Retry-After where a retry is asked for.
import type { DocumentOperation } from '../document-schemas';
import type { Json } from '../../../contracts/openapi-builder';
import type { Validator } from '../../../contracts/index';
import type { FuzzResponse } from './fuzz-request';

export type CheckName =
  'server-error' | 'undocumented-status' | 'reply-schema' | 'reply-not-json' | 'retry-after' | 'content-type-accepted';

export interface Problem {
  check: CheckName;
  message: string;
}

export interface CheckOptions {
  validatorOf: (schema: Json) => Validator<unknown>;
  /** The mock seller was told to fail: its documented 502/503/504 are answers, not findings. */
  sellerFaults?: boolean;
}

const SELLER_FAULTS = new Set([502, 503, 504]);

export function checkReply(op: DocumentOperation, response: FuzzResponse, options: CheckOptions): Problem[] {
  const problems: Problem[] = [];
  const documented = op.responses[String(response.status)];
  if (
    response.status >= 500 &&
    !(options.sellerFaults === true && documented !== undefined && SELLER_FAULTS.has(response.status))
  ) {
    problems.push({ check: 'server-error', message: `answered ${response.status}: ${response.text.slice(0, 300)}` });
  }
  if (documented === undefined) {
    problems.push({
      check: 'undocumented-status',
      message: `status ${response.status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
    });
    return problems;
  }
  // Node's own answer of this status has no body: the app answering it (with a body) is not that.
  if (documented['x-answered-by'] !== undefined && response.text !== '') {
    problems.push({
      check: 'undocumented-status',
      message: `status ${response.status} is documented only as Node's HTTP server's bodiless answer, but the API answered it: ${response.text.slice(0, 200)}`,
    });
    return problems;
  }
  const json = documented.content?.['application/json'];
  if (json !== undefined && response.status !== 204) {
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      problems.push({
        check: 'reply-not-json',
        message: `status ${response.status} is documented as JSON, got ${JSON.stringify(response.text.slice(0, 200))}`,
      });
      return problems;
    }
    const result = options.validatorOf(json.schema)(body);
    if (!result.valid) {
      const listed = result.errors.slice(0, 5).map((e) => `${e.path || '(body)'} ${e.message}`);
      problems.push({
        check: 'reply-schema',
        message: `the ${response.status} reply breaks its documented schema: ${listed.join('; ')}`,
      });
    }
  }
  if (response.status === 429 || documented.headers?.['Retry-After'] !== undefined) {
    const retryAfter = response.headers['retry-after'];
    if (response.status === 429 && retryAfter === undefined)
      problems.push({ check: 'retry-after', message: '429 without Retry-After' });
    if (retryAfter !== undefined && !/^[1-9]\d*$/.test(retryAfter))
      problems.push({ check: 'retry-after', message: `Retry-After '${retryAfter}' is not a whole number of seconds` });
  }
  return problems;
}

/** A declared content type that is plainly not JSON: a JSON endpoint must refuse the body (415). */
const NOT_JSON_TYPE = /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data|application\/xml)\b/i;

export function checkContentType(sentType: string | undefined, hasBody: boolean, response: FuzzResponse): Problem[] {
  if (!hasBody || sentType === undefined || !NOT_JSON_TYPE.test(sentType) || response.status >= 300) return [];
  return [
    {
      check: 'content-type-accepted',
      message: `a body sent as '${sentType}' was accepted (${response.status}), not refused with 415`,
    },
  ];
}
