// @vitest-environment node
/**
 * The overview end to end against its own server: each area card in its state's colour and words with
 * its runs of 30 days; the first-run guide ticking the connection step from the server's own record of
 * the connection test (consent withdrawn in Microsoft 365: the step is left, naming the permission;
 * granted again and tested: the guide goes), shown again from the help center; at 320 and 1350 px
 * without sideways scrolling or WCAG 2.1 A/AA violations, in English and German.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  completeQrSetup,
  launchBrowser,
  simulatorConsent,
  submitPassword,
  waitForText,
} from './browser';
import { DEMO_PASSWORD, type RunningServer, startServer } from './server';

const ADMIN = 'admin@contoso.example';
const CONTOSO_TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer({ history: true });
  browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1350, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Runs the active tenant's connection test in the configuration and waits for its answer. */
async function testConnection() {
  await page.goto('/configuration');
  const active = page
    .getByRole('table', { name: 'Tenants' })
    .getByRole('row')
    .filter({ hasText: CONTOSO_TENANT })
    .filter({ has: page.getByRole('button', { name: 'Test connection' }) });
  await active.getByRole('button', { name: 'Test connection' }).click();
  await waitForText(page.getByTestId('connection-result'), /works \(\d+ ms\)/);
}

async function layoutProblems(label: string) {
  const problems: string[] = [];
  for (const width of [320, 1350]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) {
      // The innermost elements reaching past the right edge: what to fix.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
          .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth))
          .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}"`)
          .slice(0, 5),
      );
      problems.push(`${label} at ${width}px scrolls sideways by ${overflow}px: ${wide.join(', ')}`);
    }
    for (const v of await accessibilityViolations(page)) problems.push(`${label} at ${width}px: ${v}`);
  }
  await page.setViewportSize({ width: 1350, height: 900 });
  return problems;
}

describe('the overview', () => {
  it('shows each area’s state in colour and words, with its runs of 30 days', async () => {
    await page.goto('/');
    await page.waitForURL(/\/signin/);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await completeQrSetup(page);
    await page.waitForURL((url) => url.pathname === '/');
    const words = { failed: 'Failed', warnings: 'Warnings', fine: 'Fine', running: 'Running', pending: 'Waiting' };
    for (const area of ['backup', 'emailArchive', 'teamsArchive']) {
      const card = page.getByTestId(`area-${area}`);
      await waitForText(card.getByTestId(`runs-${area}`), /runs? in 30 days|No run in the last 30 days/, 30_000);
      const health = (await card.getAttribute('data-health')) as keyof typeof words | 'none';
      const badge = (await card.getByTestId('area-health').textContent()) ?? '';
      expect(badge).toBe(`State: ${health === 'none' ? 'No run yet' : words[health]}`);
    }
    // The demo's thirty days of backups: bars for the days with runs.
    expect(await page.getByTestId('runs-backup').locator('rect').count()).toBeGreaterThan(0);
    // Its first day tested the connection and made the jobs: no first-run step is left to show.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('first-run-guide').count()).toBe(0);
  });

  it('keeps the connection step open while a permission is missing, and goes when every step is done', async () => {
    const granted = await simulatorConsent(server.url, CONTOSO_TENANT);
    await simulatorConsent(
      server.url,
      CONTOSO_TENANT,
      granted.filter((p) => p !== 'Chat.Read.All'),
    );
    await testConnection();
    await page.goto('/');
    const guide = page.getByTestId('first-run-guide');
    await guide.waitFor();
    const connection = guide.getByTestId('step-connection');
    expect(await connection.getAttribute('data-done')).toBe('false');
    await waitForText(connection, /Missing permissions: Chat\.Read\.All\./);
    expect(await guide.getByTestId('step-tenant').getAttribute('data-done')).toBe('true');
    const problems = await layoutProblems('/ with the guide');
    await page.evaluate(() => localStorage.setItem('language', 'de'));
    await page.reload();
    await guide.getByRole('heading', { name: 'Das Portal einrichten' }).waitFor();
    problems.push(...(await layoutProblems('/ with the guide, German')));
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    expect(problems).toEqual([]);

    await simulatorConsent(server.url, CONTOSO_TENANT, granted);
    await testConnection();
    await page.goto('/');
    await page.getByTestId('runs-backup').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('first-run-guide').count()).toBe(0);
  });

  it('shows the guide again from the help center, every step ticked', async () => {
    await page.goto('/helpcenter');
    await page.getByRole('button', { name: 'Show the first-run guide' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const guide = page.getByTestId('first-run-guide');
    await waitForText(guide.getByTestId('first-run-progress'), /Every step is done/);
    await guide.getByRole('button', { name: 'Hide the guide' }).click();
    await page.getByTestId('first-run-hidden').waitFor();
    expect(await guide.count()).toBe(0);
  });
});
