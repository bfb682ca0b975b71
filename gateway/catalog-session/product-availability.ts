import { ItemStatus, type ItemInquiryBuyerReply, type ItemInquiryBuyerRequest } from '../../contracts/index';
import type { ProductAvailabilityReply } from '../../contracts/schemas/catalog';
import type { AuthenticatedBuyer } from '../auth/token-verifier';
import type { UserLocation } from '../directory/directory';
import type { OperationInput, OperationResult } from '../operations/index';

// Prices and stock of one catalog product at the buyer's locations: the gateway's own item
// inquiry, called in-process (same directory checks, same seller calls, same reply rules),
// so the catalog page quotes exactly what the buyer system would be quoted.

export type ItemInquiry = (input: OperationInput) => Promise<OperationResult>;

export interface CatalogPart {
  mfr_code: string;
  part_number: string;
}

type Quote = ProductAvailabilityReply['locations'][number];

/** The requested part's quotes (not alternates), one per location, in the buyer's sort order. */
export async function quoteProduct(
  itemInquiry: ItemInquiry,
  buyer: AuthenticatedBuyer,
  part: CatalogPart,
  requestId: string,
  only?: UserLocation,
): Promise<Quote[]> {
  const id = 'catalog-part';
  const body: ItemInquiryBuyerRequest = { items: [{ id, mfr_code: part.mfr_code, part_number: part.part_number }] };
  if (only !== undefined) body.locations = [{ id: only.locationId, member: only.memberId, account: only.accountId }];
  const { reply } = await itemInquiry({ buyer, body, requestId });
  const quotes: Quote[] = [];
  for (const item of (reply as ItemInquiryBuyerReply).items) {
    if (item.id !== id || item.status_code !== ItemStatus.Found) continue;
    for (const l of item.locations ?? []) {
      quotes.push({
        id: l.id,
        // The gateway always adds these to buyer replies; the contract types them optional.
        description: l.description ?? l.id,
        can_order: l.can_order ?? false,
        sort_order: l.sort_order ?? 0,
        price: l.cost,
        list_price: l.list,
        quantity_available: l.quantity_available,
      });
    }
  }
  return quotes.sort((a, b) => a.sort_order - b.sort_order);
}
