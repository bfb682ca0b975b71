import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAsProcess, type CommandIo } from '../cli/command-io';
import { integerArg, strictArgs, UsageError } from '../cli/command-line';
import {
  agreementFigures,
  agreementOk,
  disagreementText,
  figuresTable,
  runAgreement,
  type AgreementRun,
} from './openapi-agreement/run-agreement';

// npm run -w lab openapi:agreement -- [--per-kind 12] [--lanes 2] [--json]
// check-openapi checked against runs: vendor documents derived from the contract's seller API
// document (lab/openapi-agreement/derive-documents.ts), each one's static verdict beside
// the kit's `verify` of a seller that answers exactly as it says (document-seller.ts).
// openapi-agreement.test.ts runs one of each kind. Progress on stderr, figures on stdout.
// Exit 0: no false compatible and false incompatible under 2%; 1 otherwise; 2 bad usage.

const USAGE = `usage: npm run -w lab openapi:agreement -- [--per-kind <n>] [--lanes <n>] [--json] [--corpus-out <dir>] [--help]

  --per-kind <n>      derived documents of each kind of change at most (default 12)
  --lanes <n>         document sellers verified side by side (default 2)
  --json              the figures and every disagreement as JSON instead of a table
  --corpus-out <dir>  also write each document (NNN.json) and every verdict (verdicts.json)
                      there, for another engine to be judged on the same corpus
`;

const MAX_FALSE_INCOMPATIBLE = 0.02;

async function openApiAgreement(argv: string[], io: CommandIo): Promise<number> {
  let perKind: number, lanes: number, json: boolean, corpusOut: string | undefined;
  try {
    const values = strictArgs(argv, {
      'per-kind': { type: 'string', default: '12' },
      lanes: { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
      'corpus-out': { type: 'string' },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    perKind = integerArg('--per-kind', values['per-kind'], 1, 10_000);
    lanes = integerArg('--lanes', values.lanes, 1, 16);
    json = values.json;
    corpusOut = values['corpus-out'];
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`openapi:agreement: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  io.stderr(`openapi:agreement: up to ${perKind} documents of each kind, ${lanes} lane(s)\n`);
  let step = 1;
  const run = await runAgreement({
    perKind,
    lanes,
    onDocument: (_j, done, total) => {
      step = Math.max(1, Math.floor(total / 20));
      if (done % step === 0 || done === total) io.stderr(`  ${done}/${total}\n`);
    },
  });
  if (corpusOut !== undefined) writeCorpus(corpusOut, run);
  const figures = agreementFigures(run.judged);
  const all = figures.at(-1)!;
  const ok = agreementOk(all, MAX_FALSE_INCOMPATIBLE);
  const disagreements = run.judged.filter((j) => j.outcome.startsWith('false-'));
  if (json) {
    const rows = figures.map((f) => ({
      ...f,
      falseIncompatibleRate: Number(f.falseIncompatibleRate.toFixed(4)),
      ms: Math.round(f.ms),
    }));
    const documents = disagreements.map((j) => ({
      ...j.derived,
      outcome: j.outcome,
      findings: j.findings,
      failures: j.failures,
    }));
    io.stdout(
      `${JSON.stringify({ perKind, ok, wallMs: Math.round(run.ms), figures: rows, disagreements: documents }, null, 2)}\n`,
    );
  } else {
    io.stdout(`${figuresTable(figures)}\n\n`);
    for (const j of disagreements) io.stdout(`${disagreementText(j)}\n\n`);
    io.stdout(
      `${all.documents} documents in ${(run.ms / 1000).toFixed(1)} s: ${all.falseCompatible} false compatible, ` +
        `${all.falseIncompatible} false incompatible (${(all.falseIncompatibleRate * 100).toFixed(1)}%, limit ${MAX_FALSE_INCOMPATIBLE * 100}%) — ${ok ? 'AGREE' : 'DISAGREE'}\n`,
    );
  }
  return ok ? 0 : 1;
}

function writeCorpus(dir: string, run: AgreementRun): void {
  mkdirSync(dir, { recursive: true });
  for (const d of run.documents)
    writeFileSync(join(dir, `${String(d.index).padStart(3, '0')}.json`), JSON.stringify(d.document));
  const verdicts = run.judged.map((j) => ({
    ...j.derived,
    calledIncompatible: j.findings.length > 0,
    verifyFails: j.failures.length > 0,
    outcome: j.outcome,
  }));
  writeFileSync(join(dir, 'verdicts.json'), `${JSON.stringify(verdicts, null, 1)}\n`);
}

runAsProcess(openApiAgreement);
