// Reply bytes carved out of shared slabs. A 5 kB reply in a Buffer of its own is an
// ArrayBuffer of its own (Node's Buffer pool only serves under 4 kB): allocating it and
// later sweeping it cost more than assembling the reply. A slab hands out views one after
// another and never writes a byte twice, so a view stays valid for as long as anyone (the
// journal, the reply cache) holds it; a slab is freed with its last view.
//
// Small slabs bound what a few long-held views can pin: the reply cache holds at most 256
// replies, so at worst 256 slabs (16 MB at the default size).

export interface ReplySlab {
  /** `length` fresh bytes, to be filled by the caller and never handed out again. */
  take(length: number): Buffer;
}

export function createReplySlab(size = 64 * 1024): ReplySlab {
  let slab = Buffer.allocUnsafeSlow(size);
  let used = 0;
  return {
    take(length) {
      if (length > size >>> 2) return Buffer.allocUnsafeSlow(length); // big replies: their own buffer
      if (used + length > size) {
        slab = Buffer.allocUnsafeSlow(size);
        used = 0;
      }
      const view = slab.subarray(used, used + length);
      used += length;
      return view;
    },
  };
}
