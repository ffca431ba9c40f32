// @vitest-environment node
/**
 * "Sign in with Microsoft" in Chromium against the real server in demo mode, whose Graph simulator is
 * the identity platform: the portal's button, the simulator's sign-in page (over https, with its own
 * CA), the redirect back to /signin/microsoft, and the session that follows; then an ID token of
 * another tenant, refused in German on the callback page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { de } from '../src/i18n/de';
import { en } from '../src/i18n/en';
import {
  accessibilityViolations,
  CONTOSO_TENANT,
  chooseLanguage,
  logOutThroughMenu,
  simulatorSignInFault,
  useBrowserSession,
} from './browser';
import { DEMO_PASSWORD } from './server';

/** The demo's Microsoft account: the first user of Contoso's simulated tenant (seed.ts, DEMO_USERS.microsoft). */
const ADELE = `adele@t${CONTOSO_TENANT.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;

// A server of its own: its simulator's control endpoint is reached from this process.
const session = useBrowserSession({ ownServer: true });

/** Types the address, chooses "Sign in with Microsoft" and signs in on the simulator's page. */
async function signInWithMicrosoft(page: Page, texts: { auth: { email: string; withMicrosoft: string } }) {
  await page.getByLabel(texts.auth.email).fill(ADELE);
  await page.getByRole('button', { name: texts.auth.withMicrosoft }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/oauth2/v2.0/authorize'));
  expect(new URL(page.url()).pathname).toBe(`/${CONTOSO_TENANT}/oauth2/v2.0/authorize`);
  expect(await page.locator('#login').inputValue()).toBe(ADELE);
  await page.locator('#passwd').fill(DEMO_PASSWORD);
  await page.locator('#submit').click();
}

describe('sign-in with Microsoft through the identity platform', () => {
  it('signs in through the sign-in page of the Entra tenant and comes back where the user was going', async () => {
    // The simulator's certificate chains to the demo's own CA.
    const page = await session.newPage({ ignoreHTTPSErrors: true });
    await page.goto('/backup-and-restore/job-monitor');
    await page.waitForURL(/\/signin\?redirect=/);
    await page.getByRole('button', { name: en.auth.withMicrosoft }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const started = performance.now();
    await signInWithMicrosoft(page, en);
    await page.waitForURL((url) => url.pathname === '/backup-and-restore/job-monitor');
    await page.getByTestId('user-menu').waitFor();
    const elapsed = performance.now() - started;
    console.log(`sign-in with Microsoft in Chromium, button to signed-in page: ${Math.round(elapsed)} ms`);
    expect(await page.getByTestId('user-menu').textContent()).toContain(ADELE);
    const stored = await page.evaluate(() => localStorage.getItem('user'));
    expect(stored).toContain(ADELE);
    await logOutThroughMenu(page);
    await page.waitForURL(/\/(logout|signin)/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.context().close();
  });

  it('refuses an ID token of another tenant, saying so in German', async () => {
    const page = await session.newPage({ ignoreHTTPSErrors: true });
    await page.goto('/signin');
    await chooseLanguage(page, 'de');
    await page.reload();
    await simulatorSignInFault(session.server.url, 'otherTenant');
    try {
      await signInWithMicrosoft(page, de);
      await page.waitForURL((url) => url.pathname === '/signin/microsoft');
      await page.getByRole('heading', { name: de.auth.microsoftFailed }).waitFor();
      const alert = await page.getByRole('alert').textContent();
      expect(alert).toContain('anderen Verzeichnis');
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('link', { name: de.auth.backToSignIn }).click();
      await page.waitForURL((url) => url.pathname === '/signin');
      expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    } finally {
      await simulatorSignInFault(session.server.url, 'none');
      await page.context().close();
    }
  });
});
