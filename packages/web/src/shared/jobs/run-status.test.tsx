/**
 * A run said the same way in the monitor and its drawer: a failed run names its failed account with
 * the reason and Microsoft's code, a success is never red, a throttled run says why and when it tries
 * next (English and German), progress never exceeds what is done, and a queued run shows when it was
 * queued instead of "Pending 0%".
 */
import type { JobRun, RunAccount } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { paletteOf } from '../../testing/palette';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const base: JobRun = {
  reportId: 'r-1',
  jobId: 'j-1',
  jobName: 'Nightly OneDrive',
  jobType: 'backup',
  application: 'onedrive',
  status: 'finished',
  state: 'finished',
  progress: 100,
  queuedAt: '2026-11-23T01:59:00.000Z',
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:04:05.000Z',
  durationSeconds: 245,
  itemsProcessed: 40,
  itemsFound: 40,
  itemsFailed: 0,
  bytesProcessed: 4 * 1024 * 1024,
  itemsPerSecond: 0.16,
  bytesPerSecond: 17_000,
  accountsTotal: 2,
  accountsFailed: 0,
  warnings: 0,
  message: 'Finished.',
};

const run = (overrides: Partial<JobRun>): JobRun => ({ ...base, ...overrides });

const failedRun = run({
  reportId: 'r-failed',
  jobName: 'Refused backup',
  status: 'failed',
  state: 'failed',
  progress: 40,
  itemsProcessed: 0,
  itemsFailed: 0,
  accountsFailed: 2,
  message: 'Insufficient privileges to complete the operation.',
  failure: {
    reason: 'Insufficient privileges to complete the operation.',
    code: 'Authorization_RequestDenied',
    status: 403,
  },
});

const guest: RunAccount = {
  accountId: 'guest_fabrikam.example#EXT#@contoso.example',
  displayName: 'Gerda Guest',
  status: 'failed',
  items: 0,
  failedItems: 0,
  bytes: 0,
  errors: ['Gerda Guest: Insufficient privileges to complete the operation.'],
  failures: [
    {
      item: 'Gerda Guest',
      reason: 'Insufficient privileges to complete the operation.',
      code: 'Authorization_RequestDenied',
      status: 403,
      wholeAccount: true,
    },
  ],
};

const NEXT_TRY = '2026-11-23T14:02:00.000Z';
const throttledRun = run({
  reportId: 'r-throttled',
  jobName: 'Throttled clean-up',
  status: 'running',
  state: 'running',
  progress: 40,
  finished: null,
  durationSeconds: 600,
  itemsProcessed: 380,
  itemsFound: 950,
  message: undefined,
  throttling: {
    waiting: true,
    since: '2026-11-23T13:55:00.000Z',
    nextTryAt: NEXT_TRY,
    status: 429,
    retries: 3,
    waitedSeconds: 0,
  },
});

const time = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(new Date(iso));

/** The statuses the run's accounts were asked for with (the drawer's filter). */
const askedStatuses: (string | null)[] = [];

async function monitor(runs: JobRun[], accounts: RunAccount[] = []) {
  storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
  storeWorker(testWorker());
  askedStatuses.length = 0;
  return renderPortal('/backup-and-restore/job-monitor', {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.monitoring.list': respond('apollo.monitoring.list', testPage(runs)),
    'apollo.monitoring.accounts': ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      askedStatuses.push(status);
      return HttpResponse.json(
        testPage(status === 'failed' ? accounts.filter((a) => a.status === 'failed') : accounts),
      );
    },
  });
}

const rowOf = async (name: string) => {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row as HTMLElement;
};

describe('a run in the monitor', () => {
  it('failed: names the failed account with its reason and Microsoft’s code, never "Failures 0" or "—"', async () => {
    const { user } = await monitor([failedRun], [guest]);
    const row = await rowOf('Refused backup');
    expect(paletteOf(within(row).getByText('Failed'))).toBe('red');
    // The failures column: the accounts that failed, not "0".
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim() ?? '');
    const failures = headers.findIndex((h) => h.startsWith('Failures'));
    expect(failures).toBeGreaterThan(0);
    expect(within(row).getAllByRole('cell')[failures]?.textContent).toBe('2 accounts');
    await user.click(within(row).getByText('Refused backup'));
    const drawer = await screen.findByRole('dialog');
    const message = within(drawer).getByTestId('run-message');
    expect(message.textContent).toContain('Why the run failed');
    expect(paletteOf(within(message).getByText('Insufficient privileges to complete the operation.'))).toBe('red');
    expect(message.textContent).toContain('Authorization_RequestDenied (HTTP 403)');
    const figures = within(drawer).getByTestId('run-figures');
    expect(figures.textContent).toContain('Failed accounts2 of 2');
    expect(figures.textContent).not.toMatch(/Failures0/);
    const account = (await within(drawer).findByText('Gerda Guest', { selector: 'td, td *' })).closest('tr');
    if (!account) throw new Error('no account row');
    const failure = within(account as HTMLElement).getByTestId('run-failure');
    expect(failure.textContent).toContain('Gerda Guest: Insufficient privileges to complete the operation.');
    expect(failure.textContent).toContain('Authorization_RequestDenied (HTTP 403)');
    expect(account.textContent).not.toContain('—');
    expect(account.textContent).not.toContain('guest_fabrikam');
  });

  it('failed on Microsoft’s side, in German: the cause in German, Microsoft’s own words beside it', async () => {
    localStorage.setItem('language', 'de');
    const said = 'The service is temporarily unavailable. Retry after a while.';
    const failure = { reason: said, code: 'serviceNotAvailable', status: 503 };
    const { user } = await monitor(
      [run({ ...failedRun, reportId: 'r-503', jobName: 'Ausfall', message: said, failure })],
      [{ ...guest, failures: [{ item: 'Gerda Guest', ...failure, wholeAccount: true }] }],
    );
    await user.click(within(await rowOf('Ausfall')).getByText('Ausfall'));
    const drawer = await screen.findByRole('dialog');
    const message = within(drawer).getByTestId('run-message');
    expect(
      paletteOf(within(message).getByText(/^Microsoft 365 ist zurzeit nicht verfügbar \(ein Fehler auf der Seite/)),
    ).toBe('red');
    expect(message.textContent).toContain(`Microsoft 365 meldete: „${said}“`);
    expect(message.textContent).toContain('serviceNotAvailable (HTTP 503)');
    const account = await within(drawer).findByTestId('run-failure');
    expect(account.textContent).toMatch(/^Gerda Guest: Microsoft 365 ist zurzeit nicht verfügbar/);
    expect(account.textContent).toContain(`Microsoft 365 meldete: „${said}“`);
  });

  it('filters a run’s accounts to the failed ones, on the server', async () => {
    const adele: RunAccount = {
      ...guest,
      accountId: 'adele@contoso.example',
      displayName: 'Adele Vance',
      status: 'finished',
      errors: [],
      failures: [],
    };
    const { user } = await monitor(
      [run({ reportId: 'r-mixed', jobName: 'Mixed', accountsFailed: 1, itemsFailed: 1, warnings: 1 })],
      [adele, guest],
    );
    await user.click(within(await rowOf('Mixed')).getByText('Mixed'));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByText('Adele Vance');
    await user.selectOptions(within(drawer).getByLabelText('Show accounts'), 'Failed accounts only');
    await waitFor(() => expect(within(drawer).queryByText('Adele Vance')).toBeNull());
    expect(within(drawer).getByText('Gerda Guest', { selector: 'td' })).toBeTruthy();
    expect(askedStatuses).toContain('failed');
  });

  it('just started, before its first account: says the accounts come as it starts them, not "No accounts in this run"', async () => {
    const { user } = await monitor([
      run({
        reportId: 'r-new',
        jobName: 'Just started',
        status: 'running',
        state: 'running',
        progress: 0,
        finished: null,
        durationSeconds: 2,
        itemsProcessed: 0,
        itemsFound: 0,
        message: undefined,
      }),
      run({ reportId: 'r-none', jobName: 'Ended empty', itemsProcessed: 0, itemsFound: 0 }),
    ]);
    await user.click(within(await rowOf('Just started')).getByText('Just started'));
    let drawer = await screen.findByRole('dialog');
    expect(
      await within(drawer).findByText('No account has been read yet; the run lists each one as it starts it.'),
    ).toBeTruthy();
    expect(within(drawer).queryByText('No accounts in this run.')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(await rowOf('Ended empty')).getByText('Ended empty'));
    drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('No accounts in this run.')).toBeTruthy();
  });

  it('finished: its message "Finished." is never red, and its badge is green', async () => {
    const { user } = await monitor([run({ reportId: 'r-ok', jobName: 'Clean run' })]);
    const row = await rowOf('Clean run');
    expect(paletteOf(within(row).getByText('Finished'))).toBe('green');
    expect(within(row).getByText('4 min 5 s')).toBeTruthy();
    await user.click(within(row).getByText('Clean run'));
    const drawer = await screen.findByRole('dialog');
    const message = within(drawer).getByTestId('run-message');
    expect(message.textContent).toBe('Finished.');
    expect(paletteOf(message)).not.toBe('red');
    expect(message.getAttribute('data-tone')).toBe('gray');
  });

  it('finished with failed items: a warning in amber, not an error', async () => {
    const { user } = await monitor([
      run({
        reportId: 'r-warn',
        jobName: 'Partly',
        itemsFailed: 2,
        warnings: 2,
        accountsFailed: 1,
        message: 'Finished with 2 items that could not be processed.',
      }),
    ]);
    const row = await rowOf('Partly');
    expect(paletteOf(within(row).getByText('Finished with warnings'))).toBe('orange');
    await user.click(within(row).getByText('Partly'));
    const message = within(await screen.findByRole('dialog')).getByTestId('run-message');
    expect(paletteOf(message)).toBe('orange');
  });

  it('throttled: says that Microsoft 365 is limiting requests, when it tries next and how often it retried', async () => {
    await monitor([throttledRun]);
    const row = await rowOf('Throttled clean-up');
    const note = within(row).getByTestId('run-throttling');
    expect(note.textContent).toBe(
      `Microsoft 365 is limiting requests; next try at ${time(NEXT_TRY, 'en')} (3 retries)`,
    );
    expect(paletteOf(within(row).getByText('Running'))).toBe('blue');
  });

  it('once the run ended: how often it retried, and how long it waited only when it waited at all', async () => {
    const ended = { waiting: false, since: null, nextTryAt: null, status: 503 } as const;
    await monitor([
      run({ reportId: 'r-waited', jobName: 'Waited', throttling: { ...ended, retries: 5, waitedSeconds: 125 } }),
      run({ reportId: 'r-at-once', jobName: 'At once', throttling: { ...ended, retries: 5, waitedSeconds: 0 } }),
    ]);
    expect(within(await rowOf('Waited')).getByTestId('run-throttling').textContent).toBe(
      'Microsoft 365 made this run wait and retry 5 times (2 min 5 s in all).',
    );
    // Not "(0 s in all)": retried at once, it did not wait.
    expect(within(await rowOf('At once')).getByTestId('run-throttling').textContent).toBe(
      'Microsoft 365 made this run retry requests 5 times.',
    );
  });

  it('throttled, in German: the same in German', async () => {
    localStorage.setItem('language', 'de');
    await monitor([
      throttledRun,
      run({
        reportId: 'r-503',
        jobName: 'Nicht verfügbar',
        status: 'running',
        state: 'running',
        finished: null,
        throttling: { waiting: true, since: null, nextTryAt: NEXT_TRY, status: 503, retries: 1, waitedSeconds: 0 },
      }),
    ]);
    const row = await rowOf('Throttled clean-up');
    expect(within(row).getByTestId('run-throttling').textContent).toBe(
      `Microsoft 365 drosselt die Anfragen; nächster Versuch um ${time(NEXT_TRY, 'de')} (3 Wiederholungen)`,
    );
    const unavailable = await rowOf('Nicht verfügbar');
    expect(within(unavailable).getByTestId('run-throttling').textContent).toBe(
      `Microsoft 365 ist vorübergehend nicht verfügbar; nächster Versuch um ${time(NEXT_TRY, 'de')} (1 Wiederholung)`,
    );
    localStorage.removeItem('language');
  });

  it('progress never exceeds what is done: a running run is never at 100 %, a finished one always', async () => {
    const { user } = await monitor([
      run({
        reportId: 'r-a',
        jobName: 'First item',
        status: 'running',
        state: 'running',
        finished: null,
        progress: 2,
        itemsProcessed: 1,
        itemsFound: 40,
      }),
      run({
        reportId: 'r-b',
        jobName: 'Nearly',
        status: 'running',
        state: 'running',
        finished: null,
        progress: 100,
        itemsProcessed: 40,
        itemsFound: 41,
      }),
      run({ reportId: 'r-c', jobName: 'Done', progress: 97 }),
    ]);
    expect(within(await rowOf('First item')).getByTestId('run-progress').textContent).toBe('2%');
    expect(within(await rowOf('Nearly')).getByTestId('run-progress').textContent).toBe('99%');
    expect(within(await rowOf('Done')).getByTestId('run-progress').textContent).toBe('100%');
    await user.click(within(await rowOf('First item')).getByText('First item'));
    const figures = within(await screen.findByRole('dialog')).getByTestId('run-figures');
    expect(figures.textContent).toContain('Items processed1 of 40 found');
  });

  it('queued on creation: "Queued" with the time it was queued, not "Pending 0%"', async () => {
    const queuedAt = '2026-11-23T09:15:00.000Z';
    await monitor([
      run({
        reportId: 'r-q',
        jobName: 'Started on creation',
        status: 'pending',
        state: 'queued',
        progress: 0,
        queuedAt,
        started: null,
        finished: null,
        durationSeconds: null,
        itemsProcessed: 0,
        itemsFound: 0,
        message: undefined,
      }),
    ]);
    const row = await rowOf('Started on creation');
    expect(paletteOf(within(row).getByText('Queued'))).toBe('gray');
    expect(within(row).getByTestId('run-queued').textContent).toBe(`Queued at ${time(queuedAt, 'en')}`);
    expect(within(row).queryByText('Pending')).toBeNull();
    expect(within(row).queryByTestId('run-progress')).toBeNull();
  });
});
