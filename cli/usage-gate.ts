import type { CommandIo } from './command-io';
import { UsageError } from './command-line';

// `verify --help` and a mistyped flag answer before the command itself loads: its imports
// (Ajv, undici, Hono, the contract's schemas) take most of a second, the flags a few ms.
// The command parses the same argv again and says the same; this only answers sooner.

/** The exit code when `verify …` is a request for help or a usage error (printed), else undefined. */
export async function verifyUsageGate(argv: string[], io: CommandIo): Promise<number | undefined> {
  const explore = argv.includes('--explore');
  try {
    if (explore) (await import('./explore-options')).parseExploreOptions(argv);
    else (await import('./verify-options')).parseKitOptions(argv, io.env);
    return undefined;
  } catch (error) {
    if (!(error instanceof UsageError)) return undefined; // the command reports it in its own words
    const usage = explore ? (await import('./explore-options')).EXPLORE_USAGE : (await import('./verify-options')).USAGE;
    if (error.message === '') {
      io.stdout(usage);
      return 0;
    }
    io.stderr(`${explore ? 'verify --explore' : 'verify'}: ${error.message}\n\n${usage}`);
    return 2;
  }
}

/** The same for `rules-proxy …`: its flags are checked apart from the proxy (cli/rules-proxy-options.ts). */
export async function rulesProxyUsageGate(argv: string[], io: CommandIo): Promise<number | undefined> {
  const { rulesProxyArgsOrExit } = await import('./rules-proxy-options');
  try {
    const args = rulesProxyArgsOrExit(argv, io);
    return 'exit' in args ? args.exit : undefined;
  } catch {
    return undefined; // the command reports it in its own words
  }
}
