// @vitest-environment node
/**
 * The session across tabs and time, as a partner: choosing a client, the trial dialog, logout in one
 * tab ending the others, the inactivity warning and logout on Playwright's clock, and activity in
 * one tab keeping another alive.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { layoutProblems, logOutThroughMenu, PARTNER, useBrowserSession, workAs } from './browser';

const WARNING_MS = 870_000;
const LOGOUT_MS = 900_000;

const session = useBrowserSession({
  viewport: { width: 1200, height: 900 },
  // The clock drives every tab of the context; it must be installed before the app loads.
  clock: true,
  // Counts the shared-activity notes each tab receives, so a test can wait for one to arrive
  // before it moves the clock on (storage events are delivered outside the fake clock).
  initScript: () => {
    const w = window as unknown as { activityNotes: number };
    w.activityNotes = 0;
    window.addEventListener('storage', (event) => {
      if (event.key === 'lastActivity') w.activityNotes += 1;
    });
  },
});

async function chooseClient(page: Page, name: string) {
  await page.waitForURL(/\/partner-setup/);
  await workAs(page, name);
}

async function signInAgain(page: Page) {
  await page.goto('/signin');
  await session.signInAgain(page, { email: PARTNER });
  await chooseClient(page, 'Northwind Traders');
  await page.getByTestId('user-menu').waitFor();
}

async function openSecondTab(): Promise<Page> {
  const second = await session.context.newPage();
  await second.goto('/reports');
  await second.getByTestId('user-menu').waitFor();
  return second;
}

const isOnSignin = (page: Page) => new URL(page.url()).pathname === '/signin';

describe('a partner', () => {
  it('chooses a client before any other page, and sees the trial dialog once for a trial client', async () => {
    const first = session.page;
    await session.signIn('/dashboard', { email: PARTNER, landing: '/partner-setup' });
    await chooseClient(first, 'Tailspin Toys');

    const dialog = first.getByTestId('trial-dialog');
    await dialog.waitFor();
    for (const limit of [en.trial.jobs, en.trial.sources, en.trial.noDelete, en.trial.restores]) {
      expect(await dialog.textContent()).toContain(limit);
    }
    await first.getByRole('button', { name: en.trial.ok }).click();
    await dialog.waitFor({ state: 'hidden' });
    const current = first.getByTestId('current-organisation');
    expect(await current.textContent()).toContain('Tailspin Toys');
    // The tenant by its Microsoft 365 domain (the simulator's, read at its start), never the worker's address.
    expect(await current.getByTestId('tenant-domain').textContent()).toMatch(/^t[0-9a-f]{6}\.onmicrosoft\.com$/);
    expect(await first.getByRole('banner').textContent()).not.toMatch(/\b10\.6[45]\.\d+\.\d+\b/);
    // On a phone too, the organisation is named beside the language switch and the user menu, all in view.
    const header = await layoutProblems(first, 'the header', {
      widths: [320, 1200],
      axeAt: [320],
      atWidth: async (width) => {
        for (const id of ['current-organisation', 'language-switch', 'user-menu']) {
          const box = await first.getByTestId(id).boundingBox();
          expect(box?.width, `${id} at ${width} px`).toBeGreaterThan(0);
          expect((box?.x ?? 0) + (box?.width ?? 0), `${id} at ${width} px`).toBeLessThanOrEqual(width);
        }
      },
    });
    expect(header).toEqual([]);

    await first.reload();
    await first.getByTestId('user-menu').waitFor();
    expect(await first.getByTestId('trial-dialog').count()).toBe(0);
  });

  it('logging out in one tab logs out the other tabs, and clears the trial flag', async () => {
    const first = session.page;
    const second = await openSecondTab();
    await logOutThroughMenu(first);
    await second.waitForURL(/\/signin/);
    expect(await first.evaluate(() => localStorage.getItem('trialDialogSeen'))).toBeNull();
    await second.close();
  });
});

describe('inactivity', () => {
  it('warns after 14:30 without activity and logs out at 15:00, in every tab', async () => {
    const { context, page: first } = session;
    await signInAgain(first);
    const second = await openSecondTab();
    // The last activity is the click that opened the second tab's page at the latest.
    await context.clock.fastForward(WARNING_MS + 1000);
    for (const page of [first, second]) {
      await page.getByText(en.auth.inactivityWarning).waitFor();
      expect(isOnSignin(page)).toBe(false);
    }
    await context.clock.fastForward(LOGOUT_MS - WARNING_MS);
    await first.waitForURL(/\/signin/);
    await second.waitForURL(/\/signin/);
    expect(await first.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await second.close();
  });

  it('activity in one tab keeps an idle tab alive', async () => {
    const { context, page: first } = session;
    await signInAgain(first);
    const idle = await openSecondTab();
    await context.clock.fastForward(600_000);
    const notes = () => idle.evaluate(() => (window as unknown as { activityNotes: number }).activityNotes);
    const before = await notes();
    await first.getByRole('heading', { level: 1 }).click();
    await expect.poll(notes).toBeGreaterThan(before);
    await context.clock.fastForward(600_000);
    // 20 minutes since the idle tab was last touched, 10 since the user worked in the other one.
    expect(isOnSignin(idle)).toBe(false);
    expect(await idle.getByText(en.auth.inactivityWarning).count()).toBe(0);
    expect(await idle.evaluate(() => localStorage.getItem('user'))).not.toBeNull();

    await context.clock.fastForward(LOGOUT_MS - 600_000 + 1000);
    await first.waitForURL(/\/signin/);
    await idle.waitForURL(/\/signin/);
    await idle.close();
  });
});
