import { describe, expect, it } from 'vitest';
import { replaceOneAtATime } from './rolling-reload';

// The reload's order, with workers that are names: each new worker listens before an old one
// is retired, and a new one that fails to start leaves the remaining old ones serving.

describe('rolling reload', () => {
  it('starts a new worker before it retires each old one, one at a time', async () => {
    const events: string[] = [];
    let next = 0;
    const result = await replaceOneAtATime(['old-1', 'old-2', 'old-3'], {
      start: async () => {
        const name = `new-${++next}`;
        events.push(`start ${name}`);
        return name;
      },
      retire: async (worker) => void events.push(`retire ${worker}`),
      log: (line) => events.push(line),
    });
    expect(result).toEqual({ replaced: 3 });
    expect(events).toEqual([
      'start new-1',
      'retire old-1',
      'start new-2',
      'retire old-2',
      'start new-3',
      'retire old-3',
      'gateway: reload done, 3 workers replaced',
    ]);
  });

  it('stops at a new worker that does not start, retiring no more old ones', async () => {
    const events: string[] = [];
    let starts = 0;
    const result = await replaceOneAtATime(['old-1', 'old-2'], {
      start: async () => {
        if (++starts === 2) throw new Error('exited with code 1 before listening');
        return 'new-1';
      },
      retire: async (worker) => void events.push(`retire ${worker}`),
      log: (line) => events.push(line),
    });
    expect(result).toEqual({ replaced: 1, failure: 'exited with code 1 before listening' });
    expect(events).toEqual([
      'retire old-1',
      'gateway: reload stopped after 1 of 2 workers: a new worker did not start (exited with code 1 before listening); the others serve on',
    ]);
  });
});
