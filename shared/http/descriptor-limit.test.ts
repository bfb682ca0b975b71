import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryDirectory } from '../testing/temporary-directory';
import { defaultMaxConnections, descriptorLimit, FALLBACK_DESCRIPTOR_LIMIT } from './descriptor-limit';

// The default connection cap comes from the process's soft descriptor limit.

const limitsFile = (maxOpenFiles: string) => {
  const file = join(temporaryDirectory('limits'), 'limits');
  writeFileSync(
    file,
    'Limit                     Soft Limit           Hard Limit           Units     \n' +
      'Max processes             127469               127469               processes \n' +
      `Max open files            ${maxOpenFiles}                files     \n`,
  );
  return file;
};

describe('descriptor limit', () => {
  it('reads the soft "Max open files" limit', () => {
    expect(descriptorLimit(limitsFile('256                  4096'))).toBe(256);
  });

  it('falls back when the file is missing or the limit is unlimited', () => {
    expect(descriptorLimit('/nonexistent/limits')).toBe(FALLBACK_DESCRIPTOR_LIMIT);
    expect(descriptorLimit(limitsFile('unlimited            unlimited'))).toBe(FALLBACK_DESCRIPTOR_LIMIT);
  });

  it('keeps a quarter of the descriptors, at least 64, for the process itself', () => {
    expect(defaultMaxConnections(20_000)).toBe(15_000);
    expect(defaultMaxConnections(256)).toBe(192);
    expect(defaultMaxConnections(100)).toBe(36);
  });
});
