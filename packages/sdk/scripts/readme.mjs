#!/usr/bin/env node
/**
 * Runs the code blocks of the SDK's README as a newcomer copies them: each program block (its fence
 * names a file, such as ```` ```js quickstart.mjs ````) is saved under that name in a fresh project,
 * which has only the packed SDK installed (`pnpm pack`, then `npm install --offline` of the tarball;
 * `msw` linked from this workspace for the blocks that import it, as a reader would install it), and
 * run there with Node, unchanged, against a portal of its own (the built server in demo mode, see
 * demo-portal.mjs). The values a block reads come from the environment variables the README names:
 * PORTAL_URL, PORTAL_API_KEY, and for a block that signs in PORTAL_EMAIL, PORTAL_PASSWORD and (for a
 * service's sign-in) PORTAL_TOTP_SECRET.
 *
 * The test signs in as the README's reader would: blocks that ask for PORTAL_EMAIL get the demo
 * administrator (the first meets it without an authenticator and does the QR setup; the next sign in
 * with a code), blocks that read PORTAL_TOTP_SECRET the demo partner, whose authenticator the test
 * sets up first. When a block asks for a code (a prompt ending in "…code…: "), the test answers as the
 * person's authenticator app: the current code of the key the block printed (its otpauth URI) or of
 * the key it set up. A code works once, so before a code of an account whose current one was used,
 * it waits for the next 30 seconds, as the README tells a person to.
 *
 * Blocks marked `fragment` or `browser`, and `sh` blocks, are not run; any other block fails the
 * run, as does a program that fails or runs past 30 seconds. Prints each block's output and
 * `SDK README: N of M programs ran`; exits 1 on any failure. Needs `pnpm build` first (SDK and server).
 *
 *   node scripts/readme.mjs
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@compliance-portal/sdk';
import {
  currentStep,
  DEMO_ADMIN,
  DEMO_PARTNER,
  enrol,
  startDemoPortal,
  stopWithProcess,
  totpAt,
} from './demo-portal.mjs';
import { classify, codeBlocks } from './readme-blocks.mjs';

const sdkRoot = resolve(import.meta.dirname, '..');
const BLOCK_TIMEOUT_MS = 30_000;
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const blocks = codeBlocks(readFileSync(join(sdkRoot, 'README.md'), 'utf8')).map((block) => ({
  ...block,
  use: classify(block),
}));
const programs = blocks.filter((block) => block.use.kind === 'run');
const problems = blocks
  .filter((block) => block.use.kind === 'unmarked')
  .map(
    (block) =>
      `README line ${block.line}: \`\`\`${block.info} is neither a program (a .mjs or .cjs file name) nor marked fragment, browser or sh`,
  );
const names = programs.map((block) => block.use.file);
for (const name of new Set(names)) {
  if (names.indexOf(name) !== names.lastIndexOf(name)) problems.push(`README: two programs are named ${name}`);
}

/** The accounts blocks sign in with: the enrolled authenticator key, and the last 30-second step used. */
const accounts = new Map([
  [DEMO_ADMIN, { key: undefined, lastStep: 0 }],
  [DEMO_PARTNER, { key: undefined, lastStep: 0 }],
]);

/** Waits until the account's next code is one not used yet (the server takes each step once). */
async function untilFresh(account) {
  while (currentStep() <= account.lastStep) {
    const wait = (account.lastStep + 1) * 30_000 - Date.now() + 250;
    console.log(`    (the test waits ${(wait / 1000).toFixed(0)} s for a code not used yet)`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** The code an authenticator app shows now, for the account; marks its step used. */
async function codeOf(account) {
  await untilFresh(account);
  const step = currentStep();
  account.lastStep = step;
  return totpAt(account.key, step);
}

const children = new Set();
let portal;
let project;

async function stopAll() {
  for (const child of children) child.kill('SIGKILL');
  const running = portal;
  portal = undefined;
  await running?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
  project = undefined;
}
stopWithProcess('SDK README', stopAll, children);

/** A fresh project with the packed SDK installed from its tarball, and nothing from any registry. */
async function freshProject() {
  const run = promisify(execFile);
  const dir = mkdtempSync(join(tmpdir(), 'portal-sdk-readme-project-'));
  project = dir;
  await run('pnpm', ['pack', '--pack-destination', dir], { cwd: sdkRoot });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack made no tarball');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'readme-check', private: true }, null, 2)}\n`);
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], {
    cwd: dir,
  });
  if (programs.some((block) => /from 'msw(\/[\w-]+)?'|require\('msw/.test(block.code))) {
    // The testing entry's peer dependency, which a reader installs beside the SDK.
    symlinkSync(realpathSync(join(sdkRoot, 'node_modules', 'msw')), join(dir, 'node_modules', 'msw'), 'dir');
  }
  return dir;
}

/** Runs one program block in the project; answers its code prompts as an authenticator app would. */
function runProgram(block, env, account) {
  const file = join(project, block.use.file);
  writeFileSync(file, block.code);
  return new Promise((done) => {
    const child = spawn(process.execPath, [file], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    let timedOut = false;
    let failure;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, BLOCK_TIMEOUT_MS);
    const indent = (text) => text.replace(/^(?=.)/gm, '    ');
    let unanswered = '';
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString();
      process.stdout.write(indent(text));
      unanswered += text;
      const uri = /otpauth:\/\/\S*?[?&]secret=([A-Z2-7]+)/.exec(unanswered);
      if (uri && account) account.key = uri[1];
      if (!/code[^\n]*:\s?$/i.test(unanswered)) return;
      unanswered = '';
      if (!account?.key) {
        failure = 'it asks for a code, but printed no authenticator key and has no account set up';
        child.kill('SIGKILL');
        return;
      }
      void codeOf(account).then((code) => {
        process.stdout.write(`${code}  (typed by the test)\n`);
        child.stdin.write(`${code}\n`);
      });
    });
    child.stderr.on('data', (chunk) => process.stderr.write(indent(chunk.toString())));
    child.stdin.on('error', () => {});
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      done({ ok: false, problem: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (failure) done({ ok: false, problem: failure });
      else if (timedOut) done({ ok: false, problem: `timed out after ${BLOCK_TIMEOUT_MS / 1000} s` });
      else done({ ok: code === 0, problem: code === 0 ? undefined : `ended with ${code ?? signal}` });
    });
  });
}

const results = [];
let failure;
let starting;
try {
  if (problems.length > 0) throw new Error(problems.join('\n'));
  // The portal starts while the project is made: the server's start is the longest wait of the run.
  starting = startDemoPortal('portal-sdk-readme-').then((started) => {
    portal = started;
    return started;
  });
  starting.catch(() => {});
  project = await freshProject();
  console.log(`SDK README: a fresh project with the packed SDK in ${seconds(started)}`);
  await starting;
  console.log(`SDK README: portal at ${portal.url} (demo mode, ready after ${seconds(started)})`);
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PORTAL_')));
  for (const block of programs) {
    const since = Date.now();
    const signsIn = block.code.includes('PORTAL_EMAIL');
    const service = block.code.includes('PORTAL_TOTP_SECRET');
    const email = service ? DEMO_PARTNER : DEMO_ADMIN;
    const account = signsIn ? accounts.get(email) : undefined;
    if (service && account && !account.key) {
      const enrolled = await enrol(createClient({ origin: portal.url, apiKey: portal.apiKey }), email, portal.password);
      account.key = enrolled.key;
      account.lastStep = currentStep() - 1;
    }
    // A block that computes its code itself does so as it starts.
    if (service && account) await untilFresh(account);
    const env = {
      ...base,
      PORTAL_URL: portal.url,
      PORTAL_API_KEY: portal.apiKey,
      ...(signsIn ? { PORTAL_EMAIL: email, PORTAL_PASSWORD: portal.password } : {}),
      ...(service && account?.key ? { PORTAL_TOTP_SECRET: account.key } : {}),
    };
    console.log(
      `\n--- README line ${block.line}: ${block.use.file} (${block.use.module}${signsIn ? `, as ${email}` : ''})`,
    );
    const result = await runProgram(block, env, account);
    if (service && account) account.lastStep = Math.max(account.lastStep, currentStep());
    results.push({ name: block.use.file, ...result });
    console.log(`--- ${block.use.file}: ${result.ok ? 'ok' : `FAILED (${result.problem})`} in ${seconds(since)}`);
  }
} catch (error) {
  failure = error;
} finally {
  // A failure while the portal was still starting: it is stopped once started, not left running.
  await starting?.catch(() => {});
  await stopAll();
}

const ran = results.filter((r) => r.ok).length;
const skipped = blocks.filter((block) => block.use.kind === 'skip');
const counts = new Map();
for (const block of skipped) counts.set(block.use.why, (counts.get(block.use.why) ?? 0) + 1);
const byWhy = [...counts].map(([why, count]) => `${why} ${count}`).join(', ');
if (failure) console.error(`\nSDK README: ${failure instanceof Error ? failure.message : String(failure)}`);
for (const r of results.filter((result) => !result.ok)) console.error(`SDK README: ${r.name} failed: ${r.problem}`);
console.log(
  `\nSDK README: ${ran} of ${programs.length} programs ran; ${skipped.length} blocks not run (${byWhy}) (${seconds(started)})`,
);
process.exit(failure || ran < programs.length ? 1 : 0);
