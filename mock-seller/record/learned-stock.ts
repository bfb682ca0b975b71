import type { ScenarioStock } from '../../contracts/schemas/scenario';

// The stock a seller started with, at one part and location, from what the recording saw:
// a reply's quantity_available is the start minus what orders received before it; a received
// order says the start covered everything received so far. A backorder teaches nothing here
// (the smallest start that covers the received orders is the likeliest to repeat it). The mock replays orders against
// the start, so the same sequence of requests gets the same outcomes.

export type StockPrices = Omit<ScenarioStock, 'location_id' | 'quantity_available'>;

export interface LearnedStock {
  /** Prices and packing from the first reply that showed them. */
  prices?: StockPrices;
  /** The start, when a reply showed the quantity. */
  start?: number;
  /** Received by orders so far. */
  received: number;
  /** The start is at least this (what received orders needed). */
  atLeast: number;
}

export const newStock = (): LearnedStock => ({ received: 0, atLeast: 0 });

export function observeQuantity(stock: LearnedStock, prices: StockPrices, quantityAvailable: number): void {
  stock.prices ??= prices;
  stock.start ??= quantityAvailable + stock.received;
}

export function observeReceived(stock: LearnedStock, quantity: number): void {
  stock.received += quantity;
  stock.atLeast = Math.max(stock.atLeast, stock.received);
}

/** Placeholder prices for a part only ever ordered, never priced by a reply. */
export const UNKNOWN_PRICES: StockPrices = { cost: 0, list: 0, pack_code: 'EA', pack_quantity: 1 };

/**
 * The scenario's stock record, or undefined when the seller should carry none there (only
 * backorders seen): the mock backorders a part it has no stock of at a location.
 */
export function stockRecord(locationId: string, stock: LearnedStock): ScenarioStock | undefined {
  if (stock.start === undefined && stock.atLeast === 0) return undefined;
  const quantity = stock.start ?? stock.atLeast;
  return { location_id: locationId, ...(stock.prices ?? UNKNOWN_PRICES), quantity_available: quantity };
}
