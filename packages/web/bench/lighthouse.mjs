#!/usr/bin/env node
/**
 * Lighthouse 12, with its desktop preset and its default (mobile) preset, against the built server
 * with its demo data, in Debian's Chromium:
 * the sign-in page as a first visitor sees it, then the overview (/) of a signed-in administrator
 * (signed in through the UI, password and authenticator code, in the same browser; Lighthouse keeps
 * the session with disableStorageReset, and with it the service worker and HTTP cache the sign-in
 * filled, as a signed-in user has them; --cold clears those so the overview loads from the network).
 * Prints the category scores and FCP, LCP, TBT and CLS per page and preset, the audits that cost
 * points where a score is below its target, and exits 1 when, with the desktop preset,
 * accessibility < 100 or best practices < 95 on either page, or the best of a page's runs scores
 * performance < 90 (SEO is printed for information). Its performance target (95) is printed, not
 * enforced: the desktop preset does not slow the CPU, so nothing calibrates it to a slow or busy host
 * (the overview's median ranged 89 to 100 on 2-core VMs, single runs 85 to 100). The floor holds the
 * best run rather than the median: a slow or busy host only adds time, so the fastest run is the
 * closest to what the page itself costs, and a regression lowers every run. With the mobile preset
 * (a mid-range phone: slow 4G and a CPU slowdown of 4x on a high-end desktop, less on a slower host,
 * see host-speed.mjs; simulated) it exits 1 when accessibility < 100, best practices < 95 or the best
 * run's performance < 70. Its performance target (90) is printed, not enforced: on a 2-core VM the
 * host's speed drifts within a run (each run's own BenchmarkIndex is printed beside its score), and 70
 * is a floor against gross regressions only. The measured scores, and why the floors are where they
 * are, are in README.md (Budgets).
 * Each page is measured --runs times (5 by default) and the run with the median performance score
 * counts, as Lighthouse advises against the variance of a single run.
 * Usage: node bench/lighthouse.mjs [--runs 5] [--cold] [--out dir] (writes
 * lighthouse-<page>-<preset>.report.html and .json of the counted runs there)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { defaultConfig, desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, completeQrSetup, submitPassword } from '../scripts/browser.mjs';
import { chromiumPath, endOnError, requireChromium, startProcess } from '../scripts/processes.mjs';
import { DEMO_PASSWORD, startServer } from '../scripts/start-server.mjs';
import { benchmarkIndex, mobileCpuSlowdown, REFERENCE_BENCHMARK_INDEX } from './host-speed.mjs';

endOnError('lighthouse');

/**
 * The targets of each preset and which of them fail the run (`enforced`); the others are printed, their
 * misses as info, and fail the run only below their `floor`. Mobile performance varies from run to run
 * more than its margin (see above); its accessibility and best practices do not depend on timing and
 * are held.
 */
const PRESETS = [
  {
    name: 'desktop',
    config: desktopConfig,
    targets: { performance: 95, accessibility: 100, 'best-practices': 95 },
    enforced: ['accessibility', 'best-practices'],
    floors: { performance: 90 },
  },
  {
    name: 'mobile',
    config: defaultConfig,
    calibrated: true,
    targets: { performance: 90, accessibility: 100, 'best-practices': 95 },
    enforced: ['accessibility', 'best-practices'],
    floors: { performance: 70 },
  },
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const ADMIN = 'admin@contoso.example';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    runs: { type: 'string', default: '5' },
    cold: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const out = values.out ? resolve(values.out) : undefined;
if (out) mkdirSync(out, { recursive: true });

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Debian's Chromium with a DevTools port for Lighthouse and Playwright, on a fresh profile. */
async function launchChromium() {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  const browser = await startProcess(
    'Chromium',
    chromiumPath(),
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group, stopped whole (renderers and helpers too), as Playwright does.
      detached: true,
      exitSignal: 'SIGKILL',
      cleanup: () => rmSync(profile, { recursive: true, force: true }),
    },
  );
  let stderr = '';
  browser.child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (browser.child.exitCode !== null) throw new Error(`chromium exited with ${browser.child.exitCode}: ${stderr}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`chromium did not open its DevTools port within 30 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await browser.stop();
    throw error;
  }
  return { port, stop: browser.stop };
}

/** Lighthouse's CPU slowdown for the mobile preset on this host (host-speed.mjs), set once measured. */
let cpuSlowdown = 4;

async function audit(name, preset, url, port, pageFlags = {}) {
  const flags = preset.calibrated ? { ...pageFlags, throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : pageFlags;
  // Lighthouse now and then fails to record a trace (NO_NAVSTART and the like): such a run is
  // measured again, up to twice, and only a third failure in a row stops the benchmark.
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(
      url,
      { port, output: ['json', 'html'], logLevel: 'error', onlyCategories: CATEGORIES, ...flags },
      preset.config,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr, report } = result;
    if (lhr.runtimeError) {
      const message = `Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
      if (attempt >= 3) throw new Error(message);
      console.log(`${message} (run again)`);
      continue;
    }
    // The page Lighthouse measured must be the one asked for (no redirect to /signin for the overview).
    const finalUrl = new URL(lhr.finalDisplayedUrl ?? lhr.finalUrl);
    return { name, preset, url, finalPath: finalUrl.pathname, lhr, report };
  }
}

const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

/** The audits of a category that lost points, most weighty first. */
function losses(lhr, id) {
  return lhr.categories[id].auditRefs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
    .filter(({ ref }) => ref.weight > 0 || id === 'performance')
    .sort((a, b) => b.ref.weight - a.ref.weight)
    .map(({ ref, audit }) => {
      const details = (audit.details?.items ?? [])
        .slice(0, 3)
        .map((item) => item.node?.snippet ?? item.node?.selector ?? item.url ?? item.source?.url ?? '')
        .filter(Boolean)
        .map((text) => String(text).slice(0, 160));
      return `${audit.title} (${ref.id}, score ${Math.round(audit.score * 100)}${audit.displayValue ? `, ${audit.displayValue}` : ''}${ref.weight > 0 ? `, weight ${ref.weight}` : ''})${details.length > 0 ? `\n        ${details.join('\n        ')}` : ''}`;
    });
}

/** Leaves the session (cookies, local storage) but drops the HTTP cache, the service worker and its caches. */
async function clearCaches(context, origin) {
  // A page of the origin that does not start the app (the service worker leaves this path alone).
  const page = await context.newPage();
  await page.goto(`${origin}/app-config.json`);
  await page.evaluate(async () => {
    const registrations = (await navigator.serviceWorker?.getRegistrations()) ?? [];
    await Promise.all(registrations.map((registration) => registration.unregister()));
    await Promise.all((await caches.keys()).map((key) => caches.delete(key)));
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.close();
}

/** The run with the median performance score of several (Lighthouse's advice against noise). */
function median(runs) {
  const sorted = [...runs].sort((a, b) => score(a.lhr, 'performance') - score(b.lhr, 'performance'));
  return {
    ...sorted[Math.floor((sorted.length - 1) / 2)],
    performanceScores: runs.map((r) => score(r.lhr, 'performance')),
    bestPerformance: Math.max(...runs.map((r) => score(r.lhr, 'performance'))),
    benchmarkIndexes: runs.map((r) => Math.round(r.lhr.environment.benchmarkIndex ?? 0)),
  };
}

// Chromium is checked and started first: without it the benchmark stops before the server starts.
requireChromium();
const browser = await launchChromium();
let server;
const results = [];
let failed = false;
let hostIndex = 0;
try {
  // The host's speed first, on an idle browser: it sets the mobile preset's CPU slowdown.
  const probe = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  try {
    const page = await probe.contexts()[0].newPage();
    hostIndex = await benchmarkIndex(page);
    await page.close();
  } finally {
    await probe.close();
  }
  cpuSlowdown = mobileCpuSlowdown(hostIndex);
  // The pages as a newcomer meets them after `pnpm start`: the demo world with its history.
  server = await startServer({ history: true });
  for (const preset of PRESETS) {
    const signin = [];
    for (let i = 0; i < runs; i++) signin.push(await audit('signin', preset, `${server.url}/signin`, browser.port));
    results.push(median(signin));
  }

  // Sign the demo administrator in through the UI in the same browser (its default context, where
  // Lighthouse opens its tabs); Lighthouse then keeps the session (disableStorageReset), and with it
  // what a signed-in user has: the service worker and the HTTP cache. --cold drops those before each
  // run, so the overview loads from the network like the sign-in page.
  const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  try {
    const context = cdpBrowser.contexts()[0];
    const page = await context.newPage();
    await page.goto(`${server.url}/signin`);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await completeQrSetup(page);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('user-menu').waitFor();
    await page.close();
    for (const preset of PRESETS) {
      const overview = [];
      for (let i = 0; i < runs; i++) {
        if (values.cold) await clearCaches(context, server.url);
        overview.push(await audit('overview', preset, `${server.url}/`, browser.port, { disableStorageReset: true }));
      }
      results.push(median(overview));
    }
  } finally {
    // Disconnects Playwright only: the browser it did not launch keeps running.
    await cdpBrowser.close();
  }
} finally {
  await browser.stop();
  await server?.stop();
}

console.log(
  `Lighthouse ${results[0].lhr.lighthouseVersion}, ${PRESETS.map((p) => p.name).join(' and ')} presets, median of ${runs} run(s) per page; the overview ${
    values.cold ? 'without' : 'with'
  } the service worker and HTTP cache the sign-in left (${results[0].lhr.environment.hostUserAgent})`,
);
console.log(
  `host BenchmarkIndex ${hostIndex} (Lighthouse's 4x assumes about ${REFERENCE_BENCHMARK_INDEX}): mobile CPU slowdown ${cpuSlowdown}x`,
);
const header = [
  'page',
  'preset',
  ...CATEGORIES,
  'FCP',
  'LCP',
  'TBT',
  'CLS',
  'performance of each run',
  'BenchmarkIndex of each run',
];
const rows = results.map(({ name, preset, lhr, performanceScores, benchmarkIndexes }) => [
  name,
  preset.name,
  ...CATEGORIES.map((id) => String(score(lhr, id))),
  lhr.audits['first-contentful-paint'].displayValue,
  lhr.audits['largest-contentful-paint'].displayValue,
  lhr.audits['total-blocking-time'].displayValue,
  lhr.audits['cumulative-layout-shift'].displayValue,
  performanceScores.join(' '),
  benchmarkIndexes.join(' '),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)) + 2);
for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join(''));

for (const { name, preset, url, finalPath, lhr, bestPerformance } of results) {
  const label = `${name} (${preset.name})`;
  const expected = new URL(url).pathname;
  if (finalPath !== expected) {
    console.log(`FAIL ${label}: Lighthouse measured ${finalPath}, not ${expected}`);
    failed = true;
  }
  for (const [id, target] of Object.entries(preset.targets)) {
    const value = score(lhr, id);
    if (value >= target) continue;
    const floor = preset.floors?.[id];
    // The floor holds the best run (performance only has floors): a busy or slow host only ever
    // adds time, so the fastest of the runs is the closest to what the page itself costs, and a
    // regression lowers every run.
    const belowFloor = floor !== undefined && bestPerformance < floor;
    const enforced = preset.enforced.includes(id) || belowFloor;
    if (enforced) failed = true;
    const held = floor === undefined ? ' (not enforced)' : ` (best run ${bestPerformance}, held at ${floor})`;
    console.log(
      belowFloor
        ? `FAIL ${label}: ${lhr.categories[id].title} ${value}, best run ${bestPerformance} < ${floor}`
        : `${enforced ? 'FAIL' : 'info'} ${label}: ${lhr.categories[id].title} ${value} < ${target}${enforced ? '' : held}`,
    );
    for (const line of losses(lhr, id)) console.log(`      - ${line}`);
  }
  if (score(lhr, 'seo') < 100) {
    console.log(`info ${label}: SEO ${score(lhr, 'seo')}`);
    for (const line of losses(lhr, 'seo')) console.log(`      - ${line}`);
  }
}
if (out) {
  for (const { name, preset, report } of results) {
    const [json, html] = Array.isArray(report) ? report : [report];
    writeFileSync(join(out, `lighthouse-${name}-${preset.name}.report.json`), json);
    if (html) writeFileSync(join(out, `lighthouse-${name}-${preset.name}.report.html`), html);
  }
  console.log(`reports: ${out}/lighthouse-{signin,overview}-{desktop,mobile}.report.{html,json}`);
}
console.log(failed ? 'Lighthouse targets missed' : 'Lighthouse targets met');
process.exit(failed ? 1 : 0);
