import { describe, expect, it } from 'vitest';
import { createReplySlab } from './reply-slab';

describe('reply slab', () => {
  it('hands out views that never overlap, across slabs, and keeps what was written in each', () => {
    const slab = createReplySlab(1024);
    const taken = Array.from({ length: 40 }, (_, i) => {
      const view = slab.take(100 + i);
      view.fill(i);
      return view;
    });
    taken.forEach((view, i) => {
      expect(view.length).toBe(100 + i);
      expect(view.every((b) => b === i)).toBe(true);
    });
  });

  it('gives a reply bigger than a quarter slab a buffer of its own', () => {
    const slab = createReplySlab(1024);
    const small = slab.take(10);
    const big = slab.take(300);
    expect(big.buffer).not.toBe(small.buffer);
    expect(big.byteOffset).toBe(0);
    expect(slab.take(10).buffer).toBe(small.buffer);
  });
});
