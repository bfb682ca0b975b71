import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// JUnit XML checked against the schema CI parsers accept (fixtures/junit), by Debian's xmllint
// (libxml2-utils; .ci/run installs it when missing).

const XSD = 'fixtures/junit/junit-ci.xsd';

export const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export function validateJunit(xml: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'junit-'));
  const file = join(dir, 'report.xml');
  try {
    writeFileSync(file, xml);
    try {
      return {
        ok: true,
        output: execFileSync('xmllint', ['--noout', '--schema', XSD, file], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      };
    } catch (error) {
      return { ok: false, output: String((error as { stderr?: string }).stderr ?? error) };
    }
  } finally {
    // The file is only xmllint's input: gone before the verdict is returned.
    rmSync(dir, { recursive: true, force: true });
  }
}
