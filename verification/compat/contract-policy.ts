import type { CompatReport } from './compat-report';

// The release policy (docs/contract-evolution.md), checked in CI: a breaking change (or new
// work) needs a major version bump and a changelog entry naming each rule it falls under; any
// other change needs a minor or patch bump; no change needs nothing.

export interface PolicyVerdict {
  ok: boolean;
  lines: string[];
}

type Semver = [number, number, number];
const parse = (version: string): Semver | undefined => {
  const m = version.match(/^(\d+)\.(\d+)\.(\d+)$/);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
};
const compare = (a: Semver, b: Semver) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The changelog's section for `version` (from its heading to the next release heading). */
export function changelogSection(changelog: string, version: string): string | undefined {
  const start = changelog.search(new RegExp(`^## ${version.replace(/\./g, '\\.')}\\s*$`, 'm'));
  if (start < 0) return undefined;
  const rest = changelog.slice(start + 3);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

export function checkContractPolicy(report: CompatReport, changelog: string): PolicyVerdict {
  const baseVersion = report.base.version;
  const headVersion = report.head.version;
  if (headVersion === undefined || parse(headVersion) === undefined)
    return { ok: false, lines: [`the head states no semantic contract version (${String(headVersion)})`] };
  if (report.summary.verdict === 'unchanged')
    return { ok: true, lines: ['no change to the contract: no version bump needed'] };
  if (baseVersion === undefined)
    return {
      ok: changelogSection(changelog, headVersion) !== undefined,
      lines: [
        `the base states no contract version: ${headVersion} is the first release; it needs its changelog entry (${changelogSection(changelog, headVersion) ? 'present' : 'missing'})`,
      ],
    };
  const base = parse(baseVersion);
  const head = parse(headVersion)!;
  if (base === undefined)
    return { ok: false, lines: [`the base's contract version ${baseVersion} is not a semantic version`] };
  if (report.summary.verdict === 'breaking') {
    const lines: string[] = [];
    if (head[0] <= base[0])
      lines.push(`breaking changes need a major version bump: ${baseVersion} → ${headVersion} is not one`);
    const section = changelogSection(changelog, headVersion);
    if (section === undefined)
      lines.push(
        `breaking changes need an entry '## ${headVersion}' in contracts/CHANGELOG.md (npm run contract:compat -- --changelog)`,
      );
    else {
      const unnamed = report.findings.filter(
        (f) =>
          (f.class === 'breaking' || f.class === 'new-work') &&
          !(section.includes(f.policy) && section.includes(f.where)),
      );
      for (const f of unnamed)
        lines.push(`the changelog entry for ${headVersion} does not name ${f.policy} of '${f.where}'`);
    }
    return lines.length === 0
      ? {
          ok: true,
          lines: [
            `breaking changes with a major bump (${baseVersion} → ${headVersion}) and a changelog entry naming them`,
          ],
        }
      : { ok: false, lines };
  }
  return compare(head, base) > 0
    ? { ok: true, lines: [`safe changes with a version bump (${baseVersion} → ${headVersion})`] }
    : {
        ok: false,
        lines: [`safe changes need a minor or patch bump: the version is still ${headVersion} (base ${baseVersion})`],
      };
}
