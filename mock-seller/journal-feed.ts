import type { ExchangeDetail, ExchangeFeed, ExchangeRecord } from '../inspector/exchange';
import { judgeExchange, summaryOf } from '../inspector/judge-exchange';
import { memberOfRequest } from '../inspector/member-of-request';
import type { Journal, JournalEntry } from './journal';

// The mock seller's journal as the inspector's feed: the journal is the bounded history
// (its limit is the page's), its faults are the faults shown, the verdict is the contract's.

function recordOf(entry: JournalEntry): ExchangeRecord {
  const refused =
    entry.http_status !== null && entry.http_status >= 400
      ? (entry.reply as { message?: unknown } | null)?.message
      : undefined;
  return {
    at: entry.at,
    service: entry.service,
    member: memberOfRequest(entry.request),
    request: entry.request,
    http_status: entry.http_status,
    reply: entry.reply,
    duration_ms: entry.elapsed_ms,
    faults: entry.faults,
    outcome:
      typeof refused === 'string'
        ? `HTTP ${entry.http_status}: ${refused}`
        : entry.http_status === null
          ? `no answer (${entry.faults.join(', ') || 'connection dropped'})`
          : undefined,
  };
}

export function journalFeed(journal: Journal): ExchangeFeed {
  // Verdicts already worked out, by seq: a page (re)connecting does not re-check the history.
  const judged = new Map<number, ExchangeDetail>();
  const judge = (entry: JournalEntry): ExchangeDetail => {
    let detail = judged.get(entry.seq);
    if (detail === undefined) {
      detail = judgeExchange(entry.seq, recordOf(entry));
      judged.set(entry.seq, detail);
      for (const seq of judged.keys()) {
        if (judged.size <= journal.limit) break;
        judged.delete(seq);
      }
    }
    return detail;
  };
  return {
    limit: journal.limit,
    recent: () => journal.entries().map((entry) => summaryOf(judge(entry))),
    detail(id) {
      const entry = journal.get(id);
      return entry === undefined ? undefined : judge(entry);
    },
    subscribe: (listener) => journal.subscribe((entry) => listener(summaryOf(judge(entry)))),
  };
}
