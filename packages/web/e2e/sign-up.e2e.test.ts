// @vitest-environment node
/**
 * From an empty portal to its first administrator, in the browser alone: a server started outside
 * demo mode (PORTAL_DEMO=off, no SMTP: mail goes to its outbox), sign-up on /signup, the confirmation
 * link read from the .eml in the outbox, the confirmation page, the first sign-in with the QR setup,
 * and the overview with its setup guide. Each screen is checked for layout and WCAG 2.1 A/AA at
 * 1440 and 390 px and written as screenshots in English and German to .reports/sign-up/.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { de } from '../src/i18n/de';
import { en, type Resources } from '../src/i18n/en';
import { completeQrSetup, layoutProblems, submitPassword, useBrowserSession } from './browser';

const session = useBrowserSession({ ownServer: { demo: false }, viewport: { width: 1440, height: 900 } });

const OWNER = 'owner@newco.example';
const PASSWORD = 'Newco-Passw0rd!';
const WIDTHS = [1440, 390] as const;
const SHOTS = resolve(import.meta.dirname, '..', '..', '..', '.reports', 'sign-up');

/**
 * The screen as it is now, in English and German, at 1440 and 390 px: written as screenshots, and
 * checked for sideways scrolling and WCAG 2.1 A/AA. The page is in English at 1440 px again afterwards.
 */
async function screens(page: Page, name: string, ready: (texts: Resources) => Promise<unknown>) {
  mkdirSync(SHOTS, { recursive: true });
  const problems: string[] = [];
  for (const [language, texts] of [
    ['en', en],
    ['de', de],
  ] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('language-switch').selectOption(language);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
    await ready(texts);
    for (const width of WIDTHS) {
      problems.push(...(await layoutProblems(page, `${name} (${language})`, { widths: [width], axeAt: [width] })));
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${language}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('language-switch').selectOption('en');
  expect(problems).toEqual([]);
}

/** Quoted-printable, as nodemailer writes a text part with long lines: soft breaks joined, =XX decoded. */
const quotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The confirmation link of the newest mail to `to` in the server's outbox (written after the answer). */
async function linkFromOutbox(dataDir: string, to: string): Promise<URL> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = (() => {
      try {
        return readdirSync(outbox).sort();
      } catch {
        return [];
      }
    })()
      .map((file) => readFileSync(join(outbox, file), 'utf8'))
      .filter((mail) => new RegExp(`^To: ${to}$`, 'm').test(mail));
    const mail = mails.at(-1);
    if (mail) {
      const at = mail.search(/\r?\n\r?\n/);
      const head = mail.slice(0, at);
      const body = mail.slice(at).trimStart();
      const text = /^Content-Transfer-Encoding: quoted-printable$/im.test(head) ? quotedPrintable(body) : body;
      const link = text.match(/https?:\/\/\S+\/confirm-email\?\S+/)?.[0];
      if (!link) throw new Error(`no confirmation link in the mail to ${to}:\n${mail}`);
      return new URL(link);
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${outbox}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * /signin as it paints before the app's script runs: a fresh page whose app scripts are refused, so
 * only the prerendered page and its boot script are there. Whether it offers sign-up.
 */
async function prerenderedOffer(): Promise<boolean> {
  const page = await session.newPage();
  await page.route(/\/assets\/(?!signin-boot-)[^/]+\.js$/, (route) => route.abort());
  await page.goto('/signin');
  await page.locator('form[data-prerendered]').waitFor();
  // The boot script asked for /app-config.json; its answer decides.
  await page.waitForLoadState('networkidle');
  const offered = await page.locator('[data-sign-up]').isVisible();
  await page.context().close();
  return offered;
}

describe('the first administrator of an empty portal', () => {
  it('is offered sign-up on /signin, prerendered and in the app', async () => {
    expect(await prerenderedOffer()).toBe(true);
    const { page } = session;
    await page.goto('/signin');
    const offer = page.getByRole('link', { name: en.auth.createAccount });
    await offer.waitFor();
    expect(await offer.getAttribute('href')).toBe('/signup');
    // The app has taken over (its form is not the prerendered one) and still offers it.
    await page.locator('form:not([data-prerendered])').waitFor();
    await offer.waitFor();
    await screens(page, '1-signin', (texts) => page.getByRole('link', { name: texts.auth.createAccount }).waitFor());
  });

  it('signs up on /signup and is told where the link went', async () => {
    const { page } = session;
    await page.getByRole('link', { name: en.auth.createAccount }).click();
    await page.waitForURL((url) => url.pathname === '/signup');
    await page.getByTestId('sign-up-form').waitFor();
    await screens(page, '2-signup', (texts) => page.getByRole('heading', { name: texts.signUp.title }).waitFor());
    await page.getByLabel(en.auth.email).fill(OWNER);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByLabel(en.auth.confirmPassword).fill(PASSWORD);
    await page.getByRole('button', { name: en.signUp.submit }).click();
    await page.waitForURL((url) => url.pathname === '/signup/check-mail');
    expect(await page.getByTestId('check-mail-address').textContent()).toBe(OWNER);
    await screens(page, '3-check-mail', (texts) =>
      page.getByRole('heading', { name: texts.signUp.checkMail.title }).waitFor(),
    );
  });

  it('is refused sign-in until the address is confirmed', async () => {
    const { page } = session;
    await page.getByRole('link', { name: en.auth.backToSignIn }).click();
    await page.waitForURL(/\/signin/);
    await submitPassword(page, OWNER, PASSWORD);
    await expect.poll(() => page.getByTestId('signin-error').textContent()).toBe(en.auth.emailNotConfirmed);
    expect(await page.getByRole('link', { name: en.auth.resendConfirmation }).getAttribute('href')).toBe(
      `/signup/check-mail?email=${encodeURIComponent(OWNER)}`,
    );
    await screens(page, '3b-signin-unconfirmed', (texts) =>
      page.getByRole('link', { name: texts.auth.resendConfirmation }).waitFor(),
    );
  });

  it('opens the mailed link from the outbox: the portal confirms the address and leads to sign-in', async () => {
    const { page, server } = session;
    const link = await linkFromOutbox(server.dataDir, OWNER);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/confirm-email`);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByTestId('confirm-confirmed').waitFor();
    expect(await page.getByTestId('confirm-confirmed').textContent()).toContain(OWNER);
    await screens(page, '4-confirmed', (texts) =>
      page.getByRole('heading', { name: texts.signUp.confirm.title }).waitFor(),
    );
    // Opened again: confirmed already, not an error.
    const again = await session.newPage();
    await again.goto(`${link.pathname}${link.search}`);
    await again.getByTestId('confirm-alreadyConfirmed').waitFor();
    expect(await again.getByRole('alert').count()).toBe(0);
    await screens(again, '4b-already-confirmed', (texts) =>
      again.getByRole('heading', { name: texts.signUp.confirm.title }).waitFor(),
    );
    await again.context().close();
  });

  it('signs in with the QR setup and lands on the overview, whose setup guide says what to do first', async () => {
    const { page } = session;
    await page.getByRole('link', { name: en.auth.signIn }).click();
    await page.waitForURL(/\/signin/);
    await submitPassword(page, OWNER, PASSWORD);
    await completeQrSetup(page);
    await page.waitForURL((url) => url.pathname === '/');
    // A new organisation is on a trial licence: its limits are said once, then the overview shows.
    await page.getByRole('button', { name: en.trial.ok }).click();
    const guide = page.getByTestId('first-run-guide');
    await guide.waitFor();
    expect(await guide.getByTestId('step-tenant').getAttribute('data-done')).toBe('false');
    expect(await page.getByTestId('user-menu').textContent()).toContain(OWNER);
    await screens(page, '5-overview', () => page.getByTestId('first-run-guide').waitFor());
  });

  it('closes sign-up behind it: no offer on /signin, and /signup says whom to ask', async () => {
    expect(await prerenderedOffer()).toBe(false);
    const fresh = await session.newPage();
    await fresh.goto('/signin');
    await fresh.locator('form:not([data-prerendered])').waitFor();
    expect(await fresh.getByRole('link', { name: en.auth.createAccount }).count()).toBe(0);
    await fresh.goto('/register');
    await fresh.waitForURL((url) => url.pathname === '/signup');
    await fresh.getByTestId('sign-up-closed').waitFor();
    await screens(fresh, '6-signup-closed', (texts) => fresh.getByText(texts.signUp.closed.title).waitFor());
    await fresh.context().close();
  });
});
