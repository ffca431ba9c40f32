import type { Job, JobRun, JobTask, RunRetry } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../components/ui/save-blob';
import { storeUser, storeWorker } from '../../session/storage';
import { testPage as page, testClient, testWorker } from '../../testing/fixtures';
import { paletteOf } from '../../testing/palette';
import { renderPortal, startMsw } from '../../testing/portal';

vi.mock('../../components/ui/save-blob', () => ({ saveBlob: vi.fn() }));

startMsw();

function signedIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
  storeWorker(testWorker());
}
const clientAnswer = respond('legacy.workers.client', testClient());

const run = (over: Partial<JobRun> & Pick<JobRun, 'reportId' | 'jobName' | 'status'>): JobRun => ({
  jobId: `j-${over.jobName}`,
  jobType: 'backup',
  application: 'onedrive',
  progress: over.status === 'finished' || over.status === 'failed' ? 100 : 40,
  started: '2026-11-23T02:00:00.000Z',
  finished: over.status === 'finished' || over.status === 'failed' ? '2026-11-23T02:05:00.000Z' : null,
  itemsProcessed: 10,
  itemsFailed: 0,
  bytesProcessed: 100,
  ...over,
});

const job = (over: Partial<Job> = {}): Job => ({
  jobId: 'j1',
  name: 'Nightly OneDrive',
  type: 'backup',
  application: 'onedrive',
  sources: ['u1'],
  locationId: 'l1',
  recurrence: { kind: 'daily', hours: [2] },
  retention: null,
  status: 'finished',
  enabled: true,
  progress: 100,
  started: null,
  finished: null,
  nextRun: '2026-11-24T02:00:00.000Z',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

/** A blob's text (jsdom's Blob has no text()). */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

const rowOf = async (name: string) => {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row as HTMLElement;
};

describe('a run’s actions in the monitor', () => {
  it('stop a running run and say so; offer no stop or retry to a run that ended well', async () => {
    signedIn();
    const stops: string[] = [];
    let lists = 0;
    const { user } = await renderPortal('/backup-and-restore/job-monitor', {
      'legacy.workers.client': clientAnswer,
      'apollo.monitoring.list': () => {
        lists += 1;
        return HttpResponse.json(
          page([
            run({ reportId: 'r1', jobName: 'Now', status: 'running', retryable: false }),
            run({ reportId: 'r2', jobName: 'Clean', status: 'finished', retryable: false }),
          ]),
        );
      },
      'apollo.jobs.stop': ({ params }) => {
        stops.push(String(params.jobId));
        const task: JobTask = { taskId: 't1', jobId: String(params.jobId), action: 'stop', status: 'succeeded' };
        return HttpResponse.json(task, { status: 202 });
      },
    });
    const clean = await rowOf('Clean');
    expect(within(clean).queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(within(clean).queryByRole('button', { name: 'Retry' })).toBeNull();
    const now = await rowOf('Now');
    expect(within(now).queryByRole('button', { name: 'Retry' })).toBeNull();
    const before = lists;
    await user.click(within(now).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(stops).toEqual(['j-Now']));
    expect(
      await screen.findByText('"Now" was stopped. Its scheduled runs are paused until it is started again.'),
    ).toBeTruthy();
    // The same toast said "stopping" first and now says "stopped": one toast, not two stacked.
    expect(screen.queryByText(/^Stopping "Now"/)).toBeNull();
    // The lists are read again: the stopped run shows as it is now.
    await waitFor(() => expect(lists).toBeGreaterThan(before));
    // The row's button acts alone: the run's drawer did not open.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('retry a failed run: only its failed items, announced with a link that opens the new run', async () => {
    signedIn();
    const retried: string[] = [];
    const failed = run({ reportId: 'r1', jobName: 'Broken', status: 'failed', itemsFailed: 2, retryable: true });
    const retry = run({
      reportId: 'r9',
      jobId: failed.jobId,
      jobName: 'Broken',
      status: 'pending',
      state: 'queued',
      started: null,
      retryOf: 'r1',
    });
    const { user } = await renderPortal('/backup-and-restore/job-monitor', {
      'legacy.workers.client': clientAnswer,
      'apollo.monitoring.list': () => HttpResponse.json(page(retried.length > 0 ? [retry, failed] : [failed])),
      'apollo.monitoring.accounts': respond('apollo.monitoring.accounts', page([])),
      'apollo.monitoring.retry': ({ params }) => {
        retried.push(String(params.reportId));
        const answer: RunRetry = {
          reportId: 'r9',
          jobId: failed.jobId,
          retryOf: String(params.reportId),
          scope: 'failedItems',
          count: 2,
        };
        return HttpResponse.json(answer, { status: 202 });
      },
    });
    await user.click(within(await rowOf('Broken')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(retried).toEqual(['r1']));
    const notice = await screen.findByTestId('run-notice');
    expect(notice.textContent).toContain('Retrying the 2 failed items of "Broken".');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(notice).getByRole('button', { name: 'Show the new run' }));
    const drawer = await screen.findByRole('dialog');
    // The new run, queued: it can be stopped, not retried.
    expect(drawer.querySelector('[data-status="queued"]')).not.toBeNull();
    expect(within(drawer).getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('retry from the run’s drawer goes on with the new run, and a refusal is said in words', async () => {
    signedIn();
    let refuseNext = true;
    const failed = run({ reportId: 'r1', jobName: 'Broken', status: 'failed', retryable: true });
    const retry = run({
      reportId: 'r9',
      jobId: failed.jobId,
      jobName: 'Broken',
      status: 'pending',
      state: 'queued',
      started: null,
    });
    let done = false;
    const { user } = await renderPortal('/backup-and-restore/job-monitor?status=failed', {
      'legacy.workers.client': clientAnswer,
      'apollo.monitoring.list': ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        const items = done ? [retry, failed] : [failed];
        return HttpResponse.json(page(status ? items.filter((r) => r.status === status) : items));
      },
      'apollo.monitoring.accounts': respond('apollo.monitoring.accounts', page([])),
      'apollo.monitoring.retry': () => {
        if (refuseNext) {
          refuseNext = false;
          return refuse(409, { title: 'The job has a run queued or running; retry once it ended.' });
        }
        done = true;
        return HttpResponse.json(
          { reportId: 'r9', jobId: failed.jobId, retryOf: 'r1', scope: 'wholeJob', count: 0 } satisfies RunRetry,
          { status: 202 },
        );
      },
    });
    await user.click(await rowOf('Broken'));
    let drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/^"Broken" could not be retried\./)).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('run-notice')).textContent).toContain('Running "Broken" again in full.');
    // The failed-only filter would hide the queued retry: it is lifted, and the drawer shows the new run.
    // A selector, not a role query: getByRole walks the whole monitor each try and, on a busy machine,
    // took seconds a try, so that the wait ended before it saw the new run.
    await waitFor(() => expect(document.querySelector('[role="dialog"] [data-status="queued"]')).not.toBeNull());
    drawer = document.querySelector('[role="dialog"]') as HTMLElement;
    expect(within(drawer).getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  it('offer a restore’s download beside its size in one formatting, and fetch it', async () => {
    signedIn();
    const saved = vi.mocked(saveBlob);
    saved.mockClear();
    const asked: string[] = [];
    const { user } = await renderPortal('/backup-and-restore/job-monitor?type=restore', {
      'legacy.workers.client': clientAnswer,
      'apollo.monitoring.list': respond(
        'apollo.monitoring.list',
        page([
          run({
            reportId: 'r1',
            jobName: 'Restore Adele',
            jobType: 'restore',
            status: 'finished',
            bytesProcessed: 24_269,
            message: 'Prepared a download of 3 files.',
            download: { size: 24_269 },
          }),
        ]),
      ),
      'legacy.jobs.downloadRestoreArchive': async ({ request }) => {
        asked.push(((await request.json()) as { jobId: string }).jobId);
        return new HttpResponse(new Blob(['zip']), {
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="restore.zip"' },
        });
      },
    });
    const row = await rowOf('Restore Adele');
    await user.click(within(row).getByRole('button', { name: 'Download (23.7 KB)' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(asked).toEqual(['j-Restore Adele']);
    expect(saved.mock.calls[0]?.[1]).toBe('restore.zip');
  });
});

describe('a jobs list’s runs', () => {
  const location = {
    locationId: 'l1',
    name: 'Vault',
    siteAddress: 'https://x',
    usedByJobs: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('show the last run (how it ended, in its colour, and when), its duration and the next run; sorted on the server', async () => {
    signedIn();
    const queries: string[] = [];
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page([])),
      'apollo.jobs.list': ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json(
          page([
            job({
              jobId: 'j1',
              name: 'Nightly OneDrive',
              lastRun: {
                reportId: 'r1',
                status: 'failed',
                started: '2026-11-23T02:00:00.000Z',
                finished: '2026-11-23T03:02:05.000Z',
                durationSeconds: 3725,
                itemsFailed: 0,
              },
            }),
            job({
              jobId: 'j2',
              name: 'Weekly SharePoint',
              application: 'sharepoint',
              lastRun: {
                reportId: 'r2',
                status: 'finished',
                started: '2026-11-22T02:00:00.000Z',
                finished: '2026-11-22T02:04:10.000Z',
                durationSeconds: 250,
                itemsFailed: 3,
              },
            }),
            job({ jobId: 'j3', name: 'New job', status: 'pending', progress: 0, nextRun: null }),
          ]),
        );
      },
    });
    const nightly = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    const failed = within(nightly).getByText('Failed');
    expect(paletteOf(failed)).toBe('red');
    expect(within(nightly).getByTestId('last-run').textContent).toContain('Nov 23, 2026');
    expect(within(nightly).getByText('1 h 2 min')).toBeTruthy();
    const weekly = screen.getByRole('row', { name: /Weekly SharePoint/ });
    expect(paletteOf(within(weekly).getByText('Finished with warnings'))).toBe('orange');
    expect(within(weekly).getByText('4 min 10 s')).toBeTruthy();
    const fresh = screen.getByRole('row', { name: /New job/ });
    expect(within(fresh).getByText('Not run yet')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sort by Last run' }));
    await waitFor(() => expect(queries.some((q) => q.includes('sort=lastRun'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Sort by Duration' }));
    await waitFor(() => expect(queries.some((q) => q.includes('sort=duration'))).toBe(true));
  });

  it('export the last run and the next run with every job of the list', async () => {
    signedIn();
    const saved = vi.mocked(saveBlob);
    saved.mockClear();
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page([])),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        page([
          job({
            lastRun: {
              reportId: 'r1',
              status: 'stopped',
              started: '2026-11-23T02:00:00.000Z',
              finished: '2026-11-23T02:00:42.000Z',
              durationSeconds: 42,
              itemsFailed: 0,
            },
          }),
        ]),
      ),
    });
    await screen.findByRole('row', { name: /Nightly OneDrive/ });
    await user.click(screen.getByRole('button', { name: 'Export csv' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const text = await readText(saved.mock.calls[0]?.[0] as Blob);
    // A csv has no header row (an xlsx has one): name, application, sources, recurrence, retention, the
    // last run (how it ended, when, seconds), the next run and the status.
    const [line] = text.replace('\uFEFF', '').split('\r\n');
    expect(line).toBe(
      'Nightly OneDrive,OneDrive,u1,Daily · 02:00,Forever,Stopped,2026-11-23T02:00:42.000Z,42,2026-11-24T02:00:00.000Z,Finished',
    );
  });

  it('start a job with visible feedback: the run queued at once and a link to it in the monitor', async () => {
    signedIn();
    let started = false;
    const asked: string[] = [];
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page([])),
      'apollo.jobs.list': () =>
        HttpResponse.json(page([job(started ? { status: 'pending', progress: 0 } : { status: 'finished' })])),
      'apollo.jobs.start': ({ params }) => {
        started = true;
        const task: JobTask = { taskId: 't1', jobId: String(params.jobId), action: 'start', status: 'succeeded' };
        return HttpResponse.json(task, { status: 202 });
      },
      'apollo.monitoring.list': ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('jobId') ?? '');
        return HttpResponse.json(
          page([
            run({ reportId: 'r-new', jobId: 'j1', jobName: 'Nightly OneDrive', status: 'pending', started: null }),
          ]),
        );
      },
      'apollo.monitoring.accounts': respond('apollo.monitoring.accounts', page([])),
    });
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    await user.click(within(row).getByRole('button', { name: 'Start…' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Start' }));
    const notice = await screen.findByTestId('started-notice');
    // The job's newest run was asked for.
    expect(asked).toEqual(['j1']);
    expect(notice.textContent).toContain('"Nightly OneDrive" was started; its run is queued.');
    const link = within(notice).getByRole('link', { name: 'Show the run in the monitor' });
    expect(link.getAttribute('href')).toBe('/backup-and-restore/job-monitor?type=backup&run=r-new');
    // The list shows the queued run.
    await waitFor(() =>
      expect(within(screen.getByRole('row', { name: /Nightly OneDrive/ })).getByText('Pending')).toBeTruthy(),
    );
    await user.click(link);
    // The monitor opens with the run's drawer.
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('button', { name: 'Stop' })).toBeTruthy();
  });
});
