import { writeFile } from 'node:fs/promises';
import type { CommandIo } from './command-io';
import type { CheckOpenApiOptions } from './check-openapi-options';
import {
  checkOpenApi,
  openApiCheckAsJson,
  openApiCheckAsText,
  openApiCheckExitCode,
} from '../verification/openapi-check/check-openapi';
import { renderOpenApiCheckJunit } from '../verification/openapi-check/openapi-check-junit';
import { chosenPath, readVendorDocument, VendorDocumentError } from '../verification/openapi-check/vendor-document';

// `check-openapi`: the vendor's document read and checked in full before anything is printed on
// stdout or in a report file, so bad input writes nothing.

export async function runCheckOpenApi(options: CheckOpenApiOptions, io: CommandIo): Promise<number> {
  let report;
  try {
    const vendor = readVendorDocument(options.openapi);
    const path = chosenPath(vendor, options.path);
    io.stderr(`check-openapi: ${options.openapi}, POST ${path}, against the pact\n`);
    report = checkOpenApi(vendor, path);
  } catch (error) {
    if (!(error instanceof VendorDocumentError)) throw error;
    io.stderr(`check-openapi: ${error.message}\n`);
    return 2;
  }
  if (options.junit !== undefined) await writeFile(options.junit, renderOpenApiCheckJunit(report));
  io.stdout(options.json ? openApiCheckAsJson(report) : openApiCheckAsText(report));
  return openApiCheckExitCode(report);
}
