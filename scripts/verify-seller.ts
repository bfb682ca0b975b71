import { writeFile } from 'node:fs/promises';
import { parseKitOptions, UsageError, USAGE } from '../contracts/verification/kit-options';
import { renderJunit } from '../contracts/verification/report-junit';
import { renderReport } from '../contracts/verification/report-text';
import { runVerification } from '../contracts/verification/run-verification';
import { readStateMap, StateMapError } from '../contracts/verification/state-map';

// The seller vendor's kit: Pact verification of your seller system with the reply rules
// applied to every exchange. Exit 0 when everything passed, 1 on any failure, 2 on bad usage.

async function main(): Promise<number> {
  let options;
  try {
    options = parseKitOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message !== '') process.stderr.write(`verify: ${error.message}\n\n`);
      process.stderr.write(USAGE);
      return error.message === '' ? 0 : 2;
    }
    throw error;
  }

  let states;
  try {
    states = options.states.kind === 'map' ? { kind: 'map' as const, map: await readStateMap(options.states.file) } : options.states;
  } catch (error) {
    if (error instanceof StateMapError) {
      process.stderr.write(`verify: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  process.stderr.write(`verify: ${options.sellerUrl} against ${options.pacts.kind === 'file' ? options.pacts.files.join(', ') : options.pacts.brokerUrl}\n`);
  const report = await runVerification({
    sellerUrl: options.sellerUrl,
    pacts: options.pacts,
    states,
    headers: options.headers,
    ...(options.publish !== undefined ? { publish: options.publish } : {}),
    progress: (line) => process.stderr.write(`${line}\n`),
    logLevel: options.verbose ? 'info' : 'error',
  });

  process.stdout.write(`\n${renderReport(report)}`);
  if (options.junit !== undefined) await writeFile(options.junit, renderJunit(report));
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
