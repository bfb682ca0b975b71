import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = [
  '{gateway,mock-seller,inspector,contracts,cli,scripts,seeds,fixtures,verification,shared,packages}/**/*.test.ts',
];

// Files whose assertions hold a wall-clock figure (a time-budgeted fuzz, a latency knee, a
// breaker that must answer within ms, a flood's close times): they run one at a time, after
// the rest, with no other test file competing for the CPU.
const ON_THEIR_OWN = [
  'gateway/api-reference/openapi-fuzz.test.ts',
  'cli/verify-load.test.ts',
  'cli/verify-load-verdicts.test.ts',
  'cli/explore-command.test.ts',
  'gateway/protection/seller-protection.test.ts',
  'gateway/seller-client/seller-client.test.ts',
  'shared/http/connection-flood.test.ts',
];

export default defineConfig({
  test: {
    // PGlite and Pact's native core take seconds to start; behaviour, not speed, is asserted.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...ON_THEIR_OWN],
          // Vitest's default is one worker fewer than the cores: on a 2-core machine a single
          // worker, every file in turn. The long files mostly wait (on a child process, a
          // seller's latency, a socket), so one worker per core keeps both cores busy.
          maxWorkers: Math.max(2, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'on-their-own', include: ON_THEIR_OWN, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
