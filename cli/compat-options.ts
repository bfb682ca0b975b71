import { strictArgs, UsageError } from './command-line';

// The flags of `compat`, checked before anything is read: one output form on stdout at a time,
// and an HTML file beside it if asked.

export const COMPAT_USAGE = `Usage: compat [--base <pact | directory | git ref>] [--head <…>] [options]

Compares two releases of the contract and classifies every change for a seller system
(two pacts) or for a buyer program (two OpenAPI documents):
  breaking   a seller that passed base can fail head (a reply field newly expected, a matcher
             made stricter, a new reply rule, a request field removed, a state renamed, …)
  new work   a new required interaction
  optional   a new optional (or pending) interaction
  safe       nothing that passed base can fail head (loosened, added request fields, removed
             interactions, wording)

  --base <x>        the older release: a pact file, a directory of the contract's files, or a git
                    ref (contract-v3.2.0, a commit; <ref>:<path> for another file). Default: the
                    last contract tag (contract-v*) of the repository
  --head <x>        the newer release (default: this package's contract, the working tree in a clone)
  --repo <dir>      the git repository refs are read from (default: the current directory)
  --paths <from>=<to>
                    within one OpenAPI document (--base, default this package's buyer API
                    document), what a buyer program meets moving from the operations under one
                    path prefix to their twins under another, operation by operation, e.g.
                    --paths /json/federated/v3_1/=/json/federated/v3_2/
  --json            the findings and a summary as JSON on stdout
  --markdown        Markdown on stdout, ready to post as a pull-request comment
  --html <file>     also write the report as an HTML page
  --changelog       print the contracts/CHANGELOG.md entry for head's version instead
  --help            this text

Progress on stderr, results on stdout. Exit 0: nothing changed or every change is safe (or
optional); 1: something is breaking or new work; 2: bad usage or input (an unreadable pact, a
ref that does not exist, a directory without a pact, pacts of different consumers/providers);
nothing is written then.
`;

export interface CompatOptions {
  base: string | undefined;
  head: string | undefined;
  repo: string;
  format: 'text' | 'json' | 'markdown' | 'changelog';
  html: string | undefined;
  /** --paths: compare the operations under `from` with their twins under `to`. */
  paths: { from: string; to: string } | undefined;
}

/** The options, or 'help'; UsageError for anything wrong. */
export function parseCompatOptions(argv: string[], cwd: string): CompatOptions | 'help' {
  const values = strictArgs(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    paths: { type: 'string' },
    json: { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    html: { type: 'string' },
    changelog: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const forms = (['json', 'markdown', 'changelog'] as const).filter((form) => values[form]);
  if (forms.length > 1)
    throw new UsageError(
      `choose one of --json, --markdown, --changelog (got ${forms.map((f) => `--${f}`).join(' and ')})`,
    );
  for (const flag of ['base', 'head', 'repo', 'html'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} needs a value`);
  }
  let paths: CompatOptions['paths'];
  if (values.paths !== undefined) {
    const [from, to, ...rest] = values.paths.split('=');
    if (rest.length > 0 || !from?.startsWith('/') || !to?.startsWith('/') || from === to)
      throw new UsageError(
        `--paths must be two different path prefixes as <from>=<to>, e.g. /json/federated/v3_1/=/json/federated/v3_2/, got '${values.paths}'`,
      );
    if (values.head !== undefined)
      throw new UsageError('--paths compares within one document: give it as --base, not --head');
    paths = { from, to };
  }
  return {
    base: values.base,
    head: values.head,
    repo: values.repo ?? cwd,
    format: forms[0] ?? 'text',
    html: values.html,
    paths,
  };
}
