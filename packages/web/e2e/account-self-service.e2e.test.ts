// @vitest-environment node
/**
 * Account self-service in Chromium against a server of its own (the password changes): the user menu
 * and the tabs by keyboard, a password change that keeps this session and ends another, sign-in with
 * the new password while the old one is refused, the refusal in the sign-in activity, and the
 * security and activity tabs at 320 px without sideways scrolling or WCAG 2.1 A/AA violations.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { de } from '../src/i18n/de';
import { en } from '../src/i18n/en';
import { ADMIN, expectResponsiveAndAccessible, logOutThroughMenu, submitPassword, useBrowserSession } from './browser';
import { DEMO_PASSWORD } from './server';

const NEW_PASSWORD = 'Changed-E2e-Passw0rd!';
const texts = en.accountSecurity;
/** A field by its label, which a required field follows with an asterisk. */
const label = (text: string) => new RegExp(`^${text}\\s*\\*?$`);

const session = useBrowserSession({ ownServer: true });

/** The session token the portal keeps in local storage. */
const storedToken = (p: Page) =>
  p.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { token?: string }).token ?? '');
/** Whether a portal session token still signs in, asked from the page as the portal would. */
const tokenAlive = (p: Page, token: string) =>
  p.evaluate(
    async (t) => (await fetch('/api/auth/verify-user', { headers: { Authorization: t } })).status === 200,
    token,
  );

describe('account self-service', () => {
  it('opens the security tab from the user menu by keyboard, and moves between tabs with the arrow keys', async () => {
    const { page } = session;
    await session.signIn('/account/settings');

    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('Enter');
    // The first entry is highlighted when the menu opens from the keyboard.
    await page.locator('[role="menuitem"][data-highlighted]', { hasText: texts.menu.security }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/tab=security/);
    await page.getByRole('heading', { name: texts.password.title }).waitFor();

    await page.getByRole('tab', { name: texts.tabs.security }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/tab=activity/);
    // The QR setup's sign-in, at least.
    await page.getByTestId('sign-in-event').first().waitFor();
    expect(await page.getByTestId('sign-in-event').first().textContent()).toContain(texts.activity.kinds.signedIn);
  });

  it('changes the password, keeping this session and ending another one', async () => {
    const { page } = session;
    // Another browser signed in as the same user.
    const otherPage = await session.newPage();
    await otherPage.goto('/signin');
    await session.signInAgain(otherPage);
    await otherPage.getByTestId('user-menu').waitFor();
    const otherToken = await storedToken(otherPage);
    expect(await tokenAlive(otherPage, otherToken)).toBe(true);

    await page.goto('/account/settings?tab=security');
    const section = page.getByTestId('password-section');
    await section.getByRole('button', { name: texts.password.submit }).click();
    await section.getByLabel(label(texts.currentPassword)).fill(DEMO_PASSWORD);
    await section.getByLabel(label(texts.newPassword)).fill(NEW_PASSWORD);
    await section.getByLabel(label(texts.confirmPassword)).fill(NEW_PASSWORD);
    await section.getByRole('button', { name: texts.password.submit }).click();
    await section.getByText(texts.password.done).waitFor();

    expect(await tokenAlive(otherPage, otherToken)).toBe(false);
    await otherPage.context().close();
    expect(await tokenAlive(page, await storedToken(page))).toBe(true);
    await page.reload();
    await page.getByTestId('password-section').waitFor();
    expect(new URL(page.url()).pathname).toBe('/account/settings');
  });

  it('refuses the old password and signs in with the new one', async () => {
    const { page } = session;
    await logOutThroughMenu(page);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').textContent()).toBe(en.auth.invalidCredentials);
    expect(new URL(page.url()).pathname).toBe('/signin');

    await session.signInAgain(page, { password: NEW_PASSWORD });
    await page.getByTestId('user-menu').waitFor();

    // The refused attempt is in the account's sign-in activity.
    await page.goto('/account/settings?tab=activity');
    const refused = page.locator('[data-testid="sign-in-event"][data-kind="passwordRefused"]');
    await refused.first().waitFor();
    expect(await refused.first().textContent()).toContain(texts.activity.kinds.passwordRefused);
  });

  it('fits 320 px without sideways scrolling and has no WCAG 2.1 A/AA violation, forms open, in English and German', async () => {
    await expectResponsiveAndAccessible(
      session.page,
      ['/account/settings?tab=security', '/account/settings?tab=activity'],
      {
        languages: ['en', 'de'],
        loadAt: 320,
        widths: [320],
        axeAt: [320],
        height: 800,
        ready: async (page, { path, language }) => {
          await page.getByRole('heading', { level: 2 }).first().waitFor();
          if (!path.endsWith('security')) return;
          // Every form open: the widest the tab gets.
          for (const testId of ['email-section', 'password-section']) {
            await page.getByTestId(testId).getByRole('button').first().click();
          }
          const authenticatorTexts = (language === 'de' ? de : en).accountSecurity.authenticator;
          const authenticator = page.getByTestId('authenticator-section');
          await authenticator.getByRole('button', { name: authenticatorTexts.resetTitle }).click();
          await authenticator.getByRole('button', { name: authenticatorTexts.codesTitle }).click();
          await authenticator.getByRole('button', { name: authenticatorTexts.codesSubmit }).waitFor();
        },
      },
    );
  });
});
