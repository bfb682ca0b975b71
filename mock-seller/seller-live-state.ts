import type { FaultRegistry } from './fault-registry';
import type { Journal } from './journal';
import type { LoadModel } from './load-model';
import type { PlacedOrder } from './place-order';
import type { ReplyCache } from './reply-cache';
import type { SellerData } from './seller-data';

/** The mock seller's live state: what the seller endpoint, the control API and the document server read and change. */
export interface SellerLiveState {
  /** The live data; replaced on reset, scenario load and provider states. */
  data: SellerData;
  faults: FaultRegistry;
  journal: Journal;
  /** Honest item inquiry replies by request body; cleared when stock changes. */
  replies: ReplyCache;
  orders: PlacedOrder[];
  nextOrderNumber(): string;
  /** Requests held by a `hang` fault; calling one lets it go (the connection is dropped). */
  hanging: Set<() => void>;
  /** Aborted on close(): latency faults stop waiting. */
  closing: AbortSignal;
  /** The scenario's load section at run time (workers, service time, cross-talk); none when it has none. */
  load?: LoadModel;
  /** Base of link_url; the request's own origin when unset. */
  publicUrl?: string;
}
