import { ItemStatus, OverallStatus } from '../../contracts/codes';
import type { ItemInquirySellerReply } from '../../contracts/schemas/item-inquiry';
import type { Catalogue } from './catalogue';
import type { SellerTarget } from './exchange';
import { DEFAULT_MAX_REPLY_BYTES, readReplyWithin } from '../reply-within-limit';
import { agentForDeadline } from '../../shared/http/deadline-agent';
import { KitInputError } from '../kit-errors';

// Before exploring: ask the seller for every part the catalogue says it carries. A part it
// answers "not found" (status 0) is a catalogue the seller does not match, and exploring on
// it would report the vendor's typo as the seller's fault: said plainly instead, naming the
// part and where the catalogue names it. A superseded part is the exception the guide allows:
// its own entry may answer 0 (discontinued) when the reply names the part superseding it.

const CHUNK = 20;

/** `signal` (the run's stop) ends the check at once: it returns what it found so far. */
export async function partsTheSellerLacks(
  target: SellerTarget,
  catalogue: Catalogue,
  signal?: AbortSignal,
): Promise<string[]> {
  const location = catalogue.locations[0];
  const problems: string[] = [];
  for (let start = 0; start < catalogue.parts.length && signal?.aborted !== true; start += CHUNK) {
    const parts = catalogue.parts.slice(start, start + CHUNK);
    const items = parts.map((p, i) => ({
      id: `preflight-${start + i}`,
      mfr_code: p.mfr_code,
      part_number: p.part_number,
    }));
    let reply: ItemInquirySellerReply;
    try {
      const response = await fetch(target.sellerUrl, {
        method: 'POST',
        headers: { ...target.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'item_inquiry', locations: [location], items }),
        signal:
          signal === undefined
            ? AbortSignal.timeout(target.timeoutMs)
            : AbortSignal.any([AbortSignal.timeout(target.timeoutMs), signal]),
        dispatcher: agentForDeadline(target.timeoutMs),
      });
      const body = await readReplyWithin(response.body, target.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
      if (body.kind === 'too-large') return problems; // the exploration reports it, as reply.too-large
      reply = JSON.parse(body.text) as ItemInquirySellerReply;
    } catch {
      return problems; // the exploration reports a seller that does not answer
    }
    if (reply?.status_code !== OverallStatus.Success || !Array.isArray(reply.items)) continue;
    items.forEach((item, i) => {
      const own = reply.items.find((e) => e?.id === item.id && (e.status_code === 0 || e.status_code === 1));
      const superseded = reply.items.some((e) => e?.id === item.id && e.status_code === ItemStatus.Superseded);
      if (own?.status_code === 0 && !superseded)
        problems.push(
          `${item.mfr_code} ${item.part_number} (named in ${parts[i].source}) — your system answered status 0, not found`,
        );
    });
  }
  return problems;
}

const EXPLORE_ADVICE = 'Correct the catalogue (or list such parts under explore.unknown_parts) and run again.';

/**
 * Throws a KitInputError naming `option` (the catalogue's) when the seller lacks parts the
 * catalogue names; `advice` ends the message (verify's names the state map, explore's its section).
 */
export async function ensureSellerHasParts(
  target: SellerTarget,
  catalogue: Catalogue,
  option: string,
  signal?: AbortSignal,
  advice = EXPLORE_ADVICE,
): Promise<void> {
  const lacking = await partsTheSellerLacks(target, catalogue, signal);
  if (lacking.length === 0 || signal?.aborted === true) return;
  throw new KitInputError(
    option,
    `${catalogue.origin} names ${lacking.length === 1 ? 'a part' : 'parts'} your system does not have:\n${lacking.map((l) => `  - ${l}\n`).join('')}` +
      advice,
  );
}
