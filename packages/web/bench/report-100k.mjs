#!/usr/bin/env node
/**
 * A report of 100,000 account rows in Debian's headless Chromium against the built server on the
 * embedded database: the time from opening the report to its first rows on screen, and the time to
 * export the whole report to xlsx and to csv (every page read, the file written and downloaded),
 * each the median of `--runs` exports, with the time spent reading the pages and the longest task the
 * page's main thread ran meanwhile (Chromium's long tasks: 50 ms or more), each next to its aim.
 * With --no-worker the page has no Worker, so the export writes on the main thread (the fallback).
 * --web-dir serves another build of the PWA than packages/web/dist. With --check it exits 1 when a
 * median exceeds its CI budget (a step of `pnpm test`): twice the aim, because on a 2-core machine the
 * same build's medians move by a quarter between runs (csv 1.18 s and 1.46 s in two idle runs), while
 * what the budget is to catch, going back to reading page by page or writing on the main thread,
 * costs several times the aim (csv 8.7 s, xlsx 13.0 s, a 1.5 s task before this work). The aims hold
 * for a host of Lighthouse's reference speed; on a slower one (its BenchmarkIndex measured in the
 * same browser, host-speed.mjs) the budgets grow in proportion (main's build on a 2-core host of
 * index 1,000 to 1,070: csv 3.8 s, xlsx 8.0 s).
 * Usage: node bench/report-100k.mjs [--rows 100000] [--runs 3] [--no-worker] [--web-dir dir] [--check]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { completeQrSetup, launchBrowser, submitPassword } from '../scripts/browser.mjs';
import { endOnError, requireChromium } from '../scripts/processes.mjs';
import { DEMO_PASSWORD, startServer } from '../scripts/start-server.mjs';
import { benchmarkIndex, REFERENCE_BENCHMARK_INDEX, slowerThanReference } from './host-speed.mjs';

endOnError('report-100k');

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'no-worker': { type: 'boolean', default: false },
    'web-dir': { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);
/** The aims of issue 21: click to file, and no main-thread task longer than 50 ms during an export. */
const AIM_MS = { csv: 1500, xlsx: 5000, longTask: 50 };
/** What --check fails on on a host `slower` times slower than the reference (see above). */
const budgetsMs = (slower) => ({
  csv: 2 * AIM_MS.csv * slower,
  xlsx: 2 * AIM_MS.xlsx * slower,
  longTask: 2 * AIM_MS.longTask * slower,
});
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const JOB_NAME = `Bench/${rows} accounts`;
// Without Chromium the benchmark stops before anything is written or started.
requireChromium();
const { openDatabase } = await import(resolve(import.meta.dirname, '../../server/dist/db/database.js'));

/** Writes the report straight into the stopped server's database; returns the milliseconds it took. */
async function writeReport() {
  const seedStarted = performance.now();
  const db = await openDatabase({ dataDir });
  const jobId = randomUUID();
  const runId = randomUUID();
  await db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, status, created_at, updated_at)
     values ($1, $2, $3, 'backup', 'onedrive', (select location_id from locations where tenant_id = $2 limit 1),
             $4, 'finished', now(), now())`,
    [jobId, TENANT, JOB_NAME, JSON.stringify({ sources: ['user-000001'], recurrence: null, retention: null })],
  );
  await db.query(
    `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished, items_done, bytes)
     values ($1, $2, $3, 'manual', 'finished', now(), now(), now() - interval '1 hour', now(), $4, $5)`,
    [runId, jobId, TENANT, rows * 250, rows * 1_000_000],
  );
  await db.query(
    // Named as the engine names a run's accounts when the run ends.
    `insert into job_run_sources (run_id, source_id, items, failed_items, bytes, failed, display_name)
     select $1, 'user-' || lpad(g::text, 6, '0'), g % 500, (g % 97 = 0)::int, g::bigint * 1000, false,
            'Account ' || lpad(g::text, 6, '0')
       from generate_series(1, $2::int) g`,
    [runId, rows],
  );
  await db.query(
    `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
     select $1, 'onedrive', 'user-' || lpad(g::text, 6, '0'), 'user', 'Account ' || lpad(g::text, 6, '0'),
            'user' || g || '@bench.example', now() + interval '1 day'
       from generate_series(1, $2::int) g`,
    [TENANT, rows],
  );
  await db.close();
  return performance.now() - seedStarted;
}

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-report-'));
let browser;
let server;
try {
  // First start: migrations and the demo world; then the report is written straight into the database.
  const webDir = values['web-dir'] ? resolve(values['web-dir']) : undefined;
  await (await startServer({ dataDir, webDir })).stop();
  const seedMs = await writeReport();
  browser = await launchBrowser();
  server = await startServer({ dataDir, webDir });
  const context = await browser.newContext({ viewport: { width: 1350, height: 900 }, acceptDownloads: true });
  // Long tasks of the page's main thread (50 ms and more), kept from the first script on.
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  if (values['no-worker']) await context.addInitScript(() => delete window.Worker);
  const page = await context.newPage();
  const hostIndex = await benchmarkIndex(page);
  const BUDGET_MS = budgetsMs(slowerThanReference(hostIndex));
  await page.goto(`${server.url}/signin`);
  await submitPassword(page, 'admin@contoso.example', DEMO_PASSWORD);
  await completeQrSetup(page);
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/dashboard');

  await page.goto(`${server.url}/backup-and-restore/reports`);
  const row = page.getByRole('row', { name: new RegExp(JOB_NAME) });
  await row.waitFor();
  const opened = performance.now();
  await row.click();
  await page.getByRole('cell', { name: 'Account 000001' }).waitFor();
  const firstRowsMs = performance.now() - opened;

  /** One export: click to downloaded file, the span of its page requests, and its longest main-thread task. */
  const timeExport = async (button) => {
    const reads = [];
    const onRequest = (request) => {
      if (/\/reporting\/[^/]+\/accounts\b/.test(request.url())) reads.push(request);
    };
    page.on('requestfinished', onRequest);
    const since = await page.evaluate(() => performance.now());
    const started = performance.now();
    const startedAt = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      page.getByRole('button', { name: button }).click(),
    ]);
    const path = await download.path();
    const ms = performance.now() - started;
    page.off('requestfinished', onRequest);
    const tasks = await page.evaluate(
      (from) => window.__longTasks.filter((t) => t.start + t.ms >= from).map((t) => ({ ...t, start: t.start - from })),
      since,
    );
    const timings = reads.map((r) => r.timing());
    const readMs = timings.length
      ? Math.max(...timings.map((t) => t.startTime + t.responseEnd)) - Math.min(...timings.map((t) => t.startTime))
      : 0;
    // The longest task, and whether it ran while pages were read or after (the file written, saved).
    const readEnd = timings.length ? Math.max(...timings.map((t) => t.startTime + t.responseEnd)) - startedAt : 0;
    const top = tasks.reduce((a, b) => (b.ms > a.ms ? b : a), { start: 0, ms: 0 });
    const longest = top.ms;
    const longestWhen = top.ms === 0 ? '' : top.start <= readEnd ? ' while reading' : ' after reading';
    // The server's share (request sent to first byte of the answer) and the page's share (between an
    // answer's end and the next request) of the reading.
    const serverMs = timings.reduce((sum, t) => sum + (t.responseStart - t.requestStart), 0);
    const gapMs = readMs - timings.reduce((sum, t) => sum + t.responseEnd, 0);
    // The button is enabled again once the export has ended.
    await page.getByRole('button', { name: button }).and(page.locator(':enabled')).waitFor();
    return {
      ms,
      readMs,
      serverMs,
      gapMs,
      requests: reads.length,
      longest,
      longestWhen,
      bytes: statSync(path).size,
      file: download.suggestedFilename(),
    };
  };
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const measure = async (button) => {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await timeExport(button));
    return {
      ...all[0],
      ms: median(all.map((r) => r.ms)),
      readMs: median(all.map((r) => r.readMs)),
      serverMs: median(all.map((r) => r.serverMs)),
      gapMs: median(all.map((r) => r.gapMs)),
      longest: median(all.map((r) => r.longest)),
      longestWhen: all.map((r) => `${r.longest.toFixed(0)} ms${r.longestWhen}`).join(', '),
      each: all.map((r) => (r.ms / 1000).toFixed(2)).join(', '),
    };
  };
  const xlsx = await measure('Export xlsx');
  const csv = await measure('Export csv');
  const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const line = (name, r, aim) =>
    `export to ${name} (median of ${runs}: ${r.each} s): ${s(r.ms)} (aim ${s(aim)}${r.ms <= aim ? '' : ', MISSED'}); ` +
    `reading ${r.requests} pages ${s(r.readMs)} (server ${s(r.serverMs)}, page between answers ${s(r.gapMs)}); longest main-thread task ${r.longest.toFixed(0)} ms (${r.longestWhen}) ` +
    `(aim ${AIM_MS.longTask} ms${r.longest <= AIM_MS.longTask ? '' : ', MISSED'}); ${mb(r.bytes)} (${r.file})`;
  console.log(`report of ${rows.toLocaleString('en')} account rows (written in ${(seedMs / 1000).toFixed(1)} s)`);
  if (values['no-worker']) console.log('without Worker: the export is written on the main thread');
  console.log(`time to first rows after opening the report: ${firstRowsMs.toFixed(0)} ms`);
  console.log(line('xlsx', xlsx, AIM_MS.xlsx));
  console.log(line('csv', csv, AIM_MS.csv));
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(
    `host BenchmarkIndex ${hostIndex} (reference ${REFERENCE_BENCHMARK_INDEX}): CI budgets csv ${s(BUDGET_MS.csv)}, xlsx ${s(BUDGET_MS.xlsx)}, longest task ${BUDGET_MS.longTask.toFixed(0)} ms`,
  );
  const missed = [
    xlsx.ms > BUDGET_MS.xlsx && 'xlsx time',
    csv.ms > BUDGET_MS.csv && 'csv time',
    xlsx.longest > BUDGET_MS.longTask && 'xlsx longest task',
    csv.longest > BUDGET_MS.longTask && 'csv longest task',
  ].filter(Boolean);
  if (values.check && missed.length) {
    console.error(`report-100k: CI budgets (twice the aims, scaled to this host) exceeded: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
