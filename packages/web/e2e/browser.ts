/** The browser helpers of scripts/browser.mjs, and the steps only the browser tests need. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { DEMO_CLIENT_SECRET } from '../scripts/start-server.mjs';

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

/** Waits until the locator's text matches (the monitor's rows change as runs move on). */
export async function waitForText(locator: Locator, pattern: RegExp, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await locator.textContent().catch(() => '')) ?? '';
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; last "${text}"`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A demo tenant's Microsoft 365 (the server's simulator), read as an app registration reads it. */
export async function simulatorGraph(origin: string, tenantId: string) {
  const base = `${origin}/m365-simulator`;
  const answer = await fetch(`${base}/login/${tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // The demo tenant's app registration (its id fixed by the seed) with the secret the server was given.
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `5e1f0a4b-6c2d-4e8f-9a31-${tenantId.slice(-12)}`,
      client_secret: DEMO_CLIENT_SECRET,
      scope: 'https://graph.microsoft.com/.default',
    }),
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  const get = (path: string) => fetch(`${base}/v1.0${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    json: async <T>(path: string) => (await (await get(path)).json()) as T,
    bytes: async (path: string) => Buffer.from(await (await get(path)).arrayBuffer()),
  };
}
