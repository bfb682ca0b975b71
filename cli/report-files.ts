import { renameSync, writeFileSync } from 'node:fs';

// Report files are replaced whole (write beside, then rename), so a reader or a killed run
// never sees half a report.
export function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
