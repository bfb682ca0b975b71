import { readFileSync } from 'node:fs';
import { packagePath } from '../shared/package-root';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import type { Command, CommandIo } from './command-io';

// `federated-gateway <command>`: the toolkit's installable CLI (package.json "bin"). Commands
// load on demand: the contract's validators compile at load, which --help need not wait for.

/** `gate` answers --help and usage errors without loading the command (undefined: go on). */
type Gate = (argv: string[], io: CommandIo) => Promise<number | undefined>;

const COMMANDS: Record<string, { load: () => Promise<Command>; gate?: () => Promise<Gate>; summary: string }> = {
  verify: {
    load: async () => (await import('./verify-command')).verifyCommand,
    gate: async () => (await import('./usage-gate')).verifyUsageGate,
    summary: 'verify your seller system against the pact and the reply rules',
  },
  'rules-proxy': {
    load: async () => (await import('./rules-proxy-command')).rulesProxyCommand,
    gate: async () => (await import('./usage-gate')).rulesProxyUsageGate,
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
export const versionLine = (): string => `${packageVersion()} (contract ${CONTRACT_VERSION})`;

export const MAIN_USAGE = `Usage: federated-gateway <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(13)} ${summary}`)
  .join('\n')}

'federated-gateway <command> --help' describes each. --version prints the package's and the contract's versions.
`;

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(MAIN_USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${versionLine()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr(`federated-gateway: unknown command '${name}'\n\n${MAIN_USAGE}`);
    return 2;
  }
  const answered = command.gate === undefined ? undefined : await (await command.gate())(rest, io);
  return answered ?? (await command.load())(rest, io);
}
