import { writeFileSync } from 'node:fs';
import { usageFailure, UsageError } from './command-line';
import type { CommandIo } from './command-io';
import { COMPAT_USAGE, parseCompatOptions, type CompatOptions } from './compat-options';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { paletteFor } from '../verification/reports/palette';
import { CompatInputError, CONTRACT_PATHS, loadContract } from '../verification/compat/contract-source';
import { compareApiVersions } from '../verification/compat/openapi-version-move';
import { compareDocuments } from '../verification/compat/compare-documents';
import { compareReleases, isRelease } from '../verification/compat/release-compare';
import { lastContractTag } from '../verification/compat/contract-releases';
import { compatExitCode, compatReport, sideLabel, type CompatReport } from '../verification/compat/compat-report';
import { compatAsText } from '../verification/compat/compat-text';
import { compatAsMarkdown } from '../verification/compat/compat-markdown';
import { compatAsHtml } from '../verification/compat/compat-html';
import { changelogEntry } from '../verification/compat/compat-changelog';

// `compat`: what a change of the contract does to the systems on the other side. Everything is
// read and compared before anything is written, so bad input leaves no half-written report.

function rendered(report: CompatReport, format: 'text' | 'json' | 'markdown' | 'changelog', io: CommandIo): string {
  switch (format) {
    case 'text':
      return compatAsText(report, paletteFor(io.stdoutIsTTY, io.env));
    case 'json':
      return `${JSON.stringify({ base: report.base, head: report.head, summary: report.summary, notes: report.notes, findings: report.findings }, null, 2)}\n`;
    case 'markdown':
      return compatAsMarkdown(report);
    case 'changelog':
      return changelogEntry(report.head.version ?? CONTRACT_VERSION, report);
  }
}

/** The report the options ask for; CompatInputError when the input cannot be compared. */
function compared(options: CompatOptions, baseSpec: string): CompatReport {
  if (options.paths !== undefined) {
    const { from, to } = options.paths;
    const document = loadContract(baseSpec, options.repo);
    if (document.kind !== 'openapi')
      throw new CompatInputError(`--paths compares within an OpenAPI document; ${baseSpec} is a pact`);
    const version = (document.document as { info?: { version?: string } }).info?.version;
    return compatReport(
      { source: `${document.source} ${from}`, version },
      { source: `${document.source} ${to}`, version },
      compareApiVersions(document.document, from, to),
    );
  }
  const headSpec = options.head ?? PACKAGE_ROOT;
  // Two whole releases (directories, git refs): the pact and the API documents; else the two files given.
  return isRelease(baseSpec, options.repo) && isRelease(headSpec, options.repo)
    ? compareReleases(baseSpec, headSpec, options.repo)
    : compareDocuments(loadContract(baseSpec, options.repo), loadContract(headSpec, options.repo));
}

export async function compatCommand(argv: string[], io: CommandIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr(`compat: ${message}\n`);
    return 2;
  };
  let options;
  try {
    options = parseCompatOptions(argv, process.cwd());
  } catch (error) {
    if (error instanceof UsageError) return usageFailure('compat', error, io);
    throw error;
  }
  if (options === 'help') {
    io.stdout(COMPAT_USAGE);
    return 0;
  }
  const baseSpec =
    options.base ??
    (options.paths !== undefined ? packagePath(CONTRACT_PATHS.buyerApi) : lastContractTag(options.repo));
  if (baseSpec === undefined)
    return usageFailure(
      'compat',
      new UsageError(
        `no --base given and no contract tag (contract-v*) in ${options.repo}: name the release to compare against`,
      ),
      io,
    );
  let report: CompatReport;
  try {
    report = compared(options, baseSpec);
  } catch (error) {
    if (error instanceof CompatInputError) return fail(error.message);
    throw error;
  }
  io.stderr(`compat: base ${sideLabel(report.base)}\ncompat: head ${sideLabel(report.head)}\n`);
  if (options.html !== undefined) {
    try {
      writeFileSync(options.html, compatAsHtml(report));
    } catch (error) {
      return fail(`cannot write ${options.html}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    io.stderr(`compat: HTML report written to ${options.html}\n`);
  }
  io.stdout(rendered(report, options.format, io));
  return compatExitCode(report);
}
