// @vitest-environment node
/**
 * The portal's form dialogs and wizards at their sizes: at 1440 × 900 each is as tall as its content
 * (no blank space below the form; a form taller than the window scrolls inside a dialog that stays
 * within it), at every step of the backup job's wizard too; on a tablet (700 px) still a dialog with a
 * margin either side; on a phone (390 px) the whole screen. Nothing is saved: each dialog is cancelled.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rowAction, useBrowserSession } from './browser';

// A server of its own: the shared one's state (sign-in lockouts, trial limits used up) is other files'.
const session = useBrowserSession({ ownServer: true });

/** The open dialog's box against its content and the window. */
interface Fit {
  /** Height of the dialog's box, and the window's. */
  height: number;
  windowHeight: number;
  width: number;
  windowWidth: number;
  top: number;
  bottom: number;
  /** Space below the body's last part, inside its padding (0 when the dialog fits its content). */
  blank: number;
  /** Whether the body scrolls (its content is taller than the room the window leaves). */
  scrolls: boolean;
}

function measure(dialog: Locator): Promise<Fit> {
  return dialog.evaluate((content) => {
    const body = content.querySelector<HTMLElement>('.chakra-dialog__body');
    if (!body) throw new Error('the dialog has no body');
    const box = content.getBoundingClientRect();
    const bodyBox = body.getBoundingClientRect();
    const parts = [...body.children].filter((part) => part.getBoundingClientRect().height > 0);
    const end = Math.max(
      bodyBox.top + Number.parseFloat(getComputedStyle(body).paddingTop),
      ...parts.map(
        (part) => part.getBoundingClientRect().bottom + Number.parseFloat(getComputedStyle(part).marginBottom),
      ),
    );
    return {
      height: box.height,
      windowHeight: window.innerHeight,
      width: box.width,
      windowWidth: window.innerWidth,
      top: box.top,
      bottom: box.bottom,
      blank: bodyBox.bottom - Number.parseFloat(getComputedStyle(body).paddingBottom) - end,
      scrolls: body.scrollHeight > body.clientHeight + 1,
    };
  });
}

/** The dialog fits its content and the window: what the test says of every dialog at 1440 and 700 px. */
async function expectSizedToContent(dialog: Locator, what: string) {
  // Once its opening animation has ended.
  await dialog.evaluate((content) =>
    Promise.all(
      content
        .getAnimations({ subtree: true })
        // A loading placeholder's pulse or a spinner never ends: only the opening's animations are waited for.
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        // An animation replaced meanwhile rejects its `finished`: it has ended too.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const fit = await measure(dialog);
  expect(fit.top, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(fit.bottom, `${what}: bottom`).toBeLessThanOrEqual(fit.windowHeight);
  expect(fit.height, `${what}: not the window's height`).toBeLessThan(fit.windowHeight);
  expect(fit.width, `${what}: a margin either side`).toBeLessThan(fit.windowWidth);
  if (!fit.scrolls) expect(fit.blank, `${what}: blank space below the content`).toBeLessThanOrEqual(1);
  return fit;
}

/** Opens a page's form dialog by its button. */
async function open(page: Page, path: string, button: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(path);
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

/** Closed by its close button (a wizard's later steps have Back where the first has Cancel). */
async function close(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Each form dialog: where it opens and its button. */
const DIALOGS = [
  ['/archive/jobs', 'Create archive job'],
  ['/archive/deletion-jobs', 'Create deletion job…'],
  ['/teams/jobs', 'Create Teams archive job'],
  ['/compliance/jobs', 'Create clean-up job'],
  ['/configuration', 'Add tenant'],
  ['/configuration', 'Connect by admin consent'],
  ['/configuration?tab=locations', 'Add location'],
  ['/configuration?tab=users', 'Invite a user'],
] as const;

describe('dialogs', () => {
  it('size the backup job wizard to each step at 1440 × 900, and fill a phone’s screen', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1440, height: 900 });
    await session.signIn('/backup-and-restore/backup-jobs');
    const dialog = await open(page, '/backup-and-restore/backup-jobs', 'Create backup job');
    const step = dialog.getByTestId('form-step');
    const heights: number[] = [];
    heights.push((await expectSizedToContent(dialog, 'application')).height);
    await dialog.getByLabel('Job name').fill('Sized to its content');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await step.filter({ hasText: 'Sources' }).waitFor();
    await dialog.getByRole('row').nth(1).waitFor();
    heights.push((await expectSizedToContent(dialog, 'sources')).height);
    await dialog.getByRole('row').nth(1).getByRole('checkbox').check({ force: true });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await step.filter({ hasText: 'Schedule' }).waitFor();
    heights.push((await expectSizedToContent(dialog, 'schedule')).height);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await step.filter({ hasText: 'Retention' }).waitFor();
    heights.push((await expectSizedToContent(dialog, 'retention')).height);
    // Each step its own height: not one fixed size for all.
    expect(new Set(heights.map(Math.round)).size, heights.join(', ')).toBeGreaterThan(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(async () => {
        const fit = await measure(dialog);
        return [fit.top, fit.height, fit.width];
      })
      .toEqual([0, 844, 390]);
    await close(dialog);
  });

  for (const [path, button] of DIALOGS) {
    it(`size “${button}” to its content at 1440 × 900 and on a tablet, and fill a phone’s screen`, async () => {
      const { page } = session;
      const dialog = await open(page, path, button);
      await expectSizedToContent(dialog, `${button} at 1440`);
      await page.setViewportSize({ width: 700, height: 900 });
      await expectSizedToContent(dialog, `${button} at 700`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect
        .poll(async () => {
          const fit = await measure(dialog);
          return [fit.top, fit.height, fit.width];
        })
        .toEqual([0, 844, 390]);
      await close(dialog);
    });
  }

  it('size a confirmation to its text at 1440 × 900', async () => {
    const { page } = session;
    await page.goto('/configuration');
    // Deleting the demo's tenant asks first; it is cancelled.
    const row = page.getByRole('table', { name: 'Tenants' }).getByRole('row').nth(1);
    await rowAction(row, 'Delete…');
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    await expectSizedToContent(confirm, 'confirmation');
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
  });
});
