// @vitest-environment node
/**
 * A site's lists on the restore screen, end to end, against a server of its own with the demo's
 * thirty days of history (Contoso's "SharePoint – all sites" backed up by the real engine from the
 * built-in simulator, lists and pages included): the snapshot's top shows the site's lists and its
 * pages beside its libraries, a list opens to its items, at 1440 and 390 px wide in English and
 * German (screenshots); then one list item is restored into its site and the run ends "finished".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, type Language, screenshotDirectory, useBrowserSession, waitForText } from './browser';

const SHOTS = screenshotDirectory('site lists');
const JOB = 'SharePoint – all sites (SharePoint)';

const session = useBrowserSession({ ownServer: { history: true } });

/** What the screen says, per language, of the parts the test reads. */
const WORDS: Record<Language, { list: RegExp; listItem: RegExp; pages: string; version: RegExp }> = {
  en: {
    list: /List · \d+ items?/,
    listItem: /List item · Version \d+\.\d+/,
    pages: 'Site pages',
    version: /Version/,
  },
  de: {
    list: /Liste · \d+ Elemente?/,
    listItem: /Listenelement · Version \d+\.\d+/,
    pages: 'Websiteseiten',
    version: /Version/,
  },
};

describe("a site's lists on the restore screen", () => {
  /** Chooses the site backup, its first site and its newest snapshot. */
  async function chooseSnapshot() {
    const { page } = session;
    await page.locator('#restore-job').selectOption({ label: JOB });
    const source = page.locator('#restore-source');
    await source.locator('option').nth(1).waitFor({ state: 'attached' });
    await source.selectOption({ index: 1 });
    const snapshot = page.locator('#restore-snapshot');
    await snapshot.locator('option').nth(1).waitFor({ state: 'attached' });
    await snapshot.selectOption({ index: 1 });
    await page.locator('[role="region"][aria-busy="true"]').waitFor({ state: 'detached' });
  }

  /** Opens the site's first list that has items; its name. */
  async function openList(language: Language) {
    const { page } = session;
    const listRow = page
      .getByRole('row')
      .filter({ hasText: WORDS[language].list })
      .filter({ has: page.getByTestId('open-node') })
      .first();
    await listRow.waitFor();
    const name = ((await listRow.getByTestId('open-node').textContent()) ?? '').trim();
    await listRow.getByTestId('open-node').click();
    await waitForText(page.getByTestId('current-folder'), new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await page.locator('[role="region"][aria-busy="true"]').waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: WORDS[language].listItem }).first().waitFor();
    return name;
  }

  it('shows the lists and pages beside the libraries and opens a list, wide and narrow, in English and German', async () => {
    const { page } = session;
    await session.signIn('/backup-and-restore/restore');
    for (const language of ['en', 'de'] as const) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await chooseLanguage(page, language);
        await page.goto('/backup-and-restore/restore');
        await chooseSnapshot();
        // Taken first: the picture shows what stood there even when a check below fails.
        await page.screenshot({ path: join(SHOTS, `site-top-${language}-${width}.png`), fullPage: true });
        // The top: libraries, lists with their counts, and the pages group in the reader's words.
        await page.getByRole('row').filter({ hasText: WORDS[language].list }).first().waitFor();
        await page.getByRole('button', { name: WORDS[language].pages, exact: true }).waitFor();
        const name = await openList(language);
        // Each item named, not numbered by id; its version stands in the row, also where the type column is folded.
        const itemRow = page.getByRole('row').filter({ hasText: WORDS[language].listItem }).first();
        const text = (await itemRow.textContent()) ?? '';
        expect(text).toMatch(WORDS[language].version);
        expect(text).not.toMatch(/listItem:/);
        await page.screenshot({ path: join(SHOTS, `site-list-${language}-${width}.png`), fullPage: true });
        expect(name.length).toBeGreaterThan(0);
      }
    }
  });

  it('restores one list item into its site, and the run ends finished', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1440, height: 900 });
    await chooseLanguage(page, 'en');
    await page.goto('/backup-and-restore/restore');
    await chooseSnapshot();
    await openList('en');
    const itemRow = page.getByRole('row').filter({ hasText: WORDS.en.listItem }).first();
    await itemRow.getByRole('checkbox').check({ force: true });
    await expect(page.getByTestId('restore-selection').textContent()).resolves.toBe('1 list item selected');
    await page.getByText('Original place').click();
    await page.getByRole('button', { name: 'Restore…', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.textContent()).resolves.toMatch(/1 list item of .+ as backed up on/);
    await confirm.getByRole('button', { name: 'Restore' }).click();
    const progress = page.getByTestId('restore-progress').locator('xpath=..');
    await waitForText(progress, /Finished|Failed/, 180_000);
    await page.screenshot({ path: join(SHOTS, 'site-list-restore-en-1440.png'), fullPage: true });
    await expect(progress.textContent()).resolves.toMatch(/Finished/);
  });
});
