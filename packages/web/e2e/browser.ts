/** Chromium (Debian's) through playwright-core, and the steps of signing in that several tests share. */
import { createHmac } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

export const baseUrl = () => inject('baseUrl');

/** RFC 4648 base32 without padding, as the shown setup key is written. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
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
export function totpAt(key: string, step: number): string {
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
  private lastStep = 0;
  constructor(readonly key: string) {}

  async nextCode(): Promise<string> {
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

export async function submitPassword(page: Page, email: string, password: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** On /qr-setup: reads the manual key, confirms with a code, keeps the recovery codes and goes on. */
export async function completeQrSetup(
  page: Page,
  onRecoveryCodes?: () => Promise<void>,
): Promise<{ authenticator: Authenticator; recoveryCodes: string[] }> {
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

export async function submitCode(page: Page, authenticator: Authenticator) {
  await page.waitForURL(/\/code-verification/);
  await page.getByLabel('6-digit code').fill(await authenticator.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
}

export async function logOutThroughMenu(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL(/\/signin/);
}

/** WCAG 2.1 A and AA violations axe-core finds on the page as it is now, one line each. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Colours are only final once enter animations (fades) have ended.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .map((n) => `${n.target.join(' ')} ${n.any.map((check) => check.message).join('; ')}`)
        .join(' | ')}`,
  );
}
