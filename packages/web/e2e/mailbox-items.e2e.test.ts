// @vitest-environment node
/**
 * A mailbox's archived calendar and contacts, end to end on the demo world with its thirty days of
 * history (the real engine archived the simulated mailboxes' calendars, contacts and tasks): the
 * Calendar and Contacts tabs of a mailbox the demo administrator may read, at 1440 and 390 px in
 * English and German (screenshots into E2E_SCREENSHOTS, else a temporary directory named in the
 * output); an event and a contact opened; each restored into its mailbox as a restore job, whose run
 * must end finished in the monitor.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  animationsSettled,
  chooseLanguage,
  expectResponsiveAndAccessible,
  type Language,
  runEnded,
  screenshotDirectory,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

const SHOTS = screenshotDirectory('mailbox items');

const TABLES = {
  calendar: /Archived calendar events|Archivierte Termine/,
  contacts: /Archived contacts|Archivierte Kontakte/,
} as const;

/** The first item of a tab's table (skeleton rows have no button), in either language. */
const firstItem = (page: Page, tab: keyof typeof TABLES) =>
  page.getByRole('table', { name: TABLES[tab] }).getByRole('row').nth(1).getByRole('button').first();

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

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a mailbox’s archived calendar and contacts', () => {
  /** The mailbox archive page of a mailbox the administrator may read. */
  let archivePath = '';
  let mailboxName = '';
  /** The restores started, by the job name the monitor shows. */
  const restores: string[] = [];

  it('opens a readable mailbox’s Calendar tab: events by subject, start and organiser, the tab in the address', async () => {
    const { page } = session;
    await session.signIn('/archive/mailboxes');
    const rows = page.getByRole('table', { name: 'Mailboxes' }).getByRole('row');
    await rows.nth(1).waitFor();
    const count = await rows.count();
    // The demo gives the administrator a proxy right on two mailboxes: the others refuse, in words.
    for (let n = 1; n < count && !archivePath; n++) {
      await page.goto('/archive/mailboxes');
      const row = page.getByRole('table', { name: 'Mailboxes' }).getByRole('row').nth(n);
      const name = ((await row.getByRole('cell').first().locator('span').first().textContent()) ?? '').trim();
      await row.click();
      await page.getByRole('dialog').getByRole('link', { name: 'Browse archive' }).click();
      await page.getByRole('heading', { level: 1, name: `Archive of ${name}` }).waitFor();
      await page.getByRole('tab', { name: 'Calendar' }).click();
      await page.waitForURL((url) => url.searchParams.get('tab') === 'calendar');
      const refused = page.getByTestId('items-refused');
      const empty = page.getByTestId('table-empty');
      await Promise.race([
        firstItem(page, 'calendar')
          .waitFor()
          .catch(() => undefined),
        refused.waitFor().catch(() => undefined),
        empty.waitFor().catch(() => undefined),
      ]);
      // A refusal, an empty calendar or a table that never came: the next mailbox.
      if (!(await firstItem(page, 'calendar').isVisible())) continue;
      archivePath = new URL(page.url()).pathname;
      mailboxName = name;
    }
    expect(archivePath).toMatch(/^\/archive\/mailboxes\/.+/);
    expect(await page.getByTestId('items-protects').textContent()).toContain(
      "The archive keeps this mailbox's calendars",
    );
    const first = page.getByRole('table', { name: TABLES.calendar }).getByRole('row').nth(1);
    const cells = await first.getByRole('cell').allTextContents();
    // Subject, start and organiser: words and a date, never an id.
    expect(cells[0]?.trim().length).toBeGreaterThan(0);
    expect(cells[0]).not.toMatch(/^[A-Za-z0-9_=-]{30,}$/);
    expect(cells[1]).toMatch(/\d{4}/);
    expect(cells[2]).toMatch(/\w+/);
  }, 240_000);

  it('photographs the Calendar and Contacts tabs, which fit every width without an id where a name belongs', async () => {
    const { page } = session;
    for (const tab of ['calendar', 'contacts'] as const) {
      await page.goto(`${archivePath}?tab=${tab}`);
      await firstItem(page, tab).waitFor();
      await page.setViewportSize({ width: 390, height: 900 });
      // Every cell shown of a row stays inside the screen: no column runs over its edge.
      await firstItem(page, tab).waitFor();
      const boxes = await page
        .getByRole('table', { name: TABLES[tab] })
        .locator('tbody tr')
        .first()
        .locator('td, th')
        .evaluateAll((cells) =>
          cells
            .map((c) => c.getBoundingClientRect())
            .filter((r) => r.width > 0)
            .map((r) => ({ left: r.left, right: r.right })),
        );
      expect(boxes.length).toBeGreaterThan(0);
      for (const box of boxes) expect(box.left >= 0 && box.right <= 390, `${tab}: ${JSON.stringify(box)}`).toBe(true);
      await page.setViewportSize({ width: 1440, height: 900 });
      await photograph(page, `mailbox-${tab}`, async (p) => {
        await firstItem(p, tab).waitFor();
      });
    }
    await expectResponsiveAndAccessible(page, [`${archivePath}?tab=calendar`, `${archivePath}?tab=contacts`], {
      languages: ['en', 'de'],
      widths: [390, 1440],
      axeAt: [1440],
      ready: async (p) => {
        await p
          .getByRole('table', { name: /Archived|Archivierte/ })
          .getByRole('row')
          .nth(1)
          .getByRole('button')
          .first()
          .waitFor();
      },
    });
  }, 600_000);

  it('opens an event and a contact, and photographs them', async () => {
    const { page } = session;
    const openFirst = (tab: keyof typeof TABLES) => async (p: Page) => {
      await firstItem(p, tab).click();
      await p.getByRole('dialog').getByTestId('item-fields').waitFor();
    };
    await page.goto(`${archivePath}?tab=calendar`);
    await openFirst('calendar')(page);
    const event = page.getByRole('dialog');
    expect(await event.getByTestId('item-fields').textContent()).toMatch(/Start .*\d{4}/);
    expect(await event.getByRole('combobox', { name: 'Version shown' }).textContent()).toMatch(/Version 1/);
    expect(await event.getByRole('button', { name: 'Download (.ics)' }).isVisible()).toBe(true);
    await photograph(page, 'mailbox-event', openFirst('calendar'));
    await photograph(page, 'mailbox-event-restore', async (p, language) => {
      await openFirst('calendar')(p);
      await p
        .getByRole('dialog')
        .getByRole('button', { name: language === 'de' ? 'Wiederherstellen' : 'Restore' })
        .click();
      await p.getByRole('alertdialog').getByRole('combobox').first().waitFor();
      await animationsSettled(p);
    });

    await page.goto(`${archivePath}?tab=contacts`);
    await openFirst('contacts')(page);
    const contact = page.getByRole('dialog');
    expect(await contact.getByRole('list', { name: 'E-mail addresses' }).textContent()).toMatch(/@/);
    expect(await contact.getByRole('button', { name: 'Download (.vcf)' }).isVisible()).toBe(true);
    await photograph(page, 'mailbox-contact', openFirst('contacts'));
  }, 600_000);

  it('restores an event and a contact into their mailbox; the restore runs end finished', async () => {
    const { page } = session;
    for (const tab of ['calendar', 'contacts'] as const) {
      await page.goto(`${archivePath}?tab=${tab}`);
      const button = firstItem(page, tab);
      await button.waitFor();
      const title = ((await button.textContent()) ?? '').trim();
      await button.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('heading', { name: `Restore 1 item from ${mailboxName}?` }).waitFor();
      expect(await confirm.getByLabel('Into the mailbox').inputValue()).toBe('');
      expect(await confirm.getByLabel('When it is there already').inputValue()).toBe('keepBoth');
      await confirm.getByRole('button', { name: 'Restore' }).click();
      await waitForText(
        page.getByTestId('restore-started'),
        new RegExp(`Restoring "${escaped(title)}" into ${escaped(mailboxName)}`),
        30_000,
      );
      restores.push(`Restore ${title} into ${mailboxName}`);
    }
    await page.getByRole('link', { name: 'Follow it in the job monitor' }).click();
    await page.waitForURL(/\/backup-and-restore\/job-monitor/);
    for (const name of restores) {
      // The run's state as its badge names it (the row's figures say "Finished" too, as a label).
      const state = await runEnded(page.getByRole('row', { name: new RegExp(escaped(name)) }).first());
      await page.screenshot({ path: join(SHOTS, `restore-monitor-${restores.indexOf(name)}.png`), fullPage: true });
      expect(state, name).toBe('finished');
    }
  }, 400_000);
});
