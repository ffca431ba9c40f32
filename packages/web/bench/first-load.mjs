#!/usr/bin/env node
/**
 * What a visitor loads before the sign-in form is usable, measured in Debian's Chromium against the
 * built server (as `pnpm start` runs it): JavaScript bytes on the wire (compressed as sent), the
 * largest chunk of the build, and the time from navigation to a usable email field, cold and warm.
 * Usage: node bench/first-load.mjs [--runs 10] [--url http://host:port]
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../scripts/browser.mjs';
import { endOnError, requireChromium } from '../scripts/processes.mjs';
import { startServer } from '../scripts/start-server.mjs';

endOnError('first-load');

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, url: { type: 'string' } } });
const runs = Number(values.runs);

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function load(context) {
  const page = await context.newPage();
  const requests = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') requests.push(request);
  });
  const started = performance.now();
  await page.goto(`${server.url}/signin`);
  const email = page.getByLabel('Email address');
  await email.waitFor({ state: 'visible' });
  await email.fill('probe@example.com');
  const ms = performance.now() - started;
  // The sizes are asked of the browser, so they are read while the page is still open.
  const scripts = await Promise.all(
    requests.map(async (request) => {
      const sizes = await request.sizes();
      return { url: request.url(), bytes: sizes.responseBodySize, headers: sizes.responseHeadersSize };
    }),
  );
  await page.close();
  return { ms, scripts };
}

// Chromium is checked and started first: without it the benchmark stops before the server starts.
requireChromium();
const browser = await launchBrowser();
let server;
try {
  server = values.url ? { url: values.url, stop: async () => {} } : await startServer();
  const cold = [];
  let firstScripts = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const { ms, scripts } = await load(context);
    cold.push(ms);
    if (i === 0) firstScripts = scripts;
    await context.close();
  }
  const warmContext = await browser.newContext();
  await load(warmContext);
  const warm = [];
  for (let i = 0; i < runs; i++) warm.push((await load(warmContext)).ms);
  await warmContext.close();

  const wire = firstScripts.reduce((sum, s) => sum + s.bytes, 0);
  const dist = resolve(import.meta.dirname, '..', 'dist', 'assets');
  const chunks = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({
      file: f,
      raw: statSync(join(dist, f)).size,
      gz: statSync(join(dist, `${f}.gz`), { throwIfNoEntry: false })?.size,
    }))
    .sort((a, b) => b.raw - a.raw);
  cold.sort((a, b) => a - b);
  warm.sort((a, b) => a - b);

  console.log(`server: ${server.url}`);
  console.log(`JavaScript before the sign-in form is usable: ${firstScripts.length} files, ${kb(wire)} on the wire`);
  console.log(
    `largest chunk: ${chunks[0]?.file} ${kb(chunks[0]?.raw ?? 0)} (${kb(chunks[0]?.gz ?? 0)} gzip); ${chunks.length} chunks in the build`,
  );
  console.log(
    `navigation to a usable sign-in form, cold cache (${runs} runs): median ${percentile(cold, 50).toFixed(0)} ms, p90 ${percentile(cold, 90).toFixed(0)} ms`,
  );
  console.log(
    `navigation to a usable sign-in form, warm cache (${runs} runs): median ${percentile(warm, 50).toFixed(0)} ms, p90 ${percentile(warm, 90).toFixed(0)} ms`,
  );
} finally {
  await browser.close();
  await server?.stop();
}
