import { PACT_FILE } from '../contracts/pact/pact-names';
import type { CommandIo } from './command-io';
import { helpHint } from './command-line';

// `pact-path`: where the pact this package ships is, for a verifier's --file (pact-jvm,
// PactNet, the Rust CLI) — inside node_modules once installed, which no one should guess.

export const PACT_PATH_USAGE = `Usage: pact-path

Prints the absolute path of the seller pact shipped with this package, e.g.
  pact verifier --file "$(npx federated-gateway pact-path)" …
`;

export async function pactPathCommand(argv: string[], io: CommandIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.stdout(PACT_PATH_USAGE);
    return 0;
  }
  if (argv.length > 0) {
    io.stderr(`pact-path: takes no arguments, got '${argv.join(' ')}'\n${helpHint('pact-path')}\n`);
    return 2;
  }
  io.stdout(`${PACT_FILE}\n`);
  return 0;
}
