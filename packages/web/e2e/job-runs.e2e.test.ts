// @vitest-environment node
/**
 * Runs that say what happened, in Chromium against a server with the demo's thirty days of history:
 * the failed backup night (Microsoft Graph unavailable for one OneDrive) in the backup monitor and
 * its drawer, naming the failed account by name with the reason and Microsoft's code; and the
 * clean-up that Microsoft 365 throttles right now in the data-management monitor, saying that
 * Microsoft 365 limits requests, when it tries next and how often it retried. Each at 1440 and 390
 * px in English and German, photographed (into E2E_SCREENSHOTS, or a temporary directory named in
 * the output) and checked for sideways scrolling and WCAG 2.1 A/AA violations.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  animationsSettled,
  chooseLanguage,
  type Language,
  layoutProblems,
  screenshotDirectory,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

const SHOTS = screenshotDirectory('job runs');

const WIDTHS = [1440, 390] as const;
const LANGUAGES: readonly Language[] = ['en', 'de'];
const CLEANUP = 'OneDrive – keep the newest version';

const WORDS = {
  en: {
    failed: 'Failed',
    reason: 'Why the run failed',
    code: 'Microsoft 365’s code',
    throttled: /Microsoft 365 is limiting requests; next try at \d{1,2}:\d{2}( [AP]M)? \(\d+ retr(y|ies)\)/,
    limited: /Microsoft 365 (is limiting requests|made this run wait)/,
    running: 'Running',
  },
  de: {
    failed: 'Fehlgeschlagen',
    reason: 'Warum der Lauf fehlschlug',
    code: 'Code von Microsoft 365',
    throttled: /Microsoft 365 drosselt die Anfragen; nächster Versuch um \d{1,2}:\d{2} \(\d+ Wiederholung(en)?\)/,
    limited: /Microsoft 365 (drosselt die Anfragen|ließ diesen Lauf)/,
    running: 'Läuft',
  },
} as const;

async function shoot(page: Page, name: string, target?: Locator) {
  const path = join(SHOTS, `${name}.png`);
  await animationsSettled(page);
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

/** Every width and language: the page loaded in the language, brought to its state, checked and photographed. */
async function atEveryWidth(
  page: Page,
  url: string,
  name: string,
  check: (language: Language, width: number) => Promise<Locator | undefined>,
) {
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    await chooseLanguage(page, language);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const drawer = await check(language, width);
      await shoot(page, `${name}-${language}-${width}`);
      if (drawer) await shoot(page, `${name}-drawer-${language}-${width}`, drawer);
      problems.push(...(await layoutProblems(page, `${language} ${url}`, { widths: [width], axeAt: [width] })));
      if (drawer) await page.keyboard.press('Escape');
    }
  }
  await chooseLanguage(page, 'en');
  expect(problems).toEqual([]);
}

describe('runs that say what happened', () => {
  it('a failed run names its failed account with the reason and Microsoft’s code', { timeout: 300_000 }, async () => {
    const { page } = session;
    await session.signIn('/backup-and-restore/job-monitor');
    await atEveryWidth(page, '/backup-and-restore/job-monitor?status=failed', 'failed-run', async (language) => {
      const words = WORDS[language];
      const row = page.getByRole('row').filter({ hasText: words.failed }).first();
      await row.waitFor();
      // The failures never read "0" on a failed run.
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.at(-1)?.trim()).not.toBe('0');
      // Opened by keyboard: the run's name is a button.
      await row.getByRole('button').first().focus();
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog');
      const message = drawer.getByTestId('run-message');
      await waitForText(message, new RegExp(words.reason));
      const text = (await message.textContent()) ?? '';
      expect(text).toContain(words.code);
      expect(text).toMatch(/\(HTTP 5\d\d\)/);
      // The account it failed on, by name, with Microsoft's code beside the reason; no id, no "—".
      const failure = drawer.getByTestId('run-failure').first();
      await failure.waitFor();
      const failureText = (await failure.textContent()) ?? '';
      expect(failureText).toMatch(/HTTP 5\d\d/);
      expect(failureText).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/i);
      return drawer;
    });
  });

  it('a throttled run says that Microsoft 365 limits requests, when it tries next and how often', {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    await atEveryWidth(page, '/compliance/monitoring', 'throttled-run', async (language) => {
      const words = WORDS[language];
      const row = page.getByRole('row').filter({ hasText: CLEANUP }).first();
      await row.waitFor();
      // The clean-up's deletions are throttled every other request with Retry-After 5 s: it waits often.
      await waitForText(row.getByTestId('run-throttling'), words.throttled, 90_000);
      expect(await row.getByText(words.running, { exact: true }).count()).toBe(1);
      await row.getByRole('cell').first().click();
      const drawer = page.getByRole('dialog');
      await waitForText(drawer.getByTestId('run-throttling'), words.limited);
      await drawer.getByTestId('run-figures').waitFor();
      return drawer;
    });
  });
});
