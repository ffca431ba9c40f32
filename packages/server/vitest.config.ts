import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // The simulators' shared CA, trusted by every test process (see the file).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files and the tests in each run in a random order, so that no test leans on what another left
    // behind: what a test needs, a beforeAll or beforeEach of its own makes. Each run prints its seed
    // ("Running tests with seed …"); `npx vitest run --sequence.seed=<seed>` runs that order again.
    sequence: { shuffle: true },
  },
});
