import fc from 'fast-check';
import { runAsProcess, type CommandIo } from '../cli/command-io';
import { integerArg, strictArgs, UsageError } from '../cli/command-line';
import { disagreement, onePassCase, type OnePassCase } from '../gateway/testing/one-pass-cases';
import { GENERATED_WRITERS } from '../gateway/speedups/speedups';

// npm run -w lab one-pass:agreement -- --runs 10000 --seed 1
// the one-pass check's agreement, at length: generated item-inquiry exchanges (valid, every reply rule broken,
// schema-invalid, number edges, huge) through the one-pass reply check and the reference path
// (Ajv + rules); both must find the same (rule, path, message, every field, order), leave the
// reply as it was, and the buyer-reply writer must write the same bytes after each.
// gateway/speedups/one-pass-check.test.ts runs the same property bounded. Progress on stderr, the
// verdict on stdout. Exit 0: they agree; 1: a disagreement, printed with the shrunk case; 2: bad usage.

const USAGE = `usage: npm run -w lab one-pass:agreement -- [--runs <n>] [--seed <s>] [--help]

  --runs <n>   generated exchanges (default 2000)
  --seed <s>   the generator's seed (default 1); the same seed gives the same exchanges
`;

async function fusedAgreement(argv: string[], io: CommandIo): Promise<number> {
  let runs: number, seed: number;
  try {
    const values = strictArgs(argv, {
      runs: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    runs = integerArg('--runs', values.runs, 1, Number.MAX_SAFE_INTEGER);
    seed = integerArg('--seed', values.seed, 0, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`one-pass:agreement: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  io.stderr(`one-pass:agreement: ${runs} exchanges of seed ${seed}\n`);
  const write = GENERATED_WRITERS['item-inquiry'];
  const step = Math.max(1, Math.floor(runs / 10));
  let done = 0;
  const started = performance.now();
  const result = fc.check(
    fc.property(onePassCase(), (c) => {
      const found = disagreement(c, (reply) => Buffer.from(write(reply)));
      if (found === undefined && ++done % step === 0) io.stderr(`  ${done}/${runs}\n`);
      return found === undefined;
    }),
    { numRuns: runs, seed },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!result.failed) {
    io.stdout(
      `${runs} exchanges (seed ${seed}) in ${seconds} s: the one-pass check and the reference path agree on every one — AGREE\n`,
    );
    return 0;
  }
  const shrunk = result.counterexample?.[0] as OnePassCase | undefined;
  io.stdout(
    `DISAGREE after ${result.numRuns} exchanges (seed ${seed}, path ${result.counterexamplePath}), shrunk ${result.numShrinks} times:\n`,
  );
  if (shrunk !== undefined) {
    io.stdout(`${disagreement(shrunk, (reply) => Buffer.from(write(reply))) ?? String(result.errorInstance)}\n`);
    io.stdout(
      `request: ${JSON.stringify(shrunk.request)}\nreply:   ${shrunk.replyText.length > 4000 ? `${shrunk.replyText.slice(0, 4000)}… (${shrunk.replyText.length} characters)` : shrunk.replyText}\n`,
    );
  }
  return 1;
}

runAsProcess(fusedAgreement);
