// @vitest-environment node
/**
 * Section 8's network warning as a person meets it (issue 45): the sign-in page is open, the server
 * stops, and the person signs in. The warning toast shows, and the form says the same rather than
 * "Login process failed", in English and German, wide and narrow. The file has a server of its own,
 * since it stops it.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { de } from '../src/i18n/de';
import { en } from '../src/i18n/en';
import { ADMIN, type Language, layoutProblems, screenshotDirectory, useBrowserSession } from './browser';
import { DEMO_PASSWORD } from './server';

const session = useBrowserSession({ ownServer: true });
const TEXTS = { en, de } as const;

async function switchLanguage(page: Page, language: Language) {
  await page.getByTestId('language-switch').selectOption(language);
  await page.getByRole('button', { name: TEXTS[language].auth.signIn, exact: true }).waitFor();
}

describe('signing in while the server is down', () => {
  it('shows the network warning and names the network in the form, in English and German', async () => {
    const { page } = session;
    const shots = screenshotDirectory('network warning');
    await page.goto('/signin');
    await page.getByTestId('language-switch').waitFor();
    // German's texts load from the server: fetch them while it still answers.
    await switchLanguage(page, 'de');
    await switchLanguage(page, 'en');
    await session.server.stop();
    expect((await page.request.get('/healthz').catch((error: unknown) => error)) instanceof Error).toBe(true);

    for (const language of ['en', 'de'] as const) {
      const texts = TEXTS[language];
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await switchLanguage(page, language);
        await page.getByLabel(texts.auth.email).fill(ADMIN);
        await page.getByLabel(texts.auth.password).fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: texts.auth.signIn, exact: true }).click();
        // The form's own failure names the network, not "Login process failed" …
        await expect
          .poll(() => page.getByTestId('signin-error').textContent(), { timeout: 15_000 })
          .toBe(texts.errors.network);
        // … and the warning toast says it too.
        const toast = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: texts.errors.network });
        await toast.first().waitFor();
        expect(await toast.first().getAttribute('role')).toBe('alert');
        expect(await page.getByText(texts.auth.loginFailed, { exact: true }).count()).toBe(0);
        // The pointer leaves the button it clicked, so that the screenshot and axe see the page at rest
        // whatever width it is (the hovered colour is auth.e2e.test.ts's).
        await page.mouse.move(0, 0);
        expect(await layoutProblems(page, `signin offline ${language} ${width}`)).toEqual([]);
        await page.screenshot({ path: join(shots, `network-warning-${language}-${width}.png`) });
        expect(new URL(page.url()).pathname).toBe('/signin');
      }
    }
  });
});
