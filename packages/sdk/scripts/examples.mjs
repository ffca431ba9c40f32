#!/usr/bin/env node
/**
 * Runs every script of examples/ against a real portal: the built server (packages/server/dist) on
 * 127.0.0.1 and a free port, in a temporary data directory, in demo mode with the built-in Microsoft
 * 365 simulator. It enrols the demo administrator's authenticator (the portal's QR setup, through the
 * SDK), runs each example as a child process with the server URL and credentials in its environment,
 * stops the server (also on failure, a timeout or Ctrl-C) and prints `SDK examples: N of M ran`.
 * Exits 1 when any example fails. Needs `pnpm build` first (the SDK and the server).
 *
 *   node scripts/examples.mjs [name-filter]
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient } from '@compliance-portal/sdk';
import { DEMO_ADMIN, enrol, startDemoPortal, stopWithProcess } from './demo-portal.mjs';

const sdkRoot = resolve(import.meta.dirname, '..');
const examplesDir = join(sdkRoot, 'examples');
/** Examples run in this order (the rest after them, by name): sign-in first, while its code is fresh. */
const ORDER = ['sign-in.mjs', 'backup-and-follow.mjs', 'list-tenants-and-jobs.mjs', 'download-report.mjs'];
const EXAMPLE_TIMEOUT_MS = 90_000;

const filter = process.argv[2];
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.mjs') && (!filter || name.includes(filter)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
function rank(name) {
  const index = ORDER.indexOf(name);
  return index < 0 ? ORDER.length : index;
}

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs a child to its end, killing it after `timeoutMs`; its output goes through, indented. */
function runChild(args, env, timeoutMs) {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: sdkRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const indent = (sink) => (chunk) => sink.write(chunk.toString().replace(/^(?=.)/gm, '    '));
    child.stdout.on('data', indent(process.stdout));
    child.stderr.on('data', indent(process.stderr));
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      done({ ok: false, problem: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (timedOut) done({ ok: false, problem: `timed out after ${timeoutMs / 1000} s` });
      else done({ ok: code === 0, problem: code === 0 ? undefined : `ended with ${code ?? signal}` });
    });
  });
}

const children = new Set();
let portal;

/** Stops the server and any example still running. */
async function stopAll() {
  for (const child of children) child.kill('SIGKILL');
  const running = portal;
  portal = undefined;
  await running?.stop();
}

// Ended from outside: the server and examples go too, never left behind.
stopWithProcess('SDK examples', stopAll, children);

const results = [];
let failure;
try {
  if (examples.length === 0) throw new Error(`no examples${filter ? ` matching ${filter}` : ''} in ${examplesDir}`);
  portal = await startDemoPortal('portal-sdk-examples-');
  console.log(`SDK examples: portal at ${portal.url} (demo mode, started in ${seconds(started)})`);
  // The demo administrator's first sign-in, through the QR setup; sign-in.mjs then signs in with the
  // current step's code, still unused.
  const { key, token } = await enrol(
    createClient({ origin: portal.url, apiKey: portal.apiKey }),
    DEMO_ADMIN,
    portal.password,
  );
  const downloads = join(portal.dataDir, 'downloads');
  const env = {
    ...process.env,
    PORTAL_URL: portal.url,
    PORTAL_API_KEY: portal.apiKey,
    PORTAL_EMAIL: DEMO_ADMIN,
    PORTAL_PASSWORD: portal.password,
    PORTAL_TOTP_SECRET: key,
    PORTAL_TOKEN: token,
    PORTAL_DOWNLOAD_DIR: downloads,
  };
  for (const name of examples) {
    const since = Date.now();
    console.log(`\n--- ${name}`);
    const result = await runChild([join(examplesDir, name)], env, EXAMPLE_TIMEOUT_MS);
    results.push({ name, ...result, took: seconds(since) });
    console.log(`--- ${name}: ${result.ok ? 'ok' : `FAILED (${result.problem})`} in ${seconds(since)}`);
  }
} catch (error) {
  failure = error;
} finally {
  await stopAll();
}

const ran = results.filter((r) => r.ok).length;
if (failure) console.error(`\nSDK examples: ${failure instanceof Error ? failure.message : String(failure)}`);
for (const r of results.filter((result) => !result.ok)) console.error(`SDK examples: ${r.name} failed: ${r.problem}`);
console.log(`\nSDK examples: ${ran} of ${examples.length} ran (${seconds(started)})`);
process.exit(failure || ran < examples.length ? 1 : 0);
