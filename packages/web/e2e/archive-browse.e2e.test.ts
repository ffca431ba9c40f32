// @vitest-environment node
/**
 * Browsing the archive outside eDiscovery, end to end on the demo world with its thirty days of
 * history: a mailbox the demo administrator may read opened from Mailboxes, one mail read and
 * restored into its mailbox (the restore run finishes in the monitor, named by the mailbox's name);
 * a team's channel read in the Teams archive with replies under their post. Each screen at 1440 and
 * 390 px in English and German (screenshots into E2E_SCREENSHOTS, else a temporary
 * directory named in the output), and without sideways scrolling or WCAG 2.1 A/AA violations.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  expectResponsiveAndAccessible,
  type Language,
  runEnded,
  screenshotDirectory,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

const SHOTS = screenshotDirectory('archive browsing');

/** Photographs the page at 1440 and 390 px in English and German, each after a reload brought to `ready`. */
async function photograph(page: Page, name: string, ready: (page: Page, language: Language) => Promise<void>) {
  const before = page.viewportSize();
  for (const language of ['en', 'de'] as Language[]) {
    await chooseLanguage(page, language);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await ready(page, language);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(SHOTS, `${name}-${language}-${width}.png`), fullPage: true });
    }
  }
  await chooseLanguage(page, 'en');
  if (before) await page.setViewportSize(before);
  await page.reload();
}

/** The subject of the first mail of the mailbox's archive (skeleton rows have none), in either language. */
const firstMail = (page: Page) =>
  page
    .getByRole('table', { name: /Archived mail|Archivierte E-Mails/ })
    .getByRole('row')
    .nth(1)
    .getByRole('button')
    .first();

describe('the archive, browsed outside eDiscovery', () => {
  /** The mailbox archive page of a mailbox the administrator may read. */
  let archivePath = '';
  let mailboxName = '';

  it('opens a readable mailbox’s archive from Mailboxes and lists its mail with names and dates', async () => {
    const { page } = session;
    await session.signIn('/archive/mailboxes');
    const rows = page.getByRole('table', { name: 'Mailboxes' }).getByRole('row');
    await rows.nth(1).waitFor();
    const count = await rows.count();
    // The demo gives the administrator a proxy right on two mailboxes: the others refuse, in words.
    let refusals = 0;
    for (let n = 1; n < count && !archivePath; n++) {
      await page.goto('/archive/mailboxes');
      const row = page.getByRole('table', { name: 'Mailboxes' }).getByRole('row').nth(n);
      // The name, without the legal-hold badge beside it.
      const name = ((await row.getByRole('cell').first().locator('span').first().textContent()) ?? '').trim();
      await row.click();
      await page.getByRole('dialog').getByRole('link', { name: 'Browse archive' }).click();
      await page.getByRole('heading', { level: 1, name: `Archive of ${name}` }).waitFor();
      const refused = page.getByTestId('mail-refused');
      // Whichever comes first; the other wait is given up quietly.
      await Promise.race([
        firstMail(page)
          .waitFor()
          .catch(() => undefined),
        refused.waitFor().catch(() => undefined),
      ]);
      if (await refused.isVisible()) {
        expect(await refused.textContent()).toContain('You need a proxy right to read this mailbox');
        refusals += 1;
        continue;
      }
      archivePath = new URL(page.url()).pathname;
      mailboxName = name;
    }
    expect(archivePath).toMatch(/^\/archive\/mailboxes\/.+/);
    expect(refusals).toBeLessThan(count);
    const first = page.getByRole('table', { name: 'Archived mail' }).getByRole('row').nth(1);
    const cells = await first.getByRole('cell').allTextContents();
    // Subject, sender and date beside the row's checkbox: words, never an id.
    expect(cells[1]?.trim().length).toBeGreaterThan(0);
    expect(cells[2]).toMatch(/@|\w+ \w+/);
    expect(cells[3]).toMatch(/\d{4}/);
    await page.getByLabel('Folder').selectOption({ index: 1 });
    await page.waitForURL((url) => url.searchParams.has('folder'));
    await firstMail(page).waitFor();
  }, 240_000);

  it('reads one mail and restores it into its mailbox; the restore run finishes, named by the mailbox', async () => {
    const { page } = session;
    await page.goto(archivePath);
    const subjectButton = firstMail(page);
    await subjectButton.waitFor();
    const subject = ((await subjectButton.textContent()) ?? '').trim();
    await subjectButton.click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('mail-headers').waitFor();
    expect(await drawer.getByTestId('mail-headers').textContent()).toMatch(/From .+/);
    expect(((await drawer.getByTestId('mail-body').textContent()) ?? '').length).toBeGreaterThan(0);
    await drawer.getByRole('button', { name: 'Restore' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: `Restore 1 mail from ${mailboxName}?` }).waitFor();
    expect(await confirm.textContent()).toContain(`The mail "${subject}" is put back as archived`);
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await waitForText(page.getByTestId('restore-started'), new RegExp(`Restoring 1 mail into ${mailboxName}`), 30_000);
    await page.getByRole('link', { name: 'Follow it in the job monitor' }).click();
    await page.waitForURL(/\/backup-and-restore\/job-monitor/);
    expect(
      await runEnded(page.getByRole('row', { name: new RegExp(`Restore 1 mail of ${mailboxName}`) }).first()),
    ).toMatch(/^finished(WithWarnings)?$/);
  }, 300_000);

  it('photographs the mailbox’s archive, a mail and the restore’s question, and they fit every width', async () => {
    const { page } = session;
    await page.goto(archivePath);
    // At 390 px a row keeps its subject, sender and date in sight, without scrolling the table: the
    // sender under the subject (side by side, the two long texts ran into each other).
    await page.setViewportSize({ width: 390, height: 900 });
    await firstMail(page).waitFor();
    const table = page.getByRole('table', { name: 'Archived mail' });
    for (const name of ['Subject', 'Date'])
      expect(await table.getByRole('columnheader', { name }).isVisible(), name).toBe(true);
    for (const name of ['From', 'Size'])
      expect(await table.getByRole('columnheader', { name }).isVisible(), name).toBe(false);
    const cells = table.getByRole('row').nth(1).getByRole('cell');
    expect(await cells.nth(1).textContent()).toMatch(/@/);
    for (const n of [1, 2]) {
      const box = await cells.nth(n).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, `cell ${n} at ${JSON.stringify(box)}`).toBe(true);
    }
    // The subject's text stays inside its cell (it ran over the sender's before).
    const subjectBox = await firstMail(page).boundingBox();
    const subjectCell = await cells.nth(1).boundingBox();
    expect(subjectBox && subjectCell && subjectBox.x + subjectBox.width <= subjectCell.x + subjectCell.width + 1).toBe(
      true,
    );
    await page.setViewportSize({ width: 1440, height: 900 });
    await photograph(page, 'mailbox-archive', async (p) => {
      await firstMail(p).waitFor();
    });
    const openMail = async (p: Page) => {
      await firstMail(p).click();
      await p.getByRole('dialog').getByTestId('mail-headers').waitFor();
    };
    await photograph(page, 'mail-preview', openMail);
    await photograph(page, 'mail-restore', async (p, language) => {
      await openMail(p);
      await p
        .getByRole('dialog')
        .getByRole('button', { name: language === 'de' ? 'Wiederherstellen' : 'Restore' })
        .click();
      await p.getByRole('alertdialog').getByRole('combobox').waitFor();
    });
    await expectResponsiveAndAccessible(page, [archivePath], {
      languages: ['en', 'de'],
      widths: [320, 390, 1440],
      axeAt: [390, 1440],
      ready: async (p) => {
        await firstMail(p).waitFor();
      },
    });
  }, 600_000);

  it('opens a team’s archived channel: posts with their replies under them, by author and time', async () => {
    const { page } = session;
    await page.goto('/teams/archive');
    // On a wide screen the channels and chats are listed beside the messages, by name.
    const places = page.getByRole('navigation', { name: 'Teams and chats' });
    const link = places.getByRole('link').first();
    await link.waitFor();
    const channel = ((await link.textContent()) ?? '').trim();
    expect(channel).toMatch(/^.+ \(\d+ messages?\)$/);
    await link.click();
    await page.waitForURL((url) => url.searchParams.get('at')?.startsWith('t/') === true);
    expect(await link.getAttribute('aria-current')).toBe('page');
    const thread = page
      .getByTestId('teams-thread')
      .filter({ has: page.getByTestId('teams-reply') })
      .first();
    await thread.waitFor();
    const post = thread.getByTestId('teams-post');
    expect(((await post.locator('p').first().textContent()) ?? '').trim().length).toBeGreaterThan(0);
    expect(await post.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await thread.getByTestId('teams-reply').count()).toBeGreaterThan(0);
    const heading = channel.replace(/ \(\d+ messages?\)$/, '');
    await page.getByRole('heading', { name: new RegExp(`^Messages of .+ › ${heading}$`) }).waitFor();
    const at = new URL(page.url()).search;
    await photograph(page, 'teams-archive', async (p) => {
      await p.getByTestId('teams-thread').first().waitFor();
    });
    await expectResponsiveAndAccessible(page, [`/teams/archive${at}`], {
      languages: ['en', 'de'],
      widths: [320, 390, 1440],
      axeAt: [390, 1440],
      ready: async (p) => {
        await p.getByTestId('teams-thread').first().waitFor();
      },
    });
  }, 600_000);
});
