import { describe, expect, it } from 'vitest';
import { runInProcess } from './testing/run-in-process';
import { rulesProxyCommand } from './rules-proxy-command';
import { rulesProxyUsageGate, verifyUsageGate } from './usage-gate';
import { verifyCommand } from './verify-command';

// The gate answers --help and usage errors before a command loads: it must say exactly what
// the command itself would, and step aside (undefined) for a command line that is right.

const cases: {
  name: string;
  gate: typeof verifyUsageGate;
  command: typeof verifyCommand;
  argv: string[];
  code: number;
}[] = [
  { name: 'verify --help', gate: verifyUsageGate, command: verifyCommand, argv: ['--help'], code: 0 },
  {
    name: 'verify with an unknown flag',
    gate: verifyUsageGate,
    command: verifyCommand,
    argv: ['--seller-url', 'http://127.0.0.1:1/', '--bogus'],
    code: 2,
  },
  { name: 'verify without --seller-url', gate: verifyUsageGate, command: verifyCommand, argv: [], code: 2 },
  {
    name: 'verify --explore --help',
    gate: verifyUsageGate,
    command: verifyCommand,
    argv: ['--explore', '--help'],
    code: 0,
  },
  {
    name: 'verify --explore with a bad --runs',
    gate: verifyUsageGate,
    command: verifyCommand,
    argv: ['--explore', '--runs', 'x'],
    code: 2,
  },
  { name: 'verify --load --help', gate: verifyUsageGate, command: verifyCommand, argv: ['--load', '--help'], code: 0 },
  {
    name: 'verify --load with falling --concurrency',
    gate: verifyUsageGate,
    command: verifyCommand,
    argv: ['--load', '--seller-url', 'http://127.0.0.1:1/', '--state-map', 'x.json', '--concurrency', '4,2'],
    code: 2,
  },
  { name: 'rules-proxy --help', gate: rulesProxyUsageGate, command: rulesProxyCommand, argv: ['--help'], code: 0 },
  {
    name: 'rules-proxy with a bad --port',
    gate: rulesProxyUsageGate,
    command: rulesProxyCommand,
    argv: ['--upstream', 'http://127.0.0.1:1/', '--port', 'x'],
    code: 2,
  },
];

describe('the usage gate', () => {
  for (const c of cases) {
    it(`answers ${c.name} as the command does (exit ${c.code})`, async () => {
      const gated = await runInProcess(c.gate, c.argv);
      const direct = await runInProcess(c.command, c.argv);
      expect(gated.code).toBe(c.code);
      expect(direct.code).toBe(c.code);
      expect(gated.stdout).toBe(direct.stdout);
      expect(gated.stderr).toBe(direct.stderr);
      expect(gated.stdout + gated.stderr).toMatch(/Usage: /);
    });
  }

  it('steps aside for a command line that is right', async () => {
    expect((await runInProcess(verifyUsageGate, ['--seller-url', 'http://127.0.0.1:1/seller'])).code).toBeUndefined();
    // The installed command's gate once took --load and --replay for unknown flags of verify's own.
    expect(
      (
        await runInProcess(verifyUsageGate, [
          '--load',
          '--seller-url',
          'http://127.0.0.1:1/seller',
          '--state-map',
          'x.json',
        ])
      ).code,
    ).toBeUndefined();
    expect((await runInProcess(verifyUsageGate, ['--replay', 'x.json'])).code).toBeUndefined();
    expect((await runInProcess(rulesProxyUsageGate, ['--upstream', 'http://127.0.0.1:1/seller'])).code).toBeUndefined();
  });
});
