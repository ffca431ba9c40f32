/** The browser helpers of scripts/browser.mjs, and the steps only the browser tests need. */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { dirname, join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { DEMO_CLIENT_SECRET, simulatorOf } from '../scripts/start-server.mjs';

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

/** Waits until the page's running animations (a dialog's enter animation, fades) have ended. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
}

/** WCAG 2.1 A and AA violations axe-core finds on the page as it is now, one line each. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Colours are only final once enter animations (fades) have ended.
  await animationsSettled(page);
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

/** One https request to the simulator, trusting only its CA (made by the server after this process started). */
function simulatorRequest(
  url: string,
  ca: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; location?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method: init.method ?? 'GET', headers: init.headers, ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          ...(response.headers.location ? { location: response.headers.location } : {}),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(init.body);
  });
}

/**
 * A demo tenant's Microsoft 365 (the demo simulator of the server at `origin`, started by
 * startServer in this process), read as an app registration reads it: a token by client credentials
 * from the tenant's authority, then Graph over https.
 */
export async function simulatorGraph(origin: string, tenantId: string) {
  const simulator = simulatorOf(origin);
  if (!simulator) throw new Error(`no demo simulator known for ${origin}: start the server with startServer()`);
  const ca = readFileSync(simulator.caCertificatePath, 'utf8');
  const answer = await simulatorRequest(`${simulator.url}/${tenantId}/oauth2/v2.0/token`, ca, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // The demo tenant's app registration (its id fixed by the seed) with the secret the server was given.
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `5e1f0a4b-6c2d-4e8f-9a31-${tenantId.slice(-12)}`,
      client_secret: DEMO_CLIENT_SECRET,
      scope: 'https://graph.microsoft.com/.default',
    }).toString(),
  });
  if (answer.status !== 200) throw new Error(`the simulator refused a token: ${answer.status} ${answer.body}`);
  const { access_token: token } = JSON.parse(answer.body.toString('utf8')) as { access_token: string };
  // Redirects are followed as fetch follows them (Graph answers /content with 302 to a download link).
  const get = async (path: string) => {
    let url = `${simulator.url}/v1.0${path}`;
    for (let hops = 0; hops < 5; hops++) {
      const sameOrigin = new URL(url).origin === simulator.url;
      const response = await simulatorRequest(url, ca, {
        headers: sameOrigin ? { authorization: `Bearer ${token}` } : {},
      });
      if (!response.location || response.status < 300 || response.status > 399) return response.body;
      url = new URL(response.location, url).toString();
    }
    throw new Error(`GET ${path}: too many redirects`);
  };
  return {
    json: async <T>(path: string) => JSON.parse((await get(path)).toString('utf8')) as T,
    bytes: async (path: string) => get(path),
  };
}

/**
 * A demo tenant's consent set (the application permissions of its app registration's next tokens),
 * read, or replaced by `roles`, through the demo simulator's control endpoint with the control key of
 * its data directory.
 */
export async function simulatorConsent(origin: string, tenantId: string, roles?: readonly string[]) {
  const simulator = simulatorOf(origin);
  if (!simulator) throw new Error(`no demo simulator known for ${origin}: start the server with startServer()`);
  const key = readFileSync(join(dirname(dirname(simulator.caCertificatePath)), 'control-key'), 'utf8').trim();
  const answer = await simulatorRequest(
    `${simulator.url}/_simulator/consent`,
    readFileSync(simulator.caCertificatePath, 'utf8'),
    {
      method: roles ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', 'x-simulator-control': key },
      ...(roles ? { body: JSON.stringify({ tenantId, roles }) } : {}),
    },
  );
  if (answer.status !== 200) throw new Error(`the simulator's consent: ${answer.status} ${answer.body}`);
  const body = JSON.parse(answer.body.toString('utf8')) as Record<string, string[]> & { roles?: string[] };
  return roles ? (body.roles ?? []) : (body[tenantId] ?? []);
}
