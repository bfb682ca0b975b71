import { runAsProcess, type CommandIo } from '../cli/command-io';
import { strictArgs, UsageError } from '../cli/command-line';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { PACKAGE_ROOT } from '../shared/package-root';
import { baseRelease } from '../verification/compat/contract-releases';
import { CompatInputError } from '../verification/compat/contract-source';
import { writePendingPact } from '../verification/compat/pending-pact';
import { summaryLine } from '../verification/compat/compat-report';

// npm run contract:pending -- --out <file> [--base <pact | dir | ref>] [--head <…>]
// The next contract as it is published while vendors catch up: head's pact with V4 `pending: true`
// on the interactions that are new or changed in a breaking or new-work way since base (the last
// release unless given), `pending: false` elsewhere. Publish it with `npm run pact:publish -- --pacts <file>`.

const USAGE = `Usage: npm run contract:pending -- --out <file> [--base <pact | directory | git ref>] [--head <…>]

Writes head's pact with \`pending: true\` on every interaction that is new or changed in a way a
seller that passed base can fail (breaking or new work under docs/contract-evolution.md), and
\`pending: false\` on the rest, so every Pact verifier reports those interactions without failing.

  --out <file>   where to write the pending-marked pact (e.g. var/pending/federated-gateway-seller-system.json)
  --base <x>     the last release (default: the last contract tag, or without tags the newest
                 commit at another contract version)
  --head <x>     the next contract (default: the working tree's)
  --help         this text

Exit 0 written; 2 bad usage or input (nothing written).
`;

async function contractPending(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    values = strictArgs(argv, {
      out: { type: 'string' },
      base: { type: 'string' },
      head: { type: 'string' },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (values.out === undefined || values.out === '') throw new UsageError('--out <file> is required');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`contract:pending: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  let base = values.base;
  if (base === undefined) {
    const release = baseRelease(PACKAGE_ROOT, CONTRACT_VERSION);
    if (release.kind === 'none') {
      io.stderr(`contract:pending: ${release.why}; give --base\n`);
      return 2;
    }
    io.stderr(`contract:pending: base is ${release.why}\n`);
    base = release.ref;
  }
  try {
    const written = writePendingPact({ base, head: values.head ?? PACKAGE_ROOT, out: values.out, repo: PACKAGE_ROOT });
    io.stderr(`contract:pending: ${summaryLine(written.report)}\n`);
    io.stdout(
      `${values.out}: pending: true on ${written.pending.length} of ${written.pact.interactions.length} interaction(s)` +
        `${written.pending.map((d) => `\n  ${d}`).join('')}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CompatInputError)) throw error;
    io.stderr(`contract:pending: ${error.message}\n`);
    return 2;
  }
}

runAsProcess(contractPending);
