/** The browser helpers of scripts/browser.mjs, and the steps only the browser tests need. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

export {
  Authenticator,
  CHROMIUM_FLAGS,
  completeQrSetup,
  launchBrowser,
  submitCode,
  submitPassword,
  totpAt,
} from '../scripts/browser.mjs';

export const baseUrl = () => inject('baseUrl');

export async function logOutThroughMenu(page: Page) {
  // A menu left open (or still closing) by an earlier step would swallow the click: start closed.
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: 'Log out' }).waitFor({ state: 'hidden' });
  await page.getByTestId('user-menu').click();
  const logout = page.getByRole('menuitem', { name: 'Log out' });
  await logout.waitFor({ state: 'visible' });
  await logout.click();
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
