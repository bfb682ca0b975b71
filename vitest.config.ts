import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = [
  '{gateway,mock-seller,inspector,contracts,cli,scripts,lab,seeds,fixtures,verification,shared,packages}/**/*.test.ts',
];

// A file whose assertions hold a wall-clock figure (a latency knee, a breaker that must answer
// within ms, a flood's close times, a stop within a second) is named *.wall-clock.test.ts: those
// run one at a time, after the rest, with no other test file competing for the CPU.
const WALL_CLOCK = '**/*.wall-clock.test.ts';

// The shared group's longest files (docs/performance.md), started first so that none begins
// near the end while the other worker has nothing left. Vitest orders by the durations it cached
// on the last run, but a fresh checkout (CI's first Node line) has none and falls back to file
// size, which put compat-agreement (32 lines, 10–21 s) among the last files.
const LONGEST_FIRST = [
  'verification/verify/verification-kit.test.ts',
  'cli/verify-command.test.ts',
  'gateway/orders/crash-safety.test.ts',
  'packages/installed-packages.test.ts',
  'lab/compat-agreement.test.ts',
  'verification/explore/run-exploration.test.ts',
  'gateway/cluster/gateway-cluster.test.ts',
  'gateway/store/store.test.ts',
  'gateway/internal-api/create-user.test.ts',
  'gateway/cluster/multi-instance.test.ts',
  'gateway/store/store-image.test.ts',
  'gateway/api-reference/openapi-fuzz.test.ts',
];

// A start order only, never a selection: a file missing here still runs, in Vitest's own order.
// It cannot be derived: a fresh checkout has no durations, and nothing in a file says how long it
// takes. A name that no longer exists would silently stop helping, so it is refused here.
const missing = LONGEST_FIRST.filter((file) => !existsSync(new URL(file, import.meta.url)));
if (missing.length > 0)
  throw new Error(`vitest.config.ts: LONGEST_FIRST names files that do not exist: ${missing.join(', ')}`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // Array sort is stable: within a group the rest keep Vitest's own order.
    return (await super.sort(files)).sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    );
  }
}

export default defineConfig({
  test: {
    // PGlite and Pact's native core take seconds to start; behaviour, not speed, is asserted.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, WALL_CLOCK],
          // Vitest's default is one worker fewer than the cores: on a 2-core machine a single
          // worker, every file in turn. The long files mostly wait (on a child process, a
          // seller's latency, a socket), so one worker per core keeps both cores busy.
          maxWorkers: Math.max(2, availableParallelism()),
          // A worker runs its files one after another in one module graph instead of a fresh
          // one each: most of our ~180 files test for well under a second, and importing the
          // gateway, the contracts and Vitest again cost more than that on a loaded 2-core
          // machine (the 116 files under 1 s: 51 s isolated, 19 s not; docs/performance.md).
          // Files close what they start and restore what they change (process.env, exitCode).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'wall-clock', include: [WALL_CLOCK], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
