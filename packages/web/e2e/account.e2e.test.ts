// @vitest-environment node
/**
 * The account pages and the help center end to end: a support request sent through the form and
 * kept by the server; help found by searching; the four pages at every breakpoint, in English and German.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, completeQrSetup, launchBrowser, submitPassword, waitForText } from './browser';
import { DEMO_PASSWORD, type RunningServer, startServer } from './server';

const ADMIN = 'admin@contoso.example';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1350, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('account pages', () => {
  it('sends a support request and gets its reference', async () => {
    await page.goto('/account/support');
    await page.waitForURL(/\/signin/);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await completeQrSetup(page);
    await page.waitForURL(/\/account\/support/);
    await page.getByText('Support hours: Monday to Friday, 9 AM to 5 PM.').waitFor();
    await page.getByLabel('Subject').fill('Question about restores');
    await page.getByLabel('Area').selectOption('backup');
    await page.getByLabel('Message').fill('Can I restore a whole site into another site?');
    await page.getByRole('button', { name: 'Send request' }).click();
    await waitForText(page.getByTestId('request-sent'), /Your request SR-\d{8}-\d{4} was sent/);
  });

  it('finds help by searching', async () => {
    await page.goto('/helpcenter');
    await page.getByLabel('Search the help').fill('proxy right');
    await waitForText(page.getByTestId('help-count'), /articles? match/);
    await page.getByTestId('topic-emailArchive').getByText('Who may read an archived mailbox?').waitFor();
    expect(await page.getByTestId('topic-backup').count()).toBe(0);
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    const problems: string[] = [];
    for (const language of ['en', 'de']) {
      await page.evaluate((lang) => localStorage.setItem('language', lang), language);
      for (const path of ['/account/settings', '/account/support', '/account/imprint', '/helpcenter']) {
        await page.setViewportSize({ width: 1350, height: 900 });
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        for (const width of [320, 600, 900, 1200, 1350, 1536]) {
          await page.setViewportSize({ width, height: 900 });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 0) problems.push(`${language} ${path} at ${width}px scrolls sideways by ${overflow}px`);
          if (width === 320 || width === 1350)
            for (const v of await accessibilityViolations(page))
              problems.push(`${language} ${path} at ${width}px: ${v}`);
        }
      }
    }
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    expect(problems).toEqual([]);
  });
});
