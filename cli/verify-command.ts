import { writeFile } from 'node:fs/promises';
import { PactFileError, readV4Pact } from '../contracts/pact/pact-file';
import { parseKitOptions, USAGE } from './verify-options';
import { UsageError } from './command-line';
import { paletteFor } from '../verification/palette';
import { interactionReport } from '../verification/verification-report';
import { renderJunit } from '../verification/report-as-junit';
import { verificationTestCases } from '../verification/verification-test-cases';
import { renderCtrf } from '../verification/report-as-ctrf';
import { progressLine, renderReport } from '../verification/report-as-text';
import { runVerification, type StateSetup } from '../verification/run-verification';
import { readStateMap, StateMapError } from '../verification/state-map';
import { SIGNAL_EXIT, type CommandIo } from './command-io';
import { INSPECTOR_PATH, createProxyInspector } from '../verification/proxy-inspector';
import { probeUpstream } from './upstream-probe';
import { checkNotOffered, NotOfferedError, type NotOffered } from '../verification/not-offered';
import { lackingValuesText, statesLackingValues } from '../verification/example-values';
import { writeWhole } from './report-files';
import { renderVerificationHtml, type ExchangeBodies } from '../verification/html-report/verification-html';
import { CompatInputError, loadContract } from '../verification/compat/contract-source';
import { compareDocuments } from '../verification/compat/compare-documents';
import type { CompatReport } from '../verification/compat/compat-report';
import { compatAsText } from '../verification/compat/compat-text';
import { interactionMarks, type InteractionMarks } from '../verification/interaction-marks';

// `verify`: Pact verification of a seller system with the reply rules applied to every
// exchange. Progress on stderr, the report on stdout, files on request.

/** The contract the seller last passed against the pact being verified; CompatInputError names what cannot be compared. */
const compareSince = (since: string, pactFile: string): CompatReport =>
  compareDocuments(loadContract(since, process.cwd()), loadContract(pactFile, process.cwd()));

export async function verifyCommand(argv: string[], io: CommandIo): Promise<number> {
  // Generated exchanges instead of the pact: a command of its own (cli/explore-command.ts).
  if (argv.includes('--explore')) return (await import('./explore-command')).exploreCommand(argv, io);
  // The seller under load, and a failure that needs company replayed (cli/load-command.ts).
  if (argv.includes('--load')) return (await import('./load-command')).loadCommand(argv, io);
  if (argv.includes('--replay')) return (await import('./replay-command')).replayCommand(argv, io);
  let options;
  try {
    options = parseKitOptions(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(USAGE);
      return 0;
    }
    io.stderr(`verify: ${error.message}\n\n${USAGE}`);
    return 2;
  }

  let states: StateSetup;
  let notOffered: NotOffered[] = [];
  let compat: CompatReport | undefined;
  let marks: Map<string, InteractionMarks> | undefined;
  try {
    states = options.states.kind === 'map' ? { kind: 'map', map: await readStateMap(options.states.file) } : options.states;
    const declared = [...(states.kind === 'map' ? (states.map.not_offered ?? []) : []), ...options.notOffered];
    if (options.pacts.kind === 'file') {
      const interactions = options.pacts.files.flatMap((file) => readV4Pact(file).interactions);
      notOffered = checkNotOffered(declared, interactions);
      // Compared before anything runs: a --since that is no pact is bad input, like an unreadable pact.
      if (options.since !== undefined) compat = compareSince(options.since, options.pacts.files[0]);
      marks = interactionMarks(interactions, compat, options.pending);
      if (options.pending && compat === undefined)
        io.stderr(
          `verify: --pending without --since: the interactions the pact marks pending run as pending (${[...marks.values()].filter((m) => m.pending !== undefined).length} here)\n`,
        );
      // States sent with the contract's examples: said at start; with a state map, an error unless allowed.
      if (states.kind !== 'url') {
        const lacking = statesLackingValues(states.kind === 'map' ? states.map : undefined, interactions, declared);
        const refused = states.kind === 'map' && !options.allowExampleValues;
        if (lacking.length > 0)
          io.stderr(
            `verify: ${states.kind === 'map' ? `the state map ${options.states.kind === 'map' ? options.states.file : ''} gives` : 'without --state-map or --states-url, the run has'} ` +
              `no value for these states' parameters; the contract's example values would be sent:\n${lackingValuesText(lacking)}` +
              (refused ? `Add them to the state map (or declare an optional state "not_offered"), or run with --allow-example-values.\n` : ''),
          );
        if (refused && lacking.length > 0) return 2;
      }
    } else if (declared.length > 0)
      throw new NotOfferedError("not_offered needs --pact: a broker's pacts are verified in one run, the kit cannot leave an interaction out");
  } catch (error) {
    if (!(error instanceof StateMapError) && !(error instanceof PactFileError) && !(error instanceof NotOfferedError) && !(error instanceof CompatInputError))
      throw error;
    io.stderr(`verify: ${error instanceof CompatInputError ? '--since: ' : ''}${error.message}\n`);
    return 2;
  }
  const unreachable = await probeUpstream(options.sellerUrl);
  if (unreachable !== undefined) {
    io.stderr(`verify: your system at ${options.sellerUrl} cannot be reached: ${unreachable}. Start it, or check --seller-url.\n`);
    return 2;
  }

  // What changed since the contract the vendor last passed, before the verdicts it explains.
  if (compat !== undefined) io.stdout(`Changes since the contract you last passed (--since):\n${compatAsText(compat, paletteFor(io.stdoutIsTTY, io.env))}`);

  const progressColours = paletteFor(io.stderrIsTTY, io.env);
  io.stderr(
    `verify: ${options.sellerUrl} against ${options.pacts.kind === 'file' ? options.pacts.files.join(', ') : options.pacts.brokerUrl} (limit ${options.timeoutMs} ms per exchange)\n`,
  );
  const inspector = createProxyInspector(`Verification of ${options.sellerUrl}`);
  // Each interaction's last exchange, for the HTML report's request/reply view (by report position).
  const lastExchanges: (ExchangeBodies | undefined)[] = [];
  const started = Date.now();
  const report = await runVerification({
    sellerUrl: options.sellerUrl,
    pacts: options.pacts,
    states,
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    maxReplyBytes: options.maxReplyBytes,
    notOffered,
    ...(marks !== undefined ? { marks } : {}),
    ...(compat !== undefined ? { since: { base: compat.base, head: compat.head, summary: compat.summary } } : {}),
    ...(options.publish !== undefined ? { publish: options.publish } : {}),
    onInteraction: (run, index, total) => {
      lastExchanges[index - 1] = run.exchanges.at(-1);
      io.stderr(`${progressLine(interactionReport(run), index, total, progressColours)}\n`);
    },
    ...(options.verbose ? { log: (text: string) => io.stderr(text.replace(/^/gm, '  pact | ')) } : {}),
    signal: io.signal,
    proxyRoutes: inspector.routes,
    onExchange: inspector.record,
    onProxyReady: (url) => io.stderr(`verify: the exchanges, live, while the run lasts: ${url}${INSPECTOR_PATH}\n`),
  }).finally(() => inspector.close());

  io.stdout(`\n${renderReport(report, paletteFor(io.stdoutIsTTY, io.env))}`);
  if (options.junit !== undefined) await writeFile(options.junit, renderJunit(report));
  if (options.ctrf !== undefined) await writeFile(options.ctrf, renderCtrf('federated-gateway verify', verificationTestCases(report), started, Date.now()));
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.html !== undefined) writeWhole(options.html, renderVerificationHtml(report, lastExchanges));
  if (report.stopped !== undefined) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.ok ? 0 : 1;
}
