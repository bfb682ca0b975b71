import type { PactDocument } from './pact-file';

// Which pact interaction a forwarded request was made for, told by what no provider state
// can change: the service and the item ids (literals in every interaction), or for
// documents the filter fields present. Used to name exchanges seen by a rules proxy.

const ROUTING = new Set(['service', 'integration', 'terminal_id']);

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The part of a forwarded request that identifies its interaction. */
export function requestShape(body: unknown): string {
  const record = asRecord(body) ?? {};
  const service = typeof record.service === 'string' ? record.service : '?';
  if (Array.isArray(record.items)) {
    const ids = record.items.map((item) => String(asRecord(item)?.id ?? '?')).sort();
    return `${service} [${ids.join(', ')}]`;
  }
  return `${service} (${Object.keys(record)
    .filter((k) => !ROUTING.has(k))
    .sort()
    .join(', ')})`;
}

/** Descriptions of the interactions whose request has the same shape (none, one, or several that share it). */
export function interactionsShaped(pact: PactDocument, body: unknown): string[] {
  const shape = requestShape(body);
  return pact.interactions.filter((i) => requestShape(i.request.body?.content) === shape).map((i) => i.description);
}
