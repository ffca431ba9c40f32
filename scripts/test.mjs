#!/usr/bin/env node
// The one test command: lint, type-check, build, every package's tests and package checks.
// Prints a line per step and closes with `N passed, N failed` (tests plus steps).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { preflight } from './preflight.mjs';
import { runStep, stopStep } from './run-step.mjs';
import { failedTestNames } from './vitest-report.mjs';

const root = resolve(import.meta.dirname, '..');
const reports = join(root, '.reports');

const results = [];
let testsPassed = 0;
let testsFailed = 0;

// Package tests run on the embedded database first; TEST_DATABASE_URL only feeds the PostgreSQL run.
const { TEST_DATABASE_URL: postgresUrl, ...baseEnv } = process.env;

// Steps run in their own process group (scripts/run-step.mjs): what one leaves running is stopped
// when it ends, so no step holds the run open; none may take longer than this.
const STEP_MINUTES = Number(process.env.TEST_STEP_TIMEOUT_MINUTES ?? 60);
let interrupted;

/** Runs one step; its result (ok, seconds, what failed) is kept for the summary and returned. */
async function run(name, command, args, cwd = root, env = baseEnv, prefix = undefined) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const { ok, output, problem } = await runStep(command, args, { cwd, env, timeoutMs: STEP_MINUTES * 60_000, prefix });
  if (problem) console.log(`=== ${name}: ${problem}`);
  const result = {
    name,
    ok,
    seconds: (Date.now() - started) / 1000,
    excerpt: ok ? [] : [...excerpt(output), ...(problem ? [problem] : [])],
  };
  results.push(result);
  if (interrupted) process.exit(summary() || 1);
  return result;
}

/** The lines of a failed step's output that say what failed, repeated next to the summary. */
function excerpt(output) {
  const lines = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').split('\n');
  const picked = [];
  lines.forEach((line, index) => {
    if (/error|fail|✗|×|unhandled|expected/i.test(line) && !/^\s*(Test Files|Tests)\s/.test(line)) {
      picked.push(
        ...lines
          .slice(index, index + 3)
          .map((l) => l.trimEnd())
          .filter(Boolean),
      );
    }
  });
  return [...new Set(picked)].slice(0, 30);
}

function summary() {
  for (const r of results.filter((result) => !result.ok && result.excerpt.length > 0)) {
    console.log(`\n=== what failed in ${r.name}`);
    for (const line of r.excerpt) console.log(`  ${line.slice(0, 240)}`);
  }
  console.log('\n=== summary');
  for (const r of results) {
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
    // The failed tests by name, under their step: the end of a long log is often all a reader gets.
    for (const test of (r.failedTests ?? []).slice(0, 10)) console.log(`       ✗ ${test.slice(0, 200)}`);
  }
  const stepsPassed = results.filter((r) => r.ok).length;
  const stepsFailed = results.length - stepsPassed;
  console.log(
    `tests: ${testsPassed} passed, ${testsFailed} failed; steps: ${stepsPassed} passed, ${stepsFailed} failed`,
  );
  console.log(`${testsPassed + stepsPassed} passed, ${testsFailed + stepsFailed} failed`);
  return testsFailed + stepsFailed === 0 ? 0 : 1;
}

// Stopped from outside (Ctrl-C, a CI timeout): the running step's whole group goes too, then the summary.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.log(`\n=== ${signal}: stopping`);
    interrupted = signal;
    if (!stopStep(`stopped by ${signal}`)) process.exit(summary() || 1);
  });
}

// The machine first: without Chromium (or an answering PostgreSQL when TEST_DATABASE_URL is set)
// the run would fail late, or not end; it stops here instead, in seconds, saying what to install.
const checked = Date.now();
const problems = await preflight(process.env);
results.push({
  name: 'preflight',
  ok: problems.length === 0,
  seconds: (Date.now() - checked) / 1000,
  excerpt: problems,
});
if (problems.length > 0) {
  console.log('\n=== preflight: pnpm test needs');
  for (const problem of problems) console.log(`  ${problem}`);
  process.exit(summary());
}

rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));

await run('lint', 'pnpm', ['exec', 'biome', 'check', '.']);
// Dead code: files, dependencies and exports nothing uses (knip.json names each package's entries).
await run('knip', 'pnpm', ['exec', 'knip']);
// The house rules a tool can check (CONTRIBUTING.md): mutations and SDK calls only in api/ folders,
// query keys only in keys.ts, typed router calls, SQL only in repositories, scope declared in the
// catalogue, no folder cycles, no simulator in production code, errors classified by endpoint.
await run('structure', process.execPath, [join(root, 'scripts/structure.mjs')]);
const { ok: built } = await run('build', 'pnpm', ['-r', '--workspace-concurrency=1', 'run', 'build']);
await run('typecheck', 'pnpm', ['-r', '--workspace-concurrency=1', 'run', 'typecheck']);
// The web app's budgets on the build just made: bundle sizes (what loads before the first route,
// the largest chunk, the libraries loaded on use, the precache), then Lighthouse on the built server
// (its reports kept in .reports), then the exports of a long report. Each prints its figures and fails
// the run when a budget is missed.
if (built) {
  await run('web budgets', process.execPath, [join(root, 'packages/web/bench/budgets.mjs')]);
  await run('web lighthouse', process.execPath, [join(root, 'packages/web/bench/lighthouse.mjs'), '--out', reports]);
  // A report of 100,000 accounts exported to xlsx and csv: click to file and the longest main-thread task.
  await run('web exports', process.execPath, [join(root, 'packages/web/bench/report-100k.mjs'), '--check']);
}

// The packages' test suites, two at a time by default (TEST_LANES): each vitest run keeps to one
// worker on a 2-core machine, and a suite waits on its servers, browsers and databases much of the
// time. The benchmarks above ran alone; these measure nothing. The web package's browser tests run
// as a suite of their own, so the two longest suites can run side by side.
const SPLIT = {
  '@compliance-portal/web': [
    { label: 'tests', args: ['--project', 'unit', '--project', 'tools'] },
    { label: 'browser tests', args: ['--project', 'e2e'] },
  ],
};
const suites = [];
for (const { dir, manifest } of packages) {
  const scripts = manifest.scripts ?? {};
  if (!scripts.test) continue;
  for (const { label, args } of SPLIT[manifest.name] ?? [{ label: 'tests', args: [] }]) {
    suites.push({ dir, manifest, label, args, env: baseEnv });
  }
  // A package that declares test:postgres runs its suite again on PostgreSQL when one is given (the
  // server's vitest config then takes only the files that open the test database).
  if (scripts['test:postgres'] && postgresUrl) {
    suites.push({
      dir,
      manifest,
      label: 'tests on PostgreSQL',
      args: [],
      env: { ...baseEnv, TEST_DATABASE_URL: postgresUrl },
    });
  }
}
// Longest first (as measured on a 2-core machine), so that the lanes end close together.
const ORDER = ['web browser tests', 'web tests', 'server tests', 'server tests on PostgreSQL'];
const rank = (suite) => {
  const at = ORDER.indexOf(`${suite.manifest.name.replace('@compliance-portal/', '')} ${suite.label}`);
  return at === -1 ? ORDER.length : at;
};
suites.sort((a, b) => rank(a) - rank(b));

async function runSuite({ dir, manifest, label, args, env }, prefix) {
  const name = `${manifest.name} ${label}`;
  const out = join(reports, `${manifest.name.replace(/[@/]/g, '_')}-${label.replace(/\W+/g, '-')}.json`);
  const result = await run(
    name,
    'pnpm',
    ['exec', 'vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    dir,
    env,
    prefix,
  );
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    testsPassed += report.numPassedTests;
    testsFailed += report.numFailedTests;
    result.failedTests = failedTestNames(report, dir);
  } else {
    testsFailed += 1;
  }
}

const lanes = Math.max(1, Number(process.env.TEST_LANES ?? 2) || 1);
const queue = [...suites];
await Promise.all(
  Array.from({ length: Math.min(lanes, queue.length) }, async (_, lane) => {
    for (let suite = queue.shift(); suite; suite = queue.shift()) {
      await runSuite(suite, lanes > 1 ? `[${lane + 1}] ` : undefined);
    }
  }),
);

for (const { dir, manifest } of packages) {
  const scripts = manifest.scripts ?? {};
  // Package checks on the build: packaging (publint, attw), bundle sizes, and runnable examples
  // (the SDK's examples against the built server, each a child process; the script stops the server),
  // and the SDK's README, each program of it run as written in a fresh project with the packed SDK.
  for (const check of ['publint', 'attw', 'size', 'lint:openapi', 'docs', 'examples', 'readme']) {
    if (scripts[check] && built) await run(`${manifest.name} ${check}`, 'pnpm', ['run', check], dir);
  }
}

process.exit(summary());
