#!/usr/bin/env node
/**
 * A report of 100,000 account rows in Debian's headless Chromium against the built server on the
 * embedded database: the time from opening the report to its first rows on screen, and the time to
 * export the whole report to xlsx and to csv (every page read, the file written and downloaded).
 * Usage: node bench/report-100k.mjs [--rows 100000]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { completeQrSetup, launchBrowser, submitPassword } from '../scripts/browser.mjs';
import { endOnError, requireChromium } from '../scripts/processes.mjs';
import { DEMO_PASSWORD, startServer } from '../scripts/start-server.mjs';

endOnError('report-100k');

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' } } });
const rows = Number(values.rows);
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
  await (await startServer({ dataDir })).stop();
  const seedMs = await writeReport();
  browser = await launchBrowser();
  server = await startServer({ dataDir });
  const context = await browser.newContext({ viewport: { width: 1350, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
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

  const timeExport = async (button, extension) => {
    const started = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      page.getByRole('button', { name: button }).click(),
    ]);
    const path = await download.path();
    const ms = performance.now() - started;
    return { ms, bytes: statSync(path).size, file: download.suggestedFilename(), extension };
  };
  const xlsx = await timeExport('Export xlsx', 'xlsx');
  const csv = await timeExport('Export csv', 'csv');
  const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  console.log(`report of ${rows.toLocaleString('en')} account rows (written in ${(seedMs / 1000).toFixed(1)} s)`);
  console.log(`time to first rows after opening the report: ${firstRowsMs.toFixed(0)} ms`);
  console.log(`export to xlsx: ${(xlsx.ms / 1000).toFixed(1)} s, ${mb(xlsx.bytes)} (${xlsx.file})`);
  console.log(`export to csv: ${(csv.ms / 1000).toFixed(1)} s, ${mb(csv.bytes)} (${csv.file})`);
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
