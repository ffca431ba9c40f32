// @vitest-environment node
/**
 * "Sign in with Microsoft" in Chromium against the real server in demo mode, whose Graph simulator is
 * the identity platform: the portal's button, the simulator's sign-in page (over https, with its own
 * CA), the redirect back to /signin/microsoft, and the session that follows; then an ID token of
 * another tenant, refused in German on the callback page; then the organisation's tenant set anew on
 * the settings page (each change confirmed with the password and a code or a recovery code), pending
 * until the member confirms it by signing in on the simulator's page, and bound afterwards.
 */
import type { Locator, Page } from 'playwright-core';
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

/** A field by its label, which a required field follows with an asterisk. */
const label = (text: string) => new RegExp(`^${text}\\s*\\*?$`);

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

  it('binds a tenant set on the settings page only once a member has signed in with Microsoft from it', async () => {
    const page = await session.newPage({ ignoreHTTPSErrors: true });
    const { authenticator, recoveryCodes } = await session.signIn('/account/settings?tab=security', {
      email: ADELE,
      page,
    });
    const texts = en.accountSecurity.organisationSignIn;
    const section = page.getByTestId('organisation-sign-in');
    const status = section.getByTestId('tenant-status');
    // The demo's tenant, bound when the demo was made.
    await status.getByText(`${texts.tenantStatus}: ${texts.boundTitle}`).waitFor();
    const tenantField = section.getByLabel(label(texts.tenantId));
    const save = async (tenant: string, confirm: (dialog: Locator) => Promise<void>) => {
      await tenantField.fill(tenant);
      await section.getByRole('button', { name: texts.save }).click();
      const dialog = page.getByRole('dialog', { name: texts.reauthTitle });
      await dialog.getByLabel(label(en.accountSecurity.currentPassword)).fill(DEMO_PASSWORD);
      await confirm(dialog);
      await dialog.getByRole('button', { name: texts.reauthSubmit }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => status.getAttribute('data-state')).toBe('pending');
      expect(await status.textContent()).toContain(tenant);
    };
    // Another directory, confirmed with a code; then the demo's own again, with a recovery code.
    await save('11111111-2222-4333-8444-555555555555', async (dialog) => {
      await dialog.getByLabel(label(en.accountSecurity.code)).fill(await authenticator.nextCode());
    });
    await save(CONTOSO_TENANT, async (dialog) => {
      await dialog.getByRole('button', { name: en.accountSecurity.useRecoveryCode }).click();
      await dialog.getByLabel(label(en.accountSecurity.recoveryCode)).fill(recoveryCodes[0] ?? '');
    });
    expect(await status.textContent()).toContain(texts.pendingWhy);
    expect(await accessibilityViolations(page)).toEqual([]);

    await status.getByRole('button', { name: texts.confirm }).click();
    await page.waitForURL((url) => url.pathname === `/${CONTOSO_TENANT}/oauth2/v2.0/authorize`);
    expect(await page.locator('#login').inputValue()).toBe(ADELE);
    await page.locator('#passwd').fill(DEMO_PASSWORD);
    await page.locator('#submit').click();
    await page.waitForURL((url) => url.pathname === '/account/settings');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 15_000 }).toBe('bound');
    expect(await status.textContent()).toContain(ADELE);
    // Signed in with Microsoft a moment ago: a change asks for no password now.
    await section.getByTestId('microsoft-recent').waitFor();
    await page.context().close();
  });
});
