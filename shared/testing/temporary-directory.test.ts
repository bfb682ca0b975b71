import { existsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory, useTemporaryDirectory } from './temporary-directory';

// The tests of a file run in order: each later test checks what an earlier one left behind.

const made: Record<string, string> = {};

describe('temporaryDirectory', () => {
  it('makes a fresh directory under the OS temporary directory, named by the prefix', () => {
    made.passed = temporaryDirectory('tmp-helper');
    expect(statSync(made.passed).isDirectory()).toBe(true);
    expect(dirname(made.passed)).toBe(tmpdir());
    expect(basename(made.passed)).toMatch(/^tmp-helper-\w{6}$/);
    expect(temporaryDirectory('tmp-helper')).not.toBe(made.passed);
    writeFileSync(join(made.passed, 'inside'), 'x');
  });

  it('removed it, with what was inside, when that test ended', () => {
    expect(made.passed).toBeDefined();
    expect(existsSync(made.passed)).toBe(false);
  });

  it.fails('a test that fails after making one…', () => {
    made.failed = temporaryDirectory('tmp-helper');
    throw new Error('failing on purpose');
  });

  it('…has it removed all the same', () => {
    expect(made.failed).toBeDefined();
    expect(existsSync(made.failed)).toBe(false);
  });
});

describe('useTemporaryDirectory', () => {
  describe('a suite with one', () => {
    const shared = useTemporaryDirectory('tmp-helper');
    it('has it made before its first test', () => {
      expect(statSync(shared.path).isDirectory()).toBe(true);
      writeFileSync(join(shared.path, 'first'), 'x');
      made.suite = shared.path;
    });
    it('keeps it between its tests', () => {
      expect(existsSync(join(shared.path, 'first'))).toBe(true);
    });
  });

  it('has it removed after the suite’s last test', () => {
    expect(made.suite).toBeDefined();
    expect(existsSync(made.suite)).toBe(false);
  });
});
