import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { writePidFile } from './pid-file';

describe('--pid-file', () => {
  it('holds our pid while we run and is removed at exit', () => {
    const file = join(temporaryDirectory('pid'), 'proxy.pid');
    const remove = writePidFile(file);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    remove();
    expect(existsSync(file)).toBe(false);
  });

  it('leaves a file that is no longer ours (another run wrote its pid there)', () => {
    const file = join(temporaryDirectory('pid'), 'proxy.pid');
    const remove = writePidFile(file);
    writeFileSync(file, '424242\n');
    remove();
    expect(readFileSync(file, 'utf8')).toBe('424242\n');
  });
});
