import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import {
  EnvChoice,
  EnvChoiceList,
  EnvFlag,
  EnvInteger,
  EnvList,
  EnvString,
  EnvUrl,
  EnvironmentError,
  Optional,
  readEnvironment,
} from './environment';

const SCHEMA = Type.Object({
  PORT: EnvInteger({ default: 8080, maximum: 65_535, description: 'port' }),
  TTL_MS: Optional(EnvInteger({ minimum: 1, description: 'ttl' })),
  HOSTS: EnvList({ default: ['a'], lowerCase: true, description: 'hosts' }),
  LOG: EnvFlag({ default: true, description: 'log' }),
  MODE: EnvChoice(['file', 'smtp'], { default: 'file', description: 'mode' }),
  URL: Optional(EnvUrl({ description: 'url' })),
  TOKEN: Optional(EnvString({ minLength: 16, secret: true, description: 'token' })),
});

describe('readEnvironment', () => {
  it('fills defaults, treats blank as unset and ignores other variables', () => {
    expect(readEnvironment(SCHEMA, { PORT: '  ', OTHER: 'x' })).toEqual({
      PORT: 8080,
      HOSTS: ['a'],
      LOG: true,
      MODE: 'file',
    });
  });

  it('decodes what is set', () => {
    expect(
      readEnvironment(SCHEMA, {
        PORT: ' 0 ',
        TTL_MS: '500',
        HOSTS: 'X-One, ,x-two',
        LOG: 'off',
        MODE: 'SMTP',
        URL: 'https://example.test/a',
        TOKEN: 't'.repeat(16),
      }),
    ).toEqual({
      PORT: 0,
      TTL_MS: 500,
      HOSTS: ['x-one', 'x-two'],
      LOG: false,
      MODE: 'smtp',
      URL: 'https://example.test/a',
      TOKEN: 't'.repeat(16),
    });
  });

  it('names every bad variable at once, with what it must be and what it was', () => {
    let error: unknown;
    try {
      readEnvironment(SCHEMA, { PORT: 'eighty', TTL_MS: '0', LOG: 'maybe', MODE: 'pigeon', URL: 'example.test' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).problems.map((p) => p.message)).toEqual([
      "PORT must be an integer ≥ 0 and ≤ 65535, not 'eighty'",
      "TTL_MS must be an integer ≥ 1, not '0'",
      "LOG must be on or off (true/false, 1/0, yes/no), not 'maybe'",
      "MODE must be one of file, smtp, not 'pigeon'",
      "URL must be a URL (http://… or https://…), not 'example.test'",
    ]);
  });

  it('never quotes a secret', () => {
    expect(() => readEnvironment(SCHEMA, { TOKEN: 'hunter2' })).toThrow(
      'TOKEN must be at least 16 characters long (value not shown)',
    );
  });

  it('refuses a port over the range', () => {
    expect(() => readEnvironment(SCHEMA, { PORT: '70000' })).toThrow(
      "PORT must be an integer ≥ 0 and ≤ 65535, not '70000'",
    );
  });
});

describe('EnvChoiceList', () => {
  const LIST = Type.Object({ PARTS: EnvChoiceList(['a', 'b', 'c'], { description: 'parts' }) });

  it('is every choice by default and for `all`, none for `none`, else the ones named', () => {
    expect(readEnvironment(LIST, {}).PARTS).toEqual(['a', 'b', 'c']);
    expect(readEnvironment(LIST, { PARTS: 'ALL' }).PARTS).toEqual(['a', 'b', 'c']);
    expect(readEnvironment(LIST, { PARTS: 'none' }).PARTS).toEqual([]);
    expect(readEnvironment(LIST, { PARTS: ' c, A ' }).PARTS).toEqual(['c', 'a']);
  });

  it('refuses a name that is not a choice, saying which are', () => {
    expect(() => readEnvironment(LIST, { PARTS: 'a,d' })).toThrow(
      "PARTS must be all, none, or a comma-separated list of a, b, c (unknown: d), not 'a,d'",
    );
  });
});
