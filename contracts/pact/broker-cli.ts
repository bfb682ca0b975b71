import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** PACT_BROKER_BASE_URL plus PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME/PASSWORD), or an error naming what is missing. */
export function brokerSettings(env: NodeJS.ProcessEnv): BrokerSettings {
  const missing: string[] = [];
  const baseUrl = env.PACT_BROKER_BASE_URL?.trim();
  if (!baseUrl) missing.push('PACT_BROKER_BASE_URL (the broker, e.g. https://your-org.pactflow.io)');
  const token = env.PACT_BROKER_TOKEN?.trim();
  const username = env.PACT_BROKER_USERNAME?.trim();
  if (!token && !username) missing.push('PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD)');
  if (missing.length > 0) throw new BrokerSettingsError(`missing broker settings: ${missing.join('; ')}`);
  try {
    const url = new URL(baseUrl!);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new BrokerSettingsError(`PACT_BROKER_BASE_URL must be an http(s) URL, got '${baseUrl}'`);
  }
  return {
    baseUrl: baseUrl!,
    env: token ? { PACT_BROKER_TOKEN: token } : { PACT_BROKER_USERNAME: username!, PACT_BROKER_PASSWORD: env.PACT_BROKER_PASSWORD ?? '' },
  };
}

const git = (args: string[], cwd: string): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface GitVersion {
  sha: string;
  branch: string;
}

/** The version and branch the pacts are published under: the checkout's commit and branch (CI may override). */
export function gitVersion(env: NodeJS.ProcessEnv, cwd = process.cwd()): GitVersion {
  let sha = env.PACT_CONSUMER_VERSION?.trim();
  let branch = env.PACT_BRANCH?.trim();
  try {
    sha ||= git(['rev-parse', 'HEAD'], cwd);
    branch ||= git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
  } catch (error) {
    throw new BrokerSettingsError(`cannot read the git commit and branch (set PACT_CONSUMER_VERSION and PACT_BRANCH): ${(error as Error).message.split('\n')[0]}`);
  }
  if (branch === 'HEAD') throw new BrokerSettingsError('the checkout is on a detached HEAD: set PACT_BRANCH to the branch being built');
  return { sha: sha!, branch: branch! };
}

/** Files under `path` that differ from the commit: publishing them under its SHA would misname them. */
export const uncommitted = (path: string, cwd = process.cwd()): string[] =>
  git(['status', '--porcelain', '--', path], cwd)
    .split('\n')
    .filter((line) => line.trim() !== '');

/** Runs `pact-broker <args>` with the broker settings in its environment; resolves to its exit code. */
export function runPactBroker(args: string[], settings: BrokerSettings, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(PACT_BROKER_BIN, args, {
      stdio: 'inherit',
      env: { ...env, ...settings.env, PACT_BROKER_BASE_URL: settings.baseUrl, PACT_DO_NOT_TRACK: env.PACT_DO_NOT_TRACK ?? 'true' },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal !== null ? 1 : 0)));
  });
}
