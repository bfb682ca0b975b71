import { readFileSync } from 'node:fs';
import { packagePath } from '../shared/package-root';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import type { Command, CommandIo } from './command-io';

import { closest, type Parsed } from './command-line';
import { movedFromVerify } from './old-spellings';

// `federated-gateway <command>`: the toolkit's installable CLI (package.json "bin"). Commands
// load on demand: the contract's validators compile at load, which --help need not wait for.
// So a command's flags are read once, by its options module (light), and only a right command
// line loads the command that runs it.

/** A command read by a light module, then run by a heavy one loaded only once its flags are right. */
function readThenRun<O>(
  read: () => Promise<(argv: string[], io: CommandIo) => Parsed<O>>,
  run: () => Promise<(options: O, io: CommandIo) => Promise<number>>,
): () => Promise<Command> {
  return async () => {
    const readCommandLine = await read();
    return async (argv, io) => {
      const parsed = readCommandLine(argv, io);
      return parsed.kind === 'exit' ? parsed.code : (await run())(parsed.options, io);
    };
  };
}

const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  verify: {
    load: readThenRun(
      async () => (await import('./verify-options')).readVerifyCommandLine,
      async () => (await import('./verify-command')).runVerify,
    ),
    summary: 'verify your seller system against the pact and the reply rules',
  },
  explore: {
    load: readThenRun(
      async () => (await import('./explore-options')).readExploreCommandLine,
      async () => (await import('./explore-command')).runExplore,
    ),
    summary: 'generated exchanges from your catalogue, every reply checked, failures shrunk',
  },
  load: {
    load: readThenRun(
      async () => (await import('./load-options')).readLoadCommandLine,
      async () => (await import('./load-command')).runLoadCommand,
    ),
    summary: "your seller system under the gateway's load: the knee, every reply checked",
  },
  replay: {
    load: readThenRun(
      async () => (await import('./replay-options')).readReplayCommandLine,
      async () => (await import('./replay-command')).runReplay,
    ),
    summary:
      "send failures again: one seen only under concurrency (load, explore), or production's (the gateway's file)",
  },
  'check-openapi': {
    load: readThenRun(
      async () => (await import('./check-openapi-options')).readCheckOpenApiCommandLine,
      async () => (await import('./check-openapi-command')).runCheckOpenApi,
    ),
    summary: 'your own OpenAPI document against the pact, without running anything',
  },
  'rules-proxy': {
    load: readThenRun(
      async () => (await import('./rules-proxy-options')).readRulesProxyCommandLine,
      async () => (await import('./rules-proxy-command')).runRulesProxy,
    ),
    summary: 'the reply rules in front of your seller, for your own Pact verifier',
  },
  'mock-seller': {
    load: async () => (await import('./mock-seller-command')).mockSellerCommand,
    summary: 'a seller system from a scenario, honest or faulty on demand',
  },
  states: {
    load: async () => (await import('./states-command')).statesCommand,
    summary: "the kit's provider-state endpoint alone, answering from your state map, for any verifier",
  },
  'pact-path': {
    load: async () => (await import('./pact-path-command')).pactPathCommand,
    summary: "print where the pact this package ships is (for your own verifier's --file)",
  },
  compat: {
    load: async () => (await import('./compat-command')).compatCommand,
    summary: 'classify every change between two releases of the contract (breaking, new work, optional, safe)',
  },
  record: {
    load: async () => (await import('./record-command')).recordCommand,
    summary: 'sit in front of a real seller and write what it answers as a mock-seller scenario',
  },
};

const packageVersion = () =>
  (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
/** The package's version and the contract's (they move apart: contracts/contract-version.ts). */
/** Every command's name, as `federated-gateway --help` lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export const versionLine = (): string => `${packageVersion()} (contract ${CONTRACT_VERSION})`;

export const MAIN_USAGE = `Usage: federated-gateway <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(13)} ${summary}`)
  .join('\n')}

'federated-gateway <command> --help' describes each. --version prints the package's and the contract's versions.
`;

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [given, ...args] = argv;
  if (given === undefined || given === '--help' || given === '-h' || given === 'help') {
    io.stdout(MAIN_USAGE);
    return given === undefined ? 2 : 0;
  }
  if (given === '--version' || given === '-v') {
    io.stdout(`${versionLine()}\n`);
    return 0;
  }
  // `verify --explore …` and the other old spellings: the new command, with a note (until 1.0).
  const moved = given === 'verify' ? movedFromVerify(args, io) : undefined;
  const [name, rest] = moved !== undefined ? [moved.command, moved.argv] : [given, args];
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    const near = closest(name, Object.keys(COMMANDS));
    io.stderr(
      `federated-gateway: unknown command '${name}'${near !== undefined ? ` (did you mean ${near}?)` : ''}\n` +
        "Run 'federated-gateway --help' for the commands.\n",
    );
    return 2;
  }
  return (await command.load())(rest, io);
}
