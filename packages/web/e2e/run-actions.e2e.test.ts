// @vitest-environment node
/**
 * A run's stop and retry from the monitor, against a server of its own (the demo world and its
 * simulator): the demo's running clean-up stopped from its row; then, at 1440 and 390 px in English
 * and German, the demo's failed OneDrive backup retried from its row (the notice's link opens the new
 * run's drawer), and the new run, held running by Microsoft 365 throttling every drive request,
 * stopped from the drawer's header. Each state is photographed (into E2E_SCREENSHOTS, or a temporary
 * directory named in the output) and the monitor checked for sideways scrolling and WCAG 2.1 A/AA.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  animationsSettled,
  chooseLanguage,
  type Language,
  layoutProblems,
  screenshotDirectory,
  simulatorThrottle,
  simulatorThrottleSetting,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

const SHOTS = screenshotDirectory('run actions');

const TEXTS = {
  en: {
    retry: 'Retry',
    stop: 'Stop',
    openRun: 'Show the new run',
    running: 'Running',
    whole: (name: string) => `Running "${name}" again in full.`,
    stopped: (name: string) => `"${name}" was stopped. Its scheduled runs are paused until it is started again.`,
  },
  de: {
    retry: 'Wiederholen',
    stop: 'Anhalten',
    openRun: 'Neuen Lauf anzeigen',
    running: 'Läuft',
    whole: (name: string) => `„${name}“ wird vollständig erneut ausgeführt.`,
    stopped: (name: string) =>
      `„${name}“ wurde angehalten. Geplante Läufe ruhen, bis der Auftrag wieder gestartet wird.`,
  },
} as const;

/** `text` matched literally. */
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

async function shoot(page: Page, name: string) {
  // The drawer slides in and out: photographed once it stands still.
  await animationsSettled(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe('stop and retry where the run is shown', () => {
  it('stops the demo’s running clean-up from its row in the monitor', async () => {
    const { page } = session;
    await session.signIn('/compliance/monitoring');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Stop' }) })
      .first();
    await row.waitFor({ timeout: 60_000 });
    const name = ((await row.getByRole('cell').first().getByRole('button').first().textContent()) ?? '').trim();
    await row.getByRole('button', { name: 'Stop' }).click();
    await page.getByText(TEXTS.en.stopped(name)).waitFor({ timeout: 90_000 });
    // The row's button acted alone: no drawer opened.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await waitForText(page.getByRole('row', { name: literally(name) }).first(), /Pending|Stopped/, 30_000);
    // Once the clean-up ended the demo lifts its throttling: wait for that before setting ours.
    const deadline = Date.now() + 60_000;
    while ((await simulatorThrottleSetting(session.server.url)).every !== 0) {
      if (Date.now() > deadline) throw new Error('the demo kept its clean-up throttled after the clean-up ended');
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  for (const language of ['en', 'de'] as Language[]) {
    for (const width of [1440, 390]) {
      it(`retries the failed backup and stops the new run from its drawer (${language}, ${width} px)`, async () => {
        const { page } = session;
        const texts = TEXTS[language];
        // Every drive request refused with a wait: the retry stays running long enough to be stopped.
        await simulatorThrottle(session.server.url, {
          every: 1,
          status: 429,
          retryAfter: 6,
          paths: '^/v1\\.0/drives/',
        });
        try {
          await chooseLanguage(page, language);
          await page.setViewportSize({ width, height: 900 });
          await page.goto('/backup-and-restore/job-monitor?status=failed');
          // The demo's OneDrive backup that met Microsoft Graph unavailable one night.
          const failed = page
            .getByRole('row', { name: /OneDrive/ })
            .filter({ has: page.getByRole('button', { name: texts.retry }) })
            .first();
          await failed.waitFor();
          // The run's name is its first cell's button (on a phone the cell also holds its dates).
          const name = (
            (await failed.getByRole('cell').first().getByRole('button').first().textContent()) ?? ''
          ).trim();
          expect(name).not.toBe('');
          await failed.getByRole('button', { name: texts.retry }).click();
          const notice = page.getByTestId('run-notice');
          await waitForText(notice, literally(texts.whole(name)), 30_000);
          expect(await page.getByRole('dialog').count()).toBe(0);
          await shoot(page, `run-retried-${language}-${width}`);
          expect(
            await layoutProblems(page, `monitor with the retry notice (${language})`, {
              widths: [width],
              axeAt: [width],
            }),
          ).toEqual([]);

          await notice.getByRole('button', { name: texts.openRun }).click();
          const drawer = page.getByRole('dialog');
          await drawer.waitFor();
          await waitForText(drawer, new RegExp(texts.running), 60_000);
          await shoot(page, `run-retry-running-${language}-${width}`);

          await drawer.getByRole('button', { name: texts.stop }).click();
          await page.getByText(texts.stopped(name)).first().waitFor({ timeout: 90_000 });
          // Stopped: nothing to stop any more; it can be retried in turn.
          await drawer.getByRole('button', { name: texts.retry }).waitFor({ timeout: 30_000 });
          expect(await drawer.getByRole('button', { name: texts.stop }).count()).toBe(0);
          await shoot(page, `run-stopped-${language}-${width}`);
          await page.keyboard.press('Escape');
          await drawer.waitFor({ state: 'detached' });
        } finally {
          await simulatorThrottle(session.server.url, { every: 0 });
          await chooseLanguage(page, 'en');
        }
      });
    }
  }
});
