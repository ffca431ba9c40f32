import { defineConfig } from 'vitest/config';

/**
 * Three projects: unit and component tests in jsdom; browser tests that drive Debian's Chromium
 * against the real server started once by e2e/global-setup.ts (they need `pnpm -r build` first); and
 * the tools' tests in Node, which run `pnpm test`'s checks and the benchmarks as child processes, and
 * test the build's own plugins (build/).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
          // A whole portal rendered in jsdom: 2 to 10 s alone, three times that beside the browser
          // tests on a 2-core machine (pnpm test runs two suites at once); the limit catches a hang.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll gives a page 10 s, not 1: beside another suite (pnpm test runs two at once) the
          // sign-in page took over 1 s to show German after the language was chosen.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'tools',
          include: ['scripts/**/*.test.ts', 'bench/**/*.test.ts', 'build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
