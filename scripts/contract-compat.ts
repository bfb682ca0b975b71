import { runAsProcess, type CommandIo } from '../cli/command-io';
import { compatCommand } from '../cli/compat-command';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { PACKAGE_ROOT } from '../shared/package-root';
import { baseRelease } from '../verification/compat/contract-releases';

// npm run contract:compat [-- --base <pact | dir | ref>] [--json | --markdown | --changelog] [--html <file>]
// `federated-gateway compat` in a clone: head is the working tree; base, unless given, the last
// contract tag, or in a clone without tags the newest commit whose contract version differs
// (contract-releases.ts). With no release at all it says so and exits 0: nothing was compared.

async function contractCompat(argv: string[], io: CommandIo): Promise<number> {
  if (argv.includes('--help') || argv.some((arg) => arg === '--base' || arg.startsWith('--base=')))
    return compatCommand(argv, io);
  const base = baseRelease(PACKAGE_ROOT, CONTRACT_VERSION);
  if (base.kind === 'none') {
    io.stderr(`contract:compat: ${base.why}; nothing compared\n`);
    return 0;
  }
  io.stderr(`contract:compat: base is ${base.why}\n`);
  return compatCommand(['--base', base.ref, '--repo', PACKAGE_ROOT, ...argv], io);
}

runAsProcess(contractCompat);
