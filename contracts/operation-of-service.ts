import type { ForwardedOperation } from './reply-check';
import type { SERVICE_OF, Service } from './schemas/index';

/**
 * SERVICE_OF the other way round: the operation a seller request's `service` field names.
 * Written out, and the compiler holds it to be exactly the inverse of SERVICE_OF.
 */
export const OPERATION_OF_SERVICE = {
  item_inquiry: 'item-inquiry',
  place_order: 'place-order',
  invoice: 'invoice',
  statement: 'statement',
} as const satisfies { [O in ForwardedOperation as (typeof SERVICE_OF)[O]]: O } & Record<Service, ForwardedOperation>;

/** The operation a `service` value names; undefined for anything else (a key of Object.prototype too). */
export const operationOfService = (service: string): ForwardedOperation | undefined =>
  Object.hasOwn(OPERATION_OF_SERVICE, service) ? OPERATION_OF_SERVICE[service as Service] : undefined;
