// @vitest-environment node
/**
 * Destructive job operations confirmed, and the clean-up jobs as a list and a form, in Chromium
 * against a server of its own (the demo world with its thirty days of history, so that there is old
 * archived mail to delete, and its Microsoft 365 simulator): a deletion job of archived mail states in
 * its confirmation what it deletes with the preview's numbers before it is created, and its toast
 * names a deletion job; a clean-up job is created from the data-management navigation, started, and
 * its run appears in the data-management monitor. The confirmation and the clean-up screens are
 * photographed at 1440 and 390 px in English and German (into E2E_SCREENSHOTS, or a temporary
 * directory named in the output), and the clean-up list fits every breakpoint.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  animationsSettled,
  chooseLanguage,
  expectResponsiveAndAccessible,
  type Language,
  screenshotDirectory,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

const SHOTS = screenshotDirectory('job confirmation');

/** The words the steps look for, per language. */
const WORDS = {
  en: {
    createDeletion: 'Create deletion job…',
    createCleanup: 'Create clean-up job',
    jobName: /Job name/,
    createJob: 'Create job',
    unit: 'Unit',
    value: 'Number',
    recurrence: 'Recurrence',
  },
  de: {
    createDeletion: 'Löschauftrag anlegen…',
    createCleanup: 'Bereinigungsauftrag anlegen',
    jobName: /Name des Auftrags/,
    createJob: 'Auftrag anlegen',
    unit: 'Einheit',
    value: 'Anzahl',
    recurrence: 'Wiederholung',
  },
} as const;

/** The first data row's checkbox of the first table in `scope` (the source picker's). */
async function pickFirstSource(scope: Locator) {
  const row = scope.getByRole('table').first().getByRole('row').nth(1);
  await row.waitFor();
  // The dialog opens with an animation: on a busy machine its table could still be moving (once
  // "outside of the viewport") when the row is clicked, so the click waits until it has come to rest.
  await scope.evaluate((dialog) =>
    Promise.all(dialog.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined))),
  );
  await row.getByRole('checkbox').check({ force: true });
}

/** Photographs the page at 1440 and 390 px in English and German, `ready` bringing it to the state to show. */
async function photograph(page: Page, name: string, ready: (page: Page, language: Language) => Promise<void>) {
  const before = page.viewportSize();
  for (const language of ['en', 'de'] as Language[]) {
    await chooseLanguage(page, language);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await ready(page, language);
      await page.waitForLoadState('networkidle');
      // A dialog photographed while it fades in shows the page through its text.
      await animationsSettled(page);
      await page.screenshot({ path: join(SHOTS, `${name}-${language}-${width}.png`), fullPage: true });
    }
  }
  await chooseLanguage(page, 'en');
  if (before) await page.setViewportSize(before);
  await page.reload();
}

/** The deletion form filled in (a day's retention, the first mailbox) and submitted: its confirmation open. */
async function openDeletionConfirm(page: Page, language: Language, name: string) {
  const w = WORDS[language];
  await page.getByRole('button', { name: w.createDeletion, exact: true }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel(w.jobName).fill(name);
  await form.getByLabel(w.unit, { exact: true }).selectOption('days');
  await form.getByLabel(w.value, { exact: true }).fill('1');
  await pickFirstSource(form);
  const preview = form.getByTestId('deletion-preview');
  await waitForText(preview, /\d/, 30_000);
  // Read before the confirmation opens: a modal over the form hides the form from role queries.
  const previewText = (await preview.textContent()) ?? '';
  await form.getByRole('button', { name: w.createJob, exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByTestId('deletion-confirm-what').waitFor();
  return { form, confirm, previewText };
}

describe('a deletion job of archived mail', () => {
  it("is created only after a confirmation that states the preview's numbers, and its toast names a deletion job", {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    await session.signIn('/archive/deletion-jobs');
    const { form, confirm, previewText } = await openDeletionConfirm(page, 'en', 'Mail older than a day');
    // The same numbers as the form's preview, said as what will happen.
    const [, items, size, mailboxes] = /delete ([\d,]+) mails? \(([^)]+)\) from (\d+) mailbox/.exec(previewText) ?? [];
    expect(items).toBeDefined();
    const what = (await confirm.getByTestId('deletion-confirm-what').textContent()) ?? '';
    expect(what).toMatch(
      new RegExp(
        `^Deletes ${items} mails? \\(${size?.replace('.', '\\.')}\\) from ${mailboxes} mailbox(es)?, archived before .+; it cannot be undone\\.$`,
      ),
    );
    // The safe choice has the focus: Enter leaves the form as it was, nothing created.
    expect(await confirm.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(
      true,
    );
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Create job', exact: true }).click();
    await confirm.getByTestId('deletion-confirm-what').waitFor();
    await confirm.getByRole('button', { name: 'Create deletion job' }).click();
    await page.getByText('The deletion job "Mail older than a day" was created.').waitFor();
    await page.getByRole('table', { name: 'Deletion jobs' }).getByText('Mail older than a day').waitFor();

    await photograph(page, 'deletion-confirm', async (p, language) => {
      await openDeletionConfirm(p, language, language === 'en' ? 'Old mail' : 'Alte E-Mails');
    });
  });
});

describe('the clean-up jobs', () => {
  it('are created from the data-management navigation, started, and their run is in the monitor', {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    await page.goto('/compliance/dashboard');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Clean-up jobs' })
      .click();
    await page.waitForURL(/\/compliance\/jobs/);
    await page.getByRole('button', { name: 'Create clean-up job' }).click();
    const form = page.getByRole('dialog', { name: 'Create a clean-up job' });
    await form.getByLabel(/Job name/).fill('Keep two versions');
    await pickFirstSource(form);
    await form.getByLabel('Versions to keep').fill('2');
    await form.getByLabel('Recurrence').selectOption('weekly');
    await form.getByRole('button', { name: 'Create job', exact: true }).click();
    await page.getByText('The clean-up job "Keep two versions" was created.').waitFor();
    const table = page.getByRole('table', { name: 'Clean-up jobs' });
    const row = table.getByRole('row').filter({ hasText: 'Keep two versions' });
    await waitForText(row, /Keep the newest 2 versions/, 30_000);

    await row.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Start' }).click();
    await page
      .getByText(/"Keep two versions" (started|start)/)
      .first()
      .waitFor({ timeout: 60_000 });
    await page.goto('/compliance/monitoring');
    await waitForText(page.getByRole('row', { name: /Keep two versions/ }).first(), /Keep two versions/, 60_000);

    await page.goto('/compliance/jobs');
    await photograph(page, 'cleanup-jobs', async (p) => {
      await p.getByRole('table').first().getByRole('row').nth(1).waitFor();
    });
    await photograph(page, 'cleanup-form', async (p, language) => {
      const w = WORDS[language];
      await p.getByRole('button', { name: w.createCleanup }).click();
      const dialog = p.getByRole('dialog');
      await dialog.getByRole('button', { name: w.createJob, exact: true }).click();
      await dialog.getByRole('alert').first().waitFor();
    });
  });

  it('fit every breakpoint without sideways scrolling and have no WCAG 2.1 A/AA violation', async () => {
    await expectResponsiveAndAccessible(session.page, ['/compliance/jobs'], { languages: ['en', 'de'] });
  });
});
