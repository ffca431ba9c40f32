/**
 * Debian's Chromium through playwright-core, an authenticator app, and the steps of signing in: shared
 * by the browser tests (e2e/browser.ts) and the benchmarks (bench/*.mjs).
 */
import { createHmac } from 'node:crypto';
import { chromium } from 'playwright-core';
import { chromiumPath, chromiumProblem } from './processes.mjs';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Playwright stops the browser it launched when this process ends. */
export async function launchBrowser() {
  const problem = chromiumProblem();
  if (problem) throw new Error(problem);
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
}

/** RFC 4648 base32 without padding, as the shown setup key is written. */
function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes = [];
  for (const char of text.replace(/[\s=-]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 6238 with SHA-1, 30 s steps, 6 digits: what an authenticator app shows. */
export function totpAt(key, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(key)).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * An authenticator for one account. The server takes each time step once and only later ones after
 * it, within two steps either side of now, so every code handed out is for a fresh step.
 */
export class Authenticator {
  lastStep = 0;
  constructor(key) {
    this.key = key;
  }

  async nextCode() {
    for (;;) {
      const current = Math.floor(Date.now() / 30_000);
      const step = Math.max(current - 1, this.lastStep + 1);
      if (step <= current + 2) {
        this.lastStep = step;
        return totpAt(this.key, step);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export async function submitPassword(page, email, password) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * As a person signs in: clicks into each field and types key by key, 20 ms apart, then clicks the
 * button (submitPassword fills each field at once).
 */
export async function typePassword(page, email, password) {
  for (const [label, text] of [
    ['Email address', email],
    ['Password', password],
  ]) {
    await page.getByLabel(label).click();
    await page.getByLabel(label).pressSequentially(text, { delay: 20 });
  }
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Opens /signin in a fresh page with the CPU slowed `cpu` times and waits a little: run by run the next
 * step starts at a different moment of the app's start (the prerendered page's takeover).
 */
export async function openSignInWhileLoading(page, run, cpu) {
  await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await page.goto('/signin', { waitUntil: run % 2 ? 'load' : 'commit' });
  await new Promise((r) => setTimeout(r, (run * 37) % 400));
}

/** On /qr-setup: reads the manual key, confirms with a code, keeps the recovery codes and goes on. */
export async function completeQrSetup(page, onRecoveryCodes) {
  await page.waitForURL(/\/qr-setup/);
  const key = (await page.getByTestId('manual-key').textContent())?.trim() ?? '';
  const authenticator = new Authenticator(key);
  await page.getByLabel('6-digit code').fill(await authenticator.nextCode());
  await page.getByRole('button', { name: 'Confirm' }).click();
  const list = page.getByTestId('recovery-codes');
  await list.waitFor();
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  await onRecoveryCodes?.();
  await page.getByTestId('recovery-saved').click();
  return { authenticator, recoveryCodes };
}

export async function submitCode(page, authenticator) {
  await page.waitForURL(/\/code-verification/);
  await page.getByLabel('6-digit code').fill(await authenticator.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
}
