import { Hono } from 'hono';
import type { PactDocument, PactInteraction } from '../contracts/pact/pact-file';

// Pact replay: a seller that answers exactly the pact's examples (like `pact stub`), for
// consumers who want the contract verbatim. A request is matched on its `service` and its
// items (ids, manufacturer codes, part numbers); requests without items (invoice,
// statement) on the filter fields they carry. The best match wins; none is a 404 naming
// what the pact offers.

interface Candidate {
  interaction: PactInteraction;
  body: Record<string, unknown>;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const itemsKey = (body: Record<string, unknown>): string | undefined => {
  if (!Array.isArray(body.items)) return undefined;
  return JSON.stringify(
    body.items.map((item) => {
      const i = asRecord(item) ?? {};
      return [i.id, i.mfr_code, i.part_number];
    }),
  );
};

/** Filter fields of a document request: everything but the routing fields. */
const ROUTING = new Set(['service', 'integration', 'terminal_id']);
const filterKeys = (body: Record<string, unknown>) =>
  Object.keys(body)
    .filter((k) => !ROUTING.has(k))
    .sort()
    .join(',');

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** 0 no match; higher is better: the same items or filter fields, then every value equal. */
function score(candidate: Candidate, body: Record<string, unknown>): number {
  if (candidate.body.service !== body.service) return 0;
  const wanted = itemsKey(candidate.body);
  if (wanted !== undefined) {
    if (wanted !== itemsKey(body)) return 0;
  } else if (filterKeys(candidate.body) !== filterKeys(body)) return 0;
  const equal = Object.keys(candidate.body).filter((k) => same(candidate.body[k], body[k])).length;
  return 1 + equal;
}

export interface ReplayOptions {
  /** Called for each answered request, e.g. to log which interaction served it. */
  onMatch?: (description: string) => void;
}

export function createPactReplay(pact: PactDocument, options: ReplayOptions = {}): Hono {
  const candidates: Candidate[] = pact.interactions
    .filter((i) => i.request.method.toUpperCase() === 'POST' && asRecord(i.request.body?.content) !== undefined)
    .map((interaction) => ({ interaction, body: asRecord(interaction.request.body!.content)! }));

  const app = new Hono();
  app.get('/__replay/interactions', (c) =>
    c.json({
      interactions: candidates.map(({ interaction, body }) => ({
        description: interaction.description,
        service: body.service,
        request: body,
      })),
    }),
  );
  app.post('*', async (c) => {
    let body: Record<string, unknown> | undefined;
    try {
      body = asRecord(await c.req.json());
    } catch {
      body = undefined;
    }
    if (body === undefined) return c.json({ message: 'the request body is not a JSON object' }, 400);
    let best: Candidate | undefined;
    let bestScore = 0;
    for (const candidate of candidates) {
      const s = score(candidate, body);
      if (s > bestScore) [best, bestScore] = [candidate, s];
    }
    if (best === undefined) {
      const offered = candidates.filter((k) => k.body.service === body!.service).map((k) => k.interaction.description);
      return c.json(
        { message: `no interaction of the pact matches this ${String(body.service ?? 'unnamed')} request`, offered },
        404,
      );
    }
    options.onMatch?.(best.interaction.description);
    const { response } = best.interaction;
    const headers = new Headers();
    for (const [name, values] of Object.entries(response.headers ?? {}))
      for (const value of values) headers.append(name, value);
    if (!headers.has('content-type')) headers.set('content-type', response.body?.contentType ?? 'application/json');
    const content = response.body?.content;
    return new Response(
      content === undefined ? null : typeof content === 'string' ? content : JSON.stringify(content),
      { status: response.status, headers },
    );
  });
  return app;
}
