import { execFileSync } from 'node:child_process';
import { CONTRACT_TAG_PREFIX } from '../../contracts/contract-version';
import { CONTRACT_PATHS, gitShow, versionFromSource } from './contract-source';

// What "the last release of the contract" is in a clone: the newest `contract-v*` tag reachable
// from HEAD; in a clone without tags (CI's fresh checkout), the newest commit whose contract
// version differs from the working tree's, found with `git log`; else nothing, said so.

export type BaseRelease =
  | { kind: 'tag'; ref: string; why: string }
  | { kind: 'commit'; ref: string; why: string }
  | { kind: 'none'; why: string };

const git = (repo: string, args: string[]): string | undefined => {
  try {
    return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
};

/** The newest contract tag reachable from HEAD, by version order. */
export function lastContractTag(repo: string): string | undefined {
  const tags = git(repo, ['tag', '--merged', 'HEAD', '--list', `${CONTRACT_TAG_PREFIX}*`, '--sort=-v:refname']);
  return tags?.split('\n').find((line) => line.trim() !== '');
}

/** The release to compare the working tree (at `headVersion`) against, and why that one. */
export function baseRelease(repo: string, headVersion: string | undefined): BaseRelease {
  if (git(repo, ['rev-parse', '--git-dir']) === undefined)
    return { kind: 'none', why: `${repo} is not a git repository: no contract release to compare against` };
  const tag = lastContractTag(repo);
  if (tag !== undefined) return { kind: 'tag', ref: tag, why: `the last contract tag, ${tag}` };
  // The commits that set the version, newest first: the oldest of the run stating headVersion
  // introduced it, and its parent is the newest commit at another version.
  const commits = (git(repo, ['log', '--format=%H', '--', CONTRACT_PATHS.version]) ?? '')
    .split('\n')
    .filter((line) => line !== '');
  let introduced: string | undefined;
  for (const commit of commits) {
    const text = gitShow(repo, commit, CONTRACT_PATHS.version);
    if ((text === undefined ? undefined : versionFromSource(text)) !== headVersion) break;
    introduced = commit;
  }
  if (introduced === undefined)
    return {
      kind: 'commit',
      ref: 'HEAD',
      why: `no contract tag here; HEAD, whose contract version differs from the working tree's ${headVersion}`,
    };
  if (git(repo, ['rev-parse', '--verify', '--quiet', `${introduced}^`]) !== undefined)
    return {
      kind: 'commit',
      ref: `${introduced}^`,
      why: `no contract tag here; ${introduced.slice(0, 12)}^, the newest commit whose contract version differs from ${headVersion} (found with git log)`,
    };
  return {
    kind: 'none',
    why: 'no contract tag and no earlier contract version in this history: no contract release to compare against',
  };
}
