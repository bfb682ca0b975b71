import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { runAsProcess, type CommandIo } from '../cli/command-io';
import { disagreement, fusedCase, type FusedCase } from '../contracts/testing/fused-cases';
import { buyerReplyJson } from '../gateway/float-json/buyer-reply-json';

// npm run fused:agreement -- --runs 10000 --seed 1
// Issue 37, item 2, at length: generated item-inquiry exchanges (valid, every reply rule broken,
// schema-invalid, number edges, huge) through the fused reply check and the reference path
// (Ajv + rules); both must find the same (rule, path, message, every field, order), leave the
// reply as it was, and the buyer-reply writer must write the same bytes after each.
// contracts/fused-reply-check.test.ts runs the same property bounded. Progress on stderr, the
// verdict on stdout. Exit 0: they agree; 1: a disagreement, printed with the shrunk case; 2: bad usage.

const USAGE = `usage: npm run fused:agreement -- [--runs <n>] [--seed <s>] [--help]

  --runs <n>   generated exchanges (default 2000)
  --seed <s>   the generator's seed (default 1); the same seed gives the same exchanges
`;

async function fusedAgreement(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { runs: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    io.stderr(`fused:agreement: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const integer = (name: string, text: string | undefined, fallback: number, min: number) => {
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not '${text}'`);
    return n;
  };
  let runs: number, seed: number;
  try {
    runs = integer('runs', values.runs, 2000, 1);
    seed = integer('seed', values.seed, 1, 0);
  } catch (error) {
    io.stderr(`fused:agreement: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  io.stderr(`fused:agreement: ${runs} exchanges of seed ${seed}\n`);
  const write = buyerReplyJson['item-inquiry'];
  const step = Math.max(1, Math.floor(runs / 10));
  let done = 0;
  const started = performance.now();
  const result = fc.check(
    fc.property(fusedCase(), (c) => {
      const found = disagreement(c, (reply) => Buffer.from(write(reply)));
      if (found === undefined && ++done % step === 0) io.stderr(`  ${done}/${runs}\n`);
      return found === undefined;
    }),
    { numRuns: runs, seed },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!result.failed) {
    io.stdout(
      `${runs} exchanges (seed ${seed}) in ${seconds} s: the fused check and the reference path agree on every one — AGREE\n`,
    );
    return 0;
  }
  const shrunk = result.counterexample?.[0] as FusedCase | undefined;
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
