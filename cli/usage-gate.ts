import type { CommandIo } from './command-io';
import { UsageError } from './command-line';

// `verify --help` and a mistyped flag answer before the command itself loads: its imports
// (Ajv, undici, Hono, the contract's schemas) take most of a second, the flags a few ms.
// The command parses the same argv again and says the same; this only answers sooner.

/** The mode's flags parser and usage, as the command dispatches (verify-command.ts); `--replay` checks its own. */
async function verifyMode(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ name: string; parse: () => unknown; usage: string } | undefined> {
  if (argv.includes('--explore')) {
    const { parseExploreOptions, EXPLORE_USAGE } = await import('./explore-options');
    return { name: 'verify --explore', parse: () => parseExploreOptions(argv), usage: EXPLORE_USAGE };
  }
  if (argv.includes('--load')) {
    const { parseLoadOptions, LOAD_USAGE } = await import('./load-options');
    return { name: 'verify --load', parse: () => parseLoadOptions(argv), usage: LOAD_USAGE };
  }
  if (argv.includes('--replay')) return undefined;
  const { parseKitOptions, USAGE } = await import('./verify-options');
  return { name: 'verify', parse: () => parseKitOptions(argv, env), usage: USAGE };
}

/** The exit code when `verify …` is a request for help or a usage error (printed), else undefined. */
export async function verifyUsageGate(argv: string[], io: CommandIo): Promise<number | undefined> {
  const mode = await verifyMode(argv, io.env);
  if (mode === undefined) return undefined;
  try {
    mode.parse();
    return undefined;
  } catch (error) {
    if (!(error instanceof UsageError)) return undefined; // the command reports it in its own words
    if (error.message === '') {
      io.stdout(mode.usage);
      return 0;
    }
    io.stderr(`${mode.name}: ${error.message}\n\n${mode.usage}`);
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
