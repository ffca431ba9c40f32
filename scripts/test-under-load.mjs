#!/usr/bin/env node
// The package suites run again and again while other work keeps the CPU busy, to find the tests whose
// result depends on timing (issue 44). Each run starts busy worker threads (a spin loop each), runs the
// chosen suites one after the other with vitest's JSON reporter, and stops the threads. At the end it
// prints every run's figures (suite, passed, failed, seconds, load average) and every test that failed
// at least once with how often; it exits 1 when any did.
//
// Usage: node scripts/test-under-load.mjs [--runs 5] [--busy 2] [--suites web,server,simulator]
//        node scripts/test-under-load.mjs --report [--last 5]
// Build first (`pnpm -r run build`): the web and server suites read the other packages' dist/.
//
// Every suite run is also appended to scripts/under-load-history.jsonl with the commit it ran on. The
// file is committed, so that runs made at different times and on different machines (five whole runs
// take longer than one sitting) add up: `--report` prints the last N whole runs recorded (all three
// suites each), their figures and every test that failed in them, and exits 1 when any did.
// UNDER_LOAD_REPORTS moves the reports, and the history with them to its history.jsonl (the script's
// test); UNDER_LOAD_HISTORY moves the history alone.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { runStep } from './run-step.mjs';
import { failedTestNames } from './vitest-report.mjs';

const root = resolve(import.meta.dirname, '..');
const reports = process.env.UNDER_LOAD_REPORTS ?? join(root, '.reports', 'under-load');
const history =
  process.env.UNDER_LOAD_HISTORY ??
  (process.env.UNDER_LOAD_REPORTS ? join(reports, 'history.jsonl') : join(root, 'scripts', 'under-load-history.jsonl'));

/** Each suite: its package and the vitest projects it runs (the web's browser tests are left out). */
const SUITES = {
  web: { dir: 'packages/web', args: ['--project', 'unit', '--project', 'tools'] },
  server: { dir: 'packages/server', args: [] },
  simulator: { dir: 'packages/m365-simulator', args: [] },
};

// `pnpm test:load -- --runs 5` hands the script the `--` too.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    runs: { type: 'string', default: '5' },
    busy: { type: 'string', default: String(availableParallelism()) },
    suites: { type: 'string', default: Object.keys(SUITES).join(',') },
    report: { type: 'boolean', default: false },
    last: { type: 'string', default: '5' },
  },
});
if (values.report) process.exit(report(Number(values.last)));
const runs = Number(values.runs);
const busy = Number(values.busy);
const suites = values.suites.split(',').filter((s) => s in SUITES);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(busy) || busy < 0 || suites.length === 0) {
  console.error(`usage: --runs N (1 or more) --busy N (0 or more) --suites ${Object.keys(SUITES).join(',')}`);
  process.exit(2);
}

/** A thread that spins until it is told to stop: other work on the same cores. */
const SPIN = `
const { parentPort } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => { stop = true; });
(function spin() {
  const until = Date.now() + 50;
  while (Date.now() < until) Math.sqrt(Math.random());
  if (!stop) setImmediate(spin); else process.exit(0);
})();
`;

function startBusy(count) {
  return Array.from({ length: count }, () => new Worker(SPIN, { eval: true }));
}

async function stopBusy(workers) {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((done) => {
          w.once('exit', done);
          w.postMessage('stop');
        }),
    ),
  );
}

mkdirSync(reports, { recursive: true });
mkdirSync(dirname(history), { recursive: true });
/** This invocation, in the history: when it started. */
const invocation = new Date().toISOString();
const commit = currentCommit();
const rows = [];
/** How often each test failed, by `suite: file › name`. */
const failures = new Map();

for (let run = 1; run <= runs; run += 1) {
  for (const suite of suites) {
    const { dir, args } = SUITES[suite];
    const cwd = join(root, dir);
    const report = join(reports, `${suite}-${run}.json`);
    rmSync(report, { force: true });
    const workers = startBusy(busy);
    const started = Date.now();
    console.log(`\n=== run ${run} of ${runs}: ${suite} beside ${busy} busy thread(s)`);
    const { ok, problem } = await runStep(
      'pnpm',
      ['exec', 'vitest', 'run', ...args, '--reporter=dot', '--reporter=json', `--outputFile=${report}`],
      { cwd, env: process.env, quiet: true },
    );
    const seconds = (Date.now() - started) / 1000;
    const load = loadavg()[0].toFixed(1);
    await stopBusy(workers);
    let passed = 0;
    let failed = [];
    try {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      passed = json.numPassedTests ?? 0;
      failed = failedTestNames(json, cwd);
    } catch {
      failed = [`${suite}: no report (${problem ?? 'the run ended without one'})`];
    }
    if (!ok && failed.length === 0)
      failed = [`${suite}: the run failed with no failed test (${problem ?? 'see its output'})`];
    for (const name of failed) failures.set(`${suite}: ${name}`, (failures.get(`${suite}: ${name}`) ?? 0) + 1);
    const row = {
      invocation,
      at: new Date(started).toISOString(),
      commit,
      run,
      busy,
      suite,
      passed,
      failed,
      seconds: Math.round(seconds),
      load,
    };
    rows.push(row);
    appendFileSync(history, `${JSON.stringify(row)}\n`);
    console.log(
      `${suite}: ${passed} passed, ${failed.length} failed in ${seconds.toFixed(0)} s (load average ${load})`,
    );
  }
}

console.log('\n=== runs under load');
printRuns(rows.map((r) => ({ ...r, number: r.run })));
console.log(`\n=== tests that failed at least once in ${runs} run(s): ${failures.size}`);
printFailures(failures);
process.exit(failures.size > 0 ? 1 : 0);

/** The figures of suite runs (history rows with the run's number), one line each. */
function printRuns(suiteRuns) {
  console.log('run  started               commit     busy  suite      passed  failed  seconds  load');
  for (const r of suiteRuns) {
    console.log(
      `${String(r.number).padEnd(4)} ${r.at.slice(0, 19).padEnd(21)} ${r.commit.padEnd(10)} ${String(r.busy).padStart(4)}  ${r.suite.padEnd(10)} ${String(r.passed).padStart(6)}  ${String(r.failed.length).padStart(6)}  ${String(r.seconds).padStart(7)}  ${r.load}`,
    );
  }
}

/** Each test that failed (`suite: file › name`) with how often, the most frequent first. */
function printFailures(counts) {
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${count}×  ${name}`);
}

/** The commit checked out (with `+` when the tree has changes), or `unknown` outside git. */
function currentCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${head}+` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * Prints the last `last` whole runs of the history (a run of one invocation that ran every suite) with
 * their figures and the tests that failed in them; 1 when any failed or fewer runs were recorded.
 */
function report(last) {
  if (!Number.isInteger(last) || last < 1) {
    console.error('usage: --report [--last N] (1 or more)');
    return 2;
  }
  const lines = existsSync(history) ? readFileSync(history, 'utf8').split('\n').filter(Boolean) : [];
  /** The history's rows by run (invocation and its run number), in order. */
  const byRun = new Map();
  for (const line of lines) {
    const row = JSON.parse(line);
    const key = `${row.invocation}#${row.run}`;
    byRun.set(key, [...(byRun.get(key) ?? []), row]);
  }
  const whole = [...byRun.values()].filter((suiteRows) =>
    Object.keys(SUITES).every((suite) => suiteRows.some((r) => r.suite === suite)),
  );
  const chosen = whole.slice(-last);
  console.log(`=== the last ${chosen.length} whole run(s) under load (of ${whole.length} recorded in ${history})`);
  printRuns(chosen.flatMap((suiteRows, index) => suiteRows.map((r) => ({ ...r, number: index + 1 }))));
  const failed = new Map();
  for (const r of chosen.flat()) {
    for (const name of r.failed) failed.set(`${r.suite}: ${name}`, (failed.get(`${r.suite}: ${name}`) ?? 0) + 1);
  }
  console.log(`\n=== tests that failed at least once in these runs: ${failed.size}`);
  printFailures(failed);
  if (chosen.length < last) console.log(`\n${last - chosen.length} more whole run(s) needed for ${last}`);
  return failed.size > 0 || chosen.length < last ? 1 : 0;
}
