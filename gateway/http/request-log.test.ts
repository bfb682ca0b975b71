import { describe, expect, it } from 'vitest';
import { batchedLineWriter } from './request-log';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batched log lines', () => {
  it('writes the lines of one event-loop turn together, in order, on the next turn', async () => {
    const writes: string[] = [];
    const line = batchedLineWriter((text) => writes.push(text));
    line('a\n');
    line('b\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\n']);
    line('c\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes what is pending at once when flushed', () => {
    const writes: string[] = [];
    const line = batchedLineWriter((text) => writes.push(text));
    line('a\n');
    line('b\n');
    line.flush();
    expect(writes).toEqual(['a\nb\n']);
    line.flush();
    expect(writes).toEqual(['a\nb\n']);
  });

  it('writes at once when the pending text reaches the limit', () => {
    const writes: string[] = [];
    const line = batchedLineWriter((text) => writes.push(text), undefined, 10);
    line('12345\n');
    expect(writes).toEqual([]);
    line('67890\n');
    expect(writes).toEqual(['12345\n67890\n']);
  });
});
