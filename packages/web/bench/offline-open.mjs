#!/usr/bin/env node
/**
 * How fast the portal shows its saved data without a network, measured in Debian's Chromium against
 * the built server: the demo administrator signs in and opens the overview (its answer is saved in
 * IndexedDB, the service worker holds the app shell); then, --runs times, the browser goes offline
 * and reloads, and the time from the reload to the overview's figures and to the offline banner on
 * screen is taken (warm service worker). Prints each run, the median and the slowest.
 * Usage: node bench/offline-open.mjs [--runs 6]
 */
import { parseArgs } from 'node:util';
import { completeQrSetup, launchBrowser, submitPassword } from '../scripts/browser.mjs';
import { endOnError, requireChromium } from '../scripts/processes.mjs';
import { DEMO_PASSWORD, startServer } from '../scripts/start-server.mjs';

endOnError('offline-open');

const { values } = parseArgs({ options: { runs: { type: 'string', default: '6' } } });
const runs = Math.max(1, Number(values.runs));

// Chromium is checked and started first: without it the benchmark stops before the server starts.
requireChromium();
const browser = await launchBrowser();
let server;
try {
  server = await startServer();
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/signin`);
  await submitPassword(page, 'admin@contoso.example', DEMO_PASSWORD);
  await completeQrSetup(page);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByTestId('area-backup').waitFor();
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  // Saving is throttled to once a second, when the page is idle.
  await page.waitForTimeout(2500);

  const content = [];
  const banner = [];
  for (let run = 1; run <= runs; run++) {
    await context.setOffline(true);
    const started = Date.now();
    const reload = page.reload();
    const [figuresAt, bannerAt] = await Promise.all([
      page
        .getByTestId('area-backup')
        .waitFor()
        .then(() => Date.now() - started),
      page
        .getByTestId('offline-banner')
        .waitFor()
        .then(() => Date.now() - started),
    ]);
    await reload;
    content.push(figuresAt);
    banner.push(bannerAt);
    console.log(`run ${run}: saved overview on screen ${figuresAt} ms, offline banner ${bannerAt} ms`);
    await context.setOffline(false);
    await page.waitForTimeout(1500);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];
  console.log(
    `offline reload, warm service worker, ${runs} runs: saved overview median ${median(content)} ms (slowest ${Math.max(...content)} ms), offline banner median ${median(banner)} ms (slowest ${Math.max(...banner)} ms)`,
  );
} finally {
  await browser.close();
  await server?.stop();
}
