import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suite runs again on PostgreSQL when TEST_DATABASE_URL is set (pnpm test's second server run).
 * Only the files that open the test database run in it: the others touch no database, or start
 * server processes of their own on PGlite whatever the run (test/process.ts, commands.test.ts), and
 * would repeat the first run exactly.
 */
const OPENS_TEST_DATABASE = /useTestServer|createTestServer|openTestDatabase|openScratchDatabase|TEST_DATABASE_URL/;
const testDir = fileURLToPath(new URL('./test', import.meta.url));
const databaseFree = process.env.TEST_DATABASE_URL
  ? readdirSync(testDir)
      .filter((file) => file.endsWith('.test.ts'))
      .filter((file) => !OPENS_TEST_DATABASE.test(readFileSync(join(testDir, file), 'utf8')))
      .map((file) => `test/${file}`)
  : [];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...databaseFree],
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
