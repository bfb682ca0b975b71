import { describe, expect, it } from 'vitest';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { parseKitOptions } from './verify-options';
import { parseExploreOptions } from './explore-options';
import { UsageError } from './command-line';
import { checkStateMap, StateMapError, valuesFor } from '../verification/states/state-map';

describe('the kit command line', () => {
  it('defaults to the committed pact and no state set-up', () => {
    expect(parseKitOptions(['--seller-url', 'http://127.0.0.1:9090/seller'], {})).toEqual({
      sellerUrl: 'http://127.0.0.1:9090/seller',
      states: { kind: 'none' },
      pacts: { kind: 'file', files: [PACT_FILE] },
      headers: {},
      timeoutMs: 30_000,
      maxReplyBytes: 8_388_608,
      verbose: false,
      notOffered: [],
      allowExampleValues: false,
      pending: false,
    });
  });

  it('takes --since with one pact and --pending; --since is refused with a broker or two pacts, --pending asks a broker for its pending pacts', () => {
    const options = parseKitOptions(
      ['--seller-url', 'http://x', '--pact', 'next.json', '--since', 'contract-v3.2.0', '--pending'],
      {},
    );
    expect([options.since, options.pending]).toEqual(['contract-v3.2.0', true]);
    expect(() =>
      parseKitOptions(['--seller-url', 'http://x', '--broker-url', 'http://b', '--since', 'a.json'], {}),
    ).toThrow('--since needs --pact');
    expect(() =>
      parseKitOptions(['--seller-url', 'http://x', '--pact', 'a.json', '--pact', 'b.json', '--since', 'c.json'], {}),
    ).toThrow('--since compares one pact');
    expect(() => parseKitOptions(['--seller-url', 'http://x', '--since', ''], {})).toThrow('--since needs a value');
    expect(
      parseKitOptions(['--seller-url', 'http://x', '--broker-url', 'http://b', '--pending'], {}).pacts,
    ).toMatchObject({ enablePending: true });
  });

  it('takes --not-offered (repeatable) and --allow-example-values, refusing them where they cannot apply', () => {
    const options = parseKitOptions(
      [
        '--seller-url',
        'http://x',
        '--state-map',
        'm.json',
        '--not-offered',
        'part has route times',
        '--not-offered',
        'invoice has a downloadable copy',
        '--allow-example-values',
      ],
      {},
    );
    expect(options.notOffered).toEqual(['part has route times', 'invoice has a downloadable copy']);
    expect(options.allowExampleValues).toBe(true);
    expect(() => parseKitOptions(['--seller-url', 'http://x', '--allow-example-values'], {})).toThrow(
      '--allow-example-values needs --state-map',
    );
    expect(() =>
      parseKitOptions(
        ['--seller-url', 'http://x', '--broker-url', 'http://b', '--not-offered', 'part has route times'],
        {},
      ),
    ).toThrow('--not-offered needs --pact');
  });

  it('takes --max-reply-bytes, for verify and explore alike', () => {
    expect(parseKitOptions(['--seller-url', 'http://x', '--max-reply-bytes', '1024'], {}).maxReplyBytes).toBe(1024);
    const explore = ['--seller-url', 'http://x', '--state-map', 'm.json'];
    expect(parseExploreOptions(explore).maxReplyBytes).toBe(8_388_608);
    expect(parseExploreOptions([...explore, '--max-reply-bytes', '2048']).maxReplyBytes).toBe(2048);
    expect(() => parseExploreOptions([...explore, '--max-reply-bytes', '1e9'])).toThrow(
      "--max-reply-bytes must be a whole number, 1–268435456, got '1e9'",
    );
  });

  it('takes broker, publication, headers and JUnit options, the token from the environment', () => {
    const options = parseKitOptions(
      [
        '--seller-url',
        'https://seller.example/fg',
        '--broker-url',
        'https://broker.example',
        '--publish',
        '--provider-version',
        'abc',
        '--branch',
        'main',
        '--header',
        'Authorization: Bearer x',
        '--junit',
        'out.xml',
      ],
      { PACT_BROKER_TOKEN: 'tok' },
    );
    expect(options.pacts).toEqual({ kind: 'broker', brokerUrl: 'https://broker.example', token: 'tok' });
    expect(options.publish).toEqual({ providerVersion: 'abc', branch: 'main' });
    expect(options.headers).toEqual({ authorization: 'Bearer x' });
    expect(options.junit).toBe('out.xml');
  });

  it.each([
    [[], '--seller-url is required'],
    [['--seller-url', 'ftp://x'], '--seller-url must be an http(s) URL'],
    [['--seller-url', 'http://x', '--states-url', 'http://y', '--state-map', 'm.json'], 'not both'],
    [['--seller-url', 'http://x', '--pact', 'p.json', '--broker-url', 'http://b'], 'not both'],
    [['--seller-url', 'http://x', '--publish'], '--publish needs --broker-url'],
    [
      ['--seller-url', 'http://x', '--broker-url', 'http://b', '--publish', '--provider-version', '1'],
      '--publish needs --branch',
    ],
    [['--seller-url', 'http://x', '--header', 'nocolon'], "--header must be 'name: value'"],
    [['--seller-url', 'http://x', '--bogus'], "unknown option '--bogus'"],
    [
      ['--seller-url', 'http://x', '--max-reply-bytes', '268435457'],
      "--max-reply-bytes must be a whole number from 1 to 268435456, got '268435457'",
    ],
  ])('rejects %j: %s', (argv, message) => {
    expect(() => parseKitOptions(argv as string[], {})).toThrow(UsageError);
    expect(() => parseKitOptions(argv as string[], {})).toThrow(message);
  });
});

describe('the state map', () => {
  it('names unknown states and parameters, all at once', () => {
    expect(() => checkStateMap({ states: { 'part exsts': {}, 'part exists': { part_no: 'X' } } })).toThrow(
      StateMapError,
    );
    try {
      checkStateMap({ states: { 'part exsts': {}, 'part exists': { part_no: 'X' } } });
    } catch (error) {
      expect((error as Error).message).toContain('/states/part exsts: unknown state');
      expect((error as Error).message).toContain("'part exists' has no parameter 'part_no'");
    }
  });

  it('gives a state its own values over the defaults, and defaults only where the state has the parameter', () => {
    const map = checkStateMap({
      defaults: { member: 'M9', location_id: 'S1' },
      states: { 'part exists': { part_number: 'A', second_location_id: 'S2' } },
    });
    expect(valuesFor(map, 'part exists')).toEqual({
      member: 'M9',
      location_id: 'S1',
      part_number: 'A',
      second_location_id: 'S2',
    });
    expect(valuesFor(map, 'account has statements')).toEqual({ member: 'M9' });
  });

  it('explains that a list of values per state is the old format', () => {
    expect(() => checkStateMap({ states: { 'part exists': [{ part_number: 'A' }, { part_number: 'B' }] } })).toThrow(
      /\/states\/part exists: one object of values per state.*'two parts exist and a third is unknown'/,
    );
  });
});
