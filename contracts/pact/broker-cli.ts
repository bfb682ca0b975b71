import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { EnvironmentError, EnvString, EnvUrl, Optional, readEnvironment } from '../../shared/environment';

// Publishing and can-i-deploy go through the `pact` CLI of @pact-foundation/pact-cli
// (`pact-broker publish`, `pact-broker can-i-deploy`); this module only gathers the settings
// (environment, git) and names what is missing.

export const PACT_BROKER_BIN = fileURLToPath(new URL('../../node_modules/.bin/pact-broker', import.meta.url));

export class BrokerSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerSettingsError';
  }
}

export interface BrokerSettings {
  baseUrl: string;
  /** Passed to the CLI through its own environment variables, never on the command line. */
  env: Record<string, string>;
}

/** What publishing, can-i-deploy and `verify --broker-url` read from the environment. */
export const PACT_BROKER_ENVIRONMENT = Type.Object({
  PACT_BROKER_BASE_URL: Optional(
    EnvUrl({
      description: 'the Pact Broker (e.g. https://your-org.pactflow.io), for pact:publish and pact:can-i-deploy',
    }),
  ),
  PACT_BROKER_TOKEN: Optional(EnvString({ secret: true, description: "the broker's bearer token" })),
  PACT_BROKER_USERNAME: Optional(EnvString({ description: 'or: basic-auth user for the broker' })),
  PACT_BROKER_PASSWORD: Optional(EnvString({ secret: true, description: 'and its password' })),
  PACT_CONSUMER_VERSION: Optional(
    EnvString({ defaultText: 'the git commit', description: 'the version pacts are published under' }),
  ),
  PACT_BRANCH: Optional(
    EnvString({ defaultText: 'the git branch', description: 'the branch pacts are published under' }),
  ),
  PACT_ENVIRONMENT: EnvString({ default: 'production', description: 'the environment pact:can-i-deploy asks about' }),
  BUILD_URL: Optional(EnvUrl({ description: 'the CI build that published (shown by the broker)' })),
});

/** The broker variables, decoded; a bad one is a BrokerSettingsError (usage, exit 2) naming it. */
export function brokerEnvironment(env: NodeJS.ProcessEnv) {
  try {
    return readEnvironment(PACT_BROKER_ENVIRONMENT, env);
  } catch (error) {
    throw error instanceof EnvironmentError ? new BrokerSettingsError(error.message) : error;
  }
}

/**
 * PACT_BROKER_BASE_URL plus PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME/PASSWORD), or an error naming what is missing.
 */
export function brokerSettings(env: NodeJS.ProcessEnv): BrokerSettings {
  const settings = brokerEnvironment(env);
  const missing: string[] = [];
  if (settings.PACT_BROKER_BASE_URL === undefined)
    missing.push('PACT_BROKER_BASE_URL (the broker, e.g. https://your-org.pactflow.io)');
  if (settings.PACT_BROKER_TOKEN === undefined && settings.PACT_BROKER_USERNAME === undefined)
    missing.push('PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD)');
  if (missing.length > 0) throw new BrokerSettingsError(`missing broker settings: ${missing.join('; ')}`);
  return {
    baseUrl: settings.PACT_BROKER_BASE_URL!,
    env:
      settings.PACT_BROKER_TOKEN !== undefined
        ? { PACT_BROKER_TOKEN: settings.PACT_BROKER_TOKEN }
        : {
            PACT_BROKER_USERNAME: settings.PACT_BROKER_USERNAME!,
            PACT_BROKER_PASSWORD: settings.PACT_BROKER_PASSWORD ?? '',
          },
  };
}

const git = (args: string[], cwd: string): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface GitVersion {
  sha: string;
  branch: string;
}

/** The version and branch the pacts are published under: the checkout's commit and branch (CI may override). */
export function gitVersion(env: NodeJS.ProcessEnv, cwd = process.cwd()): GitVersion {
  const settings = brokerEnvironment(env);
  let sha = settings.PACT_CONSUMER_VERSION;
  let branch = settings.PACT_BRANCH;
  try {
    sha ||= git(['rev-parse', 'HEAD'], cwd);
    branch ||= git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
  } catch (error) {
    throw new BrokerSettingsError(
      `cannot read the git commit and branch (set PACT_CONSUMER_VERSION and PACT_BRANCH): ${(error as Error).message.split('\n')[0]}`,
    );
  }
  if (branch === 'HEAD')
    throw new BrokerSettingsError('the checkout is on a detached HEAD: set PACT_BRANCH to the branch being built');
  return { sha: sha!, branch: branch! };
}

/** Files under `path` that differ from the commit: publishing them under its SHA would misname them. */
export const uncommitted = (path: string, cwd = process.cwd()): string[] =>
  git(['status', '--porcelain', '--', path], cwd)
    .split('\n')
    .filter((line) => line.trim() !== '');

/** Runs `pact-broker <args>` with the broker settings in its environment; resolves to its exit code. */
export function runPactBroker(
  args: string[],
  settings: BrokerSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(PACT_BROKER_BIN, args, {
      stdio: 'inherit',
      env: {
        ...env,
        ...settings.env,
        PACT_BROKER_BASE_URL: settings.baseUrl,
        PACT_DO_NOT_TRACK: env.PACT_DO_NOT_TRACK ?? 'true',
      },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal !== null ? 1 : 0)));
  });
}
