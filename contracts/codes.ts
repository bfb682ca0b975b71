// The code lists the specification leaves "not shown", from ../shared/spec/common-codes.md.
// Schemas and reply rules read these; nothing else repeats the numbers.

export const ItemStatus = {
  NotFound: 0,
  Found: 1,
  Alternate: 2,
  Superseded: 3,
  Equivalent: 4,
} as const;
export type ItemStatus = (typeof ItemStatus)[keyof typeof ItemStatus];

/** Statuses of the requested part itself (one entry per requested id). */
export const REQUESTED_PART_STATUSES: readonly number[] = [ItemStatus.NotFound, ItemStatus.Found];
/** Statuses of extra entries that must carry original_part / original_mfr. */
export const RELATED_PART_STATUSES: readonly number[] = [
  ItemStatus.Alternate,
  ItemStatus.Superseded,
  ItemStatus.Equivalent,
];

export const LocationType = { Store: 1, Warehouse: 2 } as const;
export type LocationType = (typeof LocationType)[keyof typeof LocationType];

export const OrderType = {
  Unknown: 0,
  Delivery: 1,
  StockOrder: 2,
  WillCall: 3,
  MustHave: 4,
} as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

export const ItemOrderStatus = { Failure: 0, Received: 1, Backorder: 2 } as const;
export type ItemOrderStatus = (typeof ItemOrderStatus)[keyof typeof ItemOrderStatus];

export const PACK_CODES = ['EA', 'BX', 'IN', 'FT', 'CS', 'GL', 'QT', 'PT', 'PK', 'PL', 'CD', 'RL', 'TB', 'BG'] as const;
export type PackCode = (typeof PACK_CODES)[number];

export const OverallStatus = {
  Success: 2000,
  GeneralError: 3000,
  InvalidLocation: 3100,
  LocationNotAllowed: 3110,
  InvalidAccount: 3200,
  CreditLimit: 3210,
  AccountOnHold: 3220,
  InvalidPaymentMethod: 3300,
  AccessDenied: 4403,
  Timeout: 4408,
  ValidationError: 4422,
  SystemError: 5500,
  ServiceOffline: 5503,
} as const;
export type OverallStatus = (typeof OverallStatus)[keyof typeof OverallStatus];

/** Human meaning of each overall code, for messages and reports. */
export const OVERALL_STATUS_MEANING: Record<OverallStatus, string> = {
  2000: 'Success',
  3000: 'General error',
  3100: 'Invalid location',
  3110: 'Location not allowed',
  3200: 'Invalid account',
  3210: 'Credit limit',
  3220: 'Account on hold',
  3300: 'Invalid payment method',
  4403: 'Access denied',
  4408: 'Timeout error',
  4422: 'Validation error',
  5500: 'System error',
  5503: 'Service offline',
};

/** Invoice and statement envelopes carry a string status; the spec shows only this one. */
export const DOCUMENT_STATUS_SUCCESS = 'success';
/**
 * The status of an invoice or statement envelope that failed (the code and details beside it, in error_description).
 */
export const DOCUMENT_STATUS_ERROR = 'error';

/** The document status that goes with an overall status code. */
export const documentStatusOf = (code: number): string =>
  code === OverallStatus.Success ? DOCUMENT_STATUS_SUCCESS : DOCUMENT_STATUS_ERROR;
