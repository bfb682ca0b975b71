import { readPact } from '../../../contracts/pact/pact-file';
import { PACT_FILE } from '../../../contracts/pact/pact-names';
import { compareSellerContracts } from '../pact-compat';
import { sellerContractOf } from '../seller-contract';
import { judge, type Judged } from './agreement';
import { witnessOf } from './breaking-witness';
import { generateHead } from './generate-heads';
import { startHeadVerifier, type HeadVerdict } from './verify-head';

// The agreement run: today's pact as base (the mock seller must pass it whole, or nothing
// below means anything), then `changes` generated heads, each classified by compat and
// verified against the mock seller. Lanes run side by side, each with its own mock seller
// (one live scenario each); verdicts do not depend on the lanes or on timing.

export interface AgreementOptions {
  changes: number;
  seed: number;
  /** Mock sellers verifying side by side (default 1). */
  lanes?: number;
  /** After each head, in the order they finish. */
  onHead?: (judged: Judged, done: number) => void;
}

export interface AgreementRun {
  base: HeadVerdict;
  /** By head index. */
  judged: Judged[];
  ms: number;
}

export async function runAgreement({ changes, seed, lanes = 1, onHead }: AgreementOptions): Promise<AgreementRun> {
  const started = performance.now();
  const base = sellerContractOf(readPact(PACT_FILE), 'base');
  const verifiers = await Promise.all(Array.from({ length: Math.max(1, lanes) }, () => startHeadVerifier()));
  try {
    const baseVerdict = await verifiers[0].verify(base);
    if (!baseVerdict.ok)
      throw new Error(
        `the mock seller fails today's pact, so no head can be judged:\n${baseVerdict.failures.join('\n')}`,
      );
    const judged: Judged[] = [];
    let next = 0;
    let done = 0;
    await Promise.all(
      verifiers.map(async (verifier) => {
        for (let index = next++; index < changes; index = next++) {
          const generated = generateHead(base, baseVerdict.replies, seed, index);
          const findings = compareSellerContracts(base, generated.head);
          const verdict = await verifier.verify(generated.head, generated.verify);
          judged[index] = judge(generated, findings, verdict, (f) =>
            witnessOf(f, base, generated.head, baseVerdict.replies),
          );
          onHead?.(judged[index], ++done);
        }
      }),
    );
    return { base: baseVerdict, judged, ms: performance.now() - started };
  } finally {
    await Promise.all(verifiers.map((v) => v.close()));
  }
}
