import { runAsProcess, type CommandIo } from '../cli/command-io';
import { integerArg, strictArgs, UsageError } from '../cli/command-line';
import { agreementFigures, disagreementText, figuresTable } from '../verification/compat/testing/agreement';
import { runAgreement } from '../verification/compat/testing/run-agreement';

// npm run -w lab contract:agreement -- --changes 1000 --seed 1 [--lanes 2] [--json]
// The classifier checked at scale: generated heads of today's pact, compat's verdict beside the kit's
// verification of the mock seller against each (lab/compat-agreement.test.ts runs 30).
// Progress on stderr, figures on stdout. Exit 0: no false safe and false breaking under 5%;
// 1 otherwise; 2 bad usage.

const USAGE = `usage: npm run -w lab contract:agreement -- [--changes <n>] [--seed <s>] [--lanes <n>] [--json] [--help]

  --changes <n>  generated heads (default 1000)
  --seed <s>     the generator's seed (default 1); head n of a seed is the same on every run
  --lanes <n>    mock sellers verifying side by side (default 2)
  --json         the figures and every disagreement as JSON instead of a table
`;

const MAX_FALSE_BREAKING = 0.05;

async function compatAgreement(argv: string[], io: CommandIo): Promise<number> {
  let changes: number, seed: number, lanes: number, json: boolean;
  try {
    const values = strictArgs(argv, {
      changes: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      lanes: { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    changes = integerArg('--changes', values.changes, 1, Number.MAX_SAFE_INTEGER);
    seed = integerArg('--seed', values.seed, 0, Number.MAX_SAFE_INTEGER);
    lanes = integerArg('--lanes', values.lanes, 1, 64);
    json = values.json;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`contract:agreement: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  io.stderr(`contract:agreement: ${changes} heads of seed ${seed}, ${lanes} mock seller(s)\n`);
  const step = Math.max(1, Math.floor(changes / 20));
  const run = await runAgreement({
    changes,
    seed,
    lanes,
    onHead: (_j, done) => {
      if (done % step === 0 || done === changes) io.stderr(`  ${done}/${changes}\n`);
    },
  });
  const figures = agreementFigures(run.judged);
  const all = figures.at(-1)!;
  const disagreements = run.judged.filter((j) => j.outcome === 'false-safe' || j.outcome === 'false-breaking');
  const ok = all.falseSafe === 0 && all.falseBreakingRate < MAX_FALSE_BREAKING;
  if (json) {
    const rows = figures.map((f) => ({
      ...f,
      falseBreakingRate: Number(f.falseBreakingRate.toFixed(4)),
      ms: Math.round(f.ms),
    }));
    const heads = disagreements.map((j) => ({
      index: j.generated.index,
      kind: j.generated.kind,
      outcome: j.outcome,
      compat: j.worst,
      changes: j.generated.changes,
      findings: j.findings.map((f) => ({ class: f.class, policy: f.policy, where: f.where, pointer: f.pointer })),
      failures: j.verdict.failures,
    }));
    io.stdout(
      `${JSON.stringify({ changes, seed, ok, wallMs: Math.round(run.ms), figures: rows, disagreements: heads }, null, 2)}\n`,
    );
  } else {
    io.stdout(`${figuresTable(figures)}\n\n`);
    for (const j of disagreements) io.stdout(`${disagreementText(j)}\n\n`);
    io.stdout(
      `${changes} heads (seed ${seed}) in ${(run.ms / 1000).toFixed(1)} s: ${all.falseSafe} false safe, ${all.falseBreaking} false breaking ` +
        `(${(all.falseBreakingRate * 100).toFixed(1)}%, limit ${MAX_FALSE_BREAKING * 100}%), ${all.breakingMockSatisfied} breaking the mock happened to satisfy — ${ok ? 'AGREE' : 'DISAGREE'}\n`,
    );
  }
  return ok ? 0 : 1;
}

runAsProcess(compatAgreement);
