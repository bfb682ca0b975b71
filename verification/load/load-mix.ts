import type { ForwardedOperation } from '../../contracts/reply-check';

// The operation mix of a load run: the shares the gateway sends (item inquiries most). A
// weight of 0 (or --no-orders for place order) leaves an operation out.

export type LoadMix = Partial<Record<ForwardedOperation, number>>;

export const DEFAULT_MIX: LoadMix = { 'item-inquiry': 70, 'place-order': 10, invoice: 10, statement: 10 };

/** The names on the command line are the services' (item_inquiry, place_order, invoice, statement). */
export const OPERATION_OF_NAME: Record<string, ForwardedOperation> = {
  item_inquiry: 'item-inquiry',
  place_order: 'place-order',
  invoice: 'invoice',
  statement: 'statement',
};

/** `item_inquiry=70,place_order=10,…` → weights; throws Error naming the part at fault. */
export function parseMix(text: string): LoadMix {
  const mix: LoadMix = {};
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^([a-z_]+)=(\d+)$/.exec(part);
    const operation = match === null ? undefined : OPERATION_OF_NAME[match[1]];
    if (match === null || operation === undefined)
      throw new Error(`'${part}' is not name=weight with a name among ${Object.keys(OPERATION_OF_NAME).join(', ')}`);
    mix[operation] = Number(match[2]);
  }
  if (Object.values(mix).every((w) => w === 0)) throw new Error('every weight is 0: nothing would be sent');
  return mix;
}

/** A picker over the mix, driven by a uniform draw in [0, 1). */
export function mixPicker(mix: LoadMix): (u: number) => ForwardedOperation {
  const entries = Object.entries(mix).filter(([, w]) => (w ?? 0) > 0) as [ForwardedOperation, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return (u) => {
    let x = u * total;
    for (const [operation, weight] of entries) {
      if (x < weight) return operation;
      x -= weight;
    }
    return entries[entries.length - 1][0];
  };
}
