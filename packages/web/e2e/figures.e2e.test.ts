// @vitest-environment node
/**
 * The figures defined once, end to end over the demo history: the backup, email archive, Teams
 * archive and data-management dashboards and the overview name each figure as the `figures` texts
 * do and list what they mean; the data-management dashboard's coverage statement counts the sites;
 * each at 1440 and 390 px in English and German, without sideways scrolling or WCAG 2.1 A/AA
 * violations, photographed into E2E_SCREENSHOTS (or a temporary directory named in the output).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, type Language, layoutProblems, screenshotDirectory, useBrowserSession } from './browser';

const session = useBrowserSession({ ownServer: { history: true } });
const WIDTHS = [1440, 390] as const;

/** What each dashboard says its figures are, in each language (the `figures` texts). */
const WORDS: Record<Language, { protected: string; stored: string; definitions: string; coverage: RegExp }> = {
  en: {
    protected: 'Items protected',
    stored: 'Stored size (after deduplication)',
    definitions: 'What the figures mean',
    coverage: /sites and team sites .*version clean-up job/,
  },
  de: {
    protected: 'Geschützte Elemente',
    stored: 'Gespeicherte Größe (nach Deduplizierung)',
    definitions: 'Was die Zahlen bedeuten',
    coverage: /Websites und Team-Websites.*Versionsbereinigungsauftrag/,
  },
};

const SCREENS = [
  { name: 'backup', path: '/backup-and-restore/dashboard', figures: true },
  { name: 'archive', path: '/archive/dashboard', figures: true },
  { name: 'teams', path: '/teams/dashboard', figures: true },
  { name: 'overview', path: '/', figures: false },
  { name: 'data-management', path: '/compliance/dashboard', figures: false },
] as const;

async function ready(page: Page, screen: (typeof SCREENS)[number], language: Language) {
  const words = WORDS[language];
  if (screen.name === 'data-management') {
    await page.getByTestId('coverage-statement').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('coverage-statement').textContent()).toMatch(words.coverage);
    return;
  }
  await page.getByRole('heading', { name: words.definitions }).waitFor({ timeout: 60_000 });
  await page.getByRole('term').filter({ hasText: words.stored }).first().waitFor();
  if (screen.figures) await page.getByTestId(`figure-${words.protected}`).waitFor();
}

describe('the figures on every dashboard', () => {
  it('are named and defined alike, at 1440 and 390 px, in English and German', async () => {
    const { page } = session;
    const SHOTS = screenshotDirectory('figures');
    await session.signIn('/backup-and-restore/dashboard');
    const problems: string[] = [];
    for (const language of ['en', 'de'] as const) {
      await chooseLanguage(page, language);
      for (const screen of SCREENS) {
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(screen.path);
        await ready(page, screen, language);
        await page.waitForLoadState('networkidle');
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({
            path: join(SHOTS, `figures-${screen.name}-${language}-${width}.png`),
            fullPage: true,
          });
        }
        problems.push(...(await layoutProblems(page, `${language} ${screen.path}`, { widths: WIDTHS, axeAt: WIDTHS })));
      }
    }
    await chooseLanguage(page, 'en');
    expect(problems).toEqual([]);
  }, 600_000);
});
