// @vitest-environment node
/**
 * The overview end to end against its own server: each area card in its state's colour and words with
 * its runs of 30 days; the first-run guide ticking the connection step from the server's own record of
 * the connection test (consent withdrawn in Microsoft 365: the step is left, naming the permission;
 * granted again and tested: the guide goes), shown again from the help center; at 320 and 1350 px
 * without sideways scrolling or WCAG 2.1 A/AA violations, in English and German.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTOSO_TENANT,
  expectResponsiveAndAccessible,
  simulatorConsent,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: { history: true } });

/** Runs the active tenant's connection test in the configuration and waits for its answer. */
async function testConnection() {
  const { page } = session;
  await page.goto('/configuration');
  const active = page
    .getByRole('table', { name: 'Tenants' })
    .getByRole('row')
    // The active tenant: its ID is copied on demand, not shown.
    .filter({ has: page.getByText('Active', { exact: true }) })
    .filter({ has: page.getByRole('button', { name: 'Test connection' }) });
  await active.getByRole('button', { name: 'Test connection' }).click();
  await waitForText(page.getByTestId('connection-result'), /works \(\d+ ms\)/);
}

describe('the overview', () => {
  it('shows each area’s state in colour and words, with its runs of 30 days', async () => {
    const { page } = session;
    await session.signIn('/');
    const words = { failed: 'Failed', warnings: 'Warnings', fine: 'Fine', running: 'Running', pending: 'Waiting' };
    for (const area of ['backup', 'emailArchive', 'teamsArchive']) {
      const card = page.getByTestId(`area-${area}`);
      await waitForText(card.getByTestId(`runs-${area}`), /runs? in 30 days|No run in the last 30 days/, 30_000);
      const health = (await card.getAttribute('data-health')) as keyof typeof words | 'none';
      const badge = (await card.getByTestId('area-health').textContent()) ?? '';
      expect(badge).toBe(`State: ${health === 'none' ? 'No run yet' : words[health]}`);
    }
    // The demo's thirty days of backups: bars for the days with runs.
    expect(await page.getByTestId('runs-backup').locator('rect').count()).toBeGreaterThan(0);
    // Its first day tested the connection and made the jobs: no first-run step is left to show.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('first-run-guide').count()).toBe(0);
  });

  it('keeps the connection step open while a permission is missing, and goes when every step is done', async () => {
    const { page, server } = session;
    const granted = await simulatorConsent(server.url, CONTOSO_TENANT);
    await simulatorConsent(
      server.url,
      CONTOSO_TENANT,
      granted.filter((p) => p !== 'Chat.Read.All'),
    );
    await testConnection();
    await page.goto('/');
    const guide = page.getByTestId('first-run-guide');
    await guide.waitFor();
    const connection = guide.getByTestId('step-connection');
    expect(await connection.getAttribute('data-done')).toBe('false');
    await waitForText(connection, /Missing permissions: Chat\.Read\.All\./);
    expect(await guide.getByTestId('step-tenant').getAttribute('data-done')).toBe('true');
    // The guide at 320 and 1350 px, in English and German.
    await expectResponsiveAndAccessible(page, ['/'], {
      languages: ['en', 'de'],
      widths: [320, 1350],
      ready: async (_, { language }) => {
        await waitForText(connection, /Chat\.Read\.All/);
        if (language === 'de') await guide.getByRole('heading', { name: 'Das Portal einrichten' }).waitFor();
      },
    });

    await simulatorConsent(server.url, CONTOSO_TENANT, granted);
    await testConnection();
    await page.goto('/');
    await page.getByTestId('runs-backup').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('first-run-guide').count()).toBe(0);
  });

  it('shows the guide again from the help center, every step ticked', async () => {
    const { page } = session;
    await page.goto('/helpcenter');
    await page.getByRole('button', { name: 'Show the first-run guide' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const guide = page.getByTestId('first-run-guide');
    await waitForText(guide.getByTestId('first-run-progress'), /Every step is done/);
    await guide.getByRole('button', { name: 'Hide the guide' }).click();
    await page.getByTestId('first-run-hidden').waitFor();
    expect(await guide.count()).toBe(0);
  });
});
