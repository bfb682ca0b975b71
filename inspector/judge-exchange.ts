import { checkSellerReply, operationOfService } from '../contracts/index';
import type { ExchangeDetail, ExchangeRecord, ExchangeSummary } from './exchange';

// The verdict on one exchange, from the contract core's checkSellerReply: the very rules the
// gateway enforces and the vendor kit reports, so the page never disagrees with them.

const none = { errors: [], violations: [], notes: [] };

/** Summary and detail of an exchange; `id` is the feed's. */
export function judgeExchange(id: number, record: ExchangeRecord): ExchangeDetail {
  const base = {
    id,
    at: record.at,
    service: record.service,
    member: record.member,
    http_status: record.http_status,
    duration_ms: Math.round(record.duration_ms * 100) / 100,
    faults: record.faults,
    request: record.request,
    reply: record.reply,
  };
  const error = (problem: string): ExchangeDetail => ({ ...base, verdict: 'error', rules: [], problem, ...none });

  const operation = record.service === null ? undefined : operationOfService(record.service);
  if (operation === undefined)
    return error(`the request names no known service${record.service === null ? '' : ` ('${record.service}')`}`);
  if (record.http_status === null) return error(record.outcome ?? 'no answer');
  if (record.http_status < 200 || record.http_status > 299)
    return error(record.outcome ?? `HTTP ${record.http_status}`);
  if (typeof record.reply === 'string' || record.reply === null || record.reply === undefined)
    return error(record.outcome ?? 'the reply body is not JSON');

  const { errors, violations, notes } = checkSellerReply(operation, record.request, record.reply);
  const check = { errors, violations, notes };
  if (check.errors.length > 0) {
    const first = check.errors[0];
    return {
      ...base,
      verdict: 'broken',
      rules: ['schema'],
      problem: `schema: ${first.path || '/'} ${first.message}`,
      ...check,
    };
  }
  if (check.violations.length > 0) {
    const rules = [...new Set(check.violations.map((v) => v.rule))];
    return {
      ...base,
      verdict: 'broken',
      rules,
      problem: `${check.violations[0].rule}: ${check.violations[0].message}`,
      ...check,
    };
  }
  return { ...base, verdict: 'ok', rules: [], ...check };
}

/** The list row of a detail: what the SSE stream and the history send. */
export function summaryOf(detail: ExchangeDetail): ExchangeSummary {
  const {
    request: _request,
    reply: _reply,
    errors: _errors,
    violations: _violations,
    notes: _notes,
    ...summary
  } = detail;
  return summary;
}
