import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { COMMAND_NAMES, main } from './main';
import { runInProcess, startInProcess } from './testing/run-in-process';

// The commands as a vendor types them (`federated-gateway …`, in-process): each --help fits a
// screen, a mistyped flag gets one line naming it and the nearest flag, the old spellings of
// explore, load and replay still run with a note, load says whether it places orders, and a
// load stopped with Ctrl-C says what it measured.

const federatedGateway = (...argv: string[]) => runInProcess(main, argv);
const hint = (command: string) => `Run 'federated-gateway ${command} --help' for the options.\n`;

describe('federated-gateway --help and each command’s', () => {
  it('lists explore, load and replay as commands', async () => {
    const { stdout } = await federatedGateway('--help');
    for (const command of ['explore', 'load', 'replay'])
      expect(stdout).toMatch(new RegExp(`^ {2}${command} +\\S`, 'm'));
  });

  it('fits a screen: at most 50 lines for every command', async () => {
    const counts: Record<string, number> = {};
    for (const argv of [['--help'], ...COMMAND_NAMES.map((name) => [name, '--help'])]) {
      const run = await federatedGateway(...argv);
      expect(run.code, argv.join(' ')).toBe(0);
      counts[argv.length === 1 ? 'federated-gateway' : argv[0]] = run.stdout.split('\n').length - 1;
    }
    expect(Object.keys(counts)).toEqual(expect.arrayContaining(['explore', 'load', 'replay']));
    expect(Object.entries(counts).filter(([, lines]) => lines > 50)).toEqual([]);
  });

  it('verify --help points at explore, load and replay and documents none of their flags', async () => {
    const { stdout } = await federatedGateway('verify', '--help');
    expect(stdout).toContain(
      'Generated exchanges, load and replaying a failure are commands of their own: explore, load, replay.',
    );
    expect(stdout).not.toMatch(/--explore|--load|--replay |--runs|--concurrency|--min-score/);
  });
});

describe('a mistyped or missing flag', () => {
  const mistyped: [string, string[], string, string][] = [
    ['verify', ['--seller-ur', 'http://127.0.0.1:1/seller'], '--seller-ur', '--seller-url'],
    ['explore', ['--sed', '3'], '--sed', '--seed'],
    ['load', ['--concurency', '1,2'], '--concurency', '--concurrency'],
    ['load', ['--order'], '--order', '--orders'],
    ['replay', ['--hlep'], '--hlep', '--help'],
    ['rules-proxy', ['--upstrem', 'http://127.0.0.1:1/'], '--upstrem', '--upstream'],
    ['states', ['--state-mp', 'x.json'], '--state-mp', '--state-map'],
    ['mock-seller', ['--prot', '1'], '--prot', '--port'],
    ['compat', ['--bse', 'x'], '--bse', '--base'],
    ['record', ['--upstreem', 'http://127.0.0.1:1/'], '--upstreem', '--upstream'],
  ];
  for (const [command, argv, typed, meant] of mistyped)
    it(`${command} ${typed}: one line naming it and ${meant}, the --help hint, exit 2`, async () => {
      const run = await federatedGateway(command, ...argv);
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `${command}: unknown option '${typed}' (did you mean ${meant}?)\n${hint(command)}`,
      });
    });

  it('names no flag when none is close, and says which command is unknown', async () => {
    expect(await federatedGateway('verify', '--seller-url', 'http://x/', '--colour')).toEqual({
      code: 2,
      stdout: '',
      stderr: `verify: unknown option '--colour'\n${hint('verify')}`,
    });
    expect((await federatedGateway('explor')).stderr).toBe(
      "federated-gateway: unknown command 'explor' (did you mean explore?)\nRun 'federated-gateway --help' for the commands.\n",
    );
  });

  it('a missing required flag: one line, the --help hint, exit 2', async () => {
    const missing: [string, string[], string][] = [
      ['verify', [], '--seller-url is required'],
      ['explore', ['--state-map', 'x.json'], '--seller-url is required'],
      [
        'load',
        ['--seller-url', 'http://127.0.0.1:1/seller'],
        "--state-map or --states-url is required: your catalogue, or our mock seller's provider-state URL",
      ],
      ['replay', [], 'a replay file is required: replay <file> (load and explore write them; so does the gateway)'],
      ['rules-proxy', [], '--upstream is required'],
      ['explore', ['--seller-url'], '--seller-url needs a value'],
    ];
    for (const [command, argv, line] of missing)
      expect(await federatedGateway(command, ...argv)).toEqual({
        code: 2,
        stdout: '',
        stderr: `${command}: ${line}\n${hint(command)}`,
      });
  });
});

describe('the old spellings, until 1.0', () => {
  for (const [flag, command, spelling] of [
    ['--explore', 'explore', "--explore is now 'federated-gateway explore'"],
    ['--load', 'load', "--load is now 'federated-gateway load'"],
    ['--replay', 'replay', "--replay <file> is now 'federated-gateway replay <file>'"],
  ])
    it(`verify ${flag} runs ${command}, with one line on stderr naming it`, async () => {
      const old = await federatedGateway('verify', flag, '--help');
      const now = await federatedGateway(command, '--help');
      expect(old.code).toBe(0);
      expect(old.stdout).toBe(now.stdout);
      expect(old.stderr).toBe(`verify: ${spelling}; the old spelling works until 1.0\n`);
    });

  it('verify --load with a mistyped flag: the note, then the load command’s own line', async () => {
    const run = await federatedGateway('verify', '--load', '--seller-url', 'http://127.0.0.1:1/', '--step-secs', '1');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "verify: --load is now 'federated-gateway load'; the old spelling works until 1.0\n" +
        `load: unknown option '--step-secs' (did you mean --step-seconds?)\n${hint('load')}`,
    );
  });
});

describe('load against the mock seller', () => {
  let mock: RunningMockSeller;
  beforeAll(async () => {
    mock = await startMockSeller();
  });
  afterAll(async () => {
    await mock?.close();
  });
  const load = (...more: string[]) => [
    'load',
    '--seller-url',
    `${mock.url}/seller`,
    '--states-url',
    `${mock.url}/__admin/provider-state`,
    '--seed',
    '5',
    ...more,
  ];

  it('places orders only with --orders, and says which before the first request', async () => {
    const quick = ['--concurrency', '1', '--step-seconds', '0.2'];
    const without = await runInProcess(main, load(...quick));
    expect(without.stderr.split('\n')[0]).toBe(
      'load: no orders will be placed (add --orders to include place-order in the mix)',
    );
    const withOrders = await runInProcess(main, load(...quick, '--orders', '--mix', 'place_order=1'));
    expect(withOrders.code, withOrders.stderr).toBe(0);
    expect(withOrders.stderr.split('\n')[0]).toBe(`load: placing real orders on ${mock.url}/seller (--orders)`);
    // --no-orders, the old way to leave them out, is the default now: a note, and no orders.
    const old = await runInProcess(main, load(...quick, '--no-orders'));
    expect(old.stderr.split('\n').slice(0, 2)).toEqual([
      'load: --no-orders is the default now (orders are placed only with --orders); the flag is accepted until 1.0',
      'load: no orders will be placed (add --orders to include place-order in the mix)',
    ]);
  });

  it('stopped with Ctrl-C: STOPPED, the steps that finished, correctness over the replies checked; no gate named', async () => {
    const running = startInProcess(main, load('--concurrency', '1,2,4', '--step-seconds', '1'));
    // The first step's line on stderr: it finished; the second is under way.
    await running.printed(/^ok +1 /m, 'stderr');
    running.stop('SIGINT');
    expect(await running.exit).toBe(130);
    const verdict = running.stdout().trim().split('\n').at(-1);
    expect(verdict).toMatch(
      /^STOPPED \(Ctrl-C\) after 1 of 3 steps: held up to concurrency 1, capacity not stated for the steps that did not finish; correctness: no reply broke a rule in the [\d,]+ replies checked$/,
    );
    expect(running.stdout()).not.toContain('--min-concurrency');
  });
});
