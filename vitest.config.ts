import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{gateway,mock-seller,inspector,contracts,cli,scripts,seeds,fixtures}/**/*.test.ts'],
    // PGlite and Pact's native core take seconds to start; behaviour, not speed, is asserted.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
