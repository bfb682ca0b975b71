import type { CommandIo } from './command-io';
import { strictArgs, usageFailure, UsageError, type Parsed } from './command-line';
import { reportFileArg } from './report-file-arg';

// `check-openapi`: its command line, read before Ajv and the contract's documents load.

export const CHECK_OPENAPI_USAGE = `Usage: check-openapi --openapi <file> [--path <path>] [--json] [--junit <file>]

Reads your own OpenAPI document (3.0 or 3.1, JSON or YAML) against the pact,
without running anything. For each interaction of the pact:
  request   your POST operation accepts application/json and the interaction's request body
            validates against its request body schema
  reply     your 200 reply is application/json, as the pact expects; the interaction's example
            reply validates against your reply schema, which declares every property it has;
            and your reply schema allows nothing the contract's refuses: every property the
            contract requires is required; types, enums, nullable, bounds, formats and
            patterns within the contract's; no other property where the contract allows none
The reply rules that compare a reply with its request are listed as proven only by verify.

  --openapi <file>  your OpenAPI document
  --path <path>     the path of the POST operation (default: your document's only POST path, or /)
  --json            the findings and a summary as JSON on stdout
  --junit <file>    also write JUnit XML (a case per interaction; the verify-only rules skipped)
  --help            this text

Results on stdout. Exit 0: no finding; 1: a finding; 2: bad usage or input (unreadable, neither
JSON nor YAML, not OpenAPI 3, Swagger 2.0, a $ref that resolves nowhere, several POST paths and
no --path); then nothing is written.
`;

export interface CheckOpenApiOptions {
  openapi: string;
  path: string | undefined;
  json: boolean;
  junit: string | undefined;
}

/** `check-openapi`'s command line: the options, or the exit code once --help or a usage error was answered. */
export function readCheckOpenApiCommandLine(argv: string[], io: CommandIo): Parsed<CheckOpenApiOptions> {
  try {
    const values = strictArgs(argv, {
      openapi: { type: 'string' },
      path: { type: 'string' },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(CHECK_OPENAPI_USAGE);
      return { kind: 'exit', code: 0 };
    }
    if (values.openapi === undefined || values.openapi === '')
      throw new UsageError('--openapi <file> is required: your OpenAPI document');
    if (values.path !== undefined && !values.path.startsWith('/'))
      throw new UsageError(`--path must start with /, got '${values.path}'`);
    const junit = values.junit === undefined ? undefined : reportFileArg('--junit', values.junit);
    return { kind: 'run', options: { openapi: values.openapi, path: values.path, json: values.json, junit } };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { kind: 'exit', code: usageFailure('check-openapi', error, io) };
  }
}
