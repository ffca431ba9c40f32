import type { Job, JobRun } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

function signedIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
  storeWorker(testWorker());
}

const run: JobRun = {
  reportId: 'r1',
  jobId: 'j1',
  jobName: 'Restore of Adele',
  jobType: 'restore',
  application: 'onedrive',
  status: 'failed',
  progress: 100,
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:05:00.000Z',
  itemsProcessed: 10,
  itemsFailed: 2,
  bytesProcessed: 100,
};

const job: Job = {
  jobId: 'j1',
  name: 'Nightly SharePoint',
  type: 'backup',
  application: 'sharepoint',
  sources: [],
  locationId: 'l1',
  recurrence: { kind: 'daily', hours: [2] },
  retention: { unit: 'months', value: 6 },
  status: 'finished',
  enabled: true,
  progress: 100,
  started: null,
  finished: null,
  nextRun: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

/** The query of each request, as name → value. */
const asked = (list: URLSearchParams[]) => list.map((q) => Object.fromEntries(q.entries()));

describe('the job lists in the address', () => {
  it('opens the monitor on the page, type and status of its address, and writes a new status into it', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    const { portal, user } = await renderPortal(
      '/backup-and-restore/job-monitor?page=2&type=restore&status=failed&sort=jobName&order=asc',
      {
        'legacy.workers.client': respond('legacy.workers.client', testClient()),
        'apollo.monitoring.list': ({ request }) => {
          queries.push(new URL(request.url).searchParams);
          return HttpResponse.json({ ...testPage([run]), page: 2, total: 30 });
        },
      },
    );
    expect(await screen.findByText('Restore of Adele')).toBeTruthy();
    expect(asked(queries)[0]).toMatchObject({
      type: 'restore',
      status: 'failed',
      page: '2',
      sort: 'jobName',
      order: 'asc',
    });
    expect((screen.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).value).toBe('restore');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('failed');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'running');
    // The new status, back on the first page; the rest of the address stays.
    await waitFor(() =>
      expect(portal.router.state.location.search).toEqual({
        type: 'restore',
        status: 'running',
        sort: 'jobName',
        order: 'asc',
      }),
    );
    await waitFor(() => expect(asked(queries).at(-1)).toMatchObject({ type: 'restore', status: 'running', page: '1' }));

    // The default status leaves the address.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), '');
    await waitFor(() =>
      expect(portal.router.state.location.search).toEqual({ type: 'restore', sort: 'jobName', order: 'asc' }),
    );
  });

  it('drops from the address what the list does not offer', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    await renderPortal('/backup-and-restore/reports?type=teamsArchive&status=running&page=0', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.reporting.list': ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json(testPage([]));
      },
    });
    expect(await screen.findByText('No reports match.')).toBeTruthy();
    // Teams archive runs are not the backup area's, nor is "running" a report's status.
    const first = asked(queries)[0];
    expect(first).toMatchObject({ type: 'backup', page: '1' });
    expect(first?.status).toBeUndefined();
    // The route's loader asked for the list the page reads: the page does not ask again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queries).toHaveLength(1);
  });

  it('opens the jobs list filtered by the application of its address, and clears the filter from it', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    const { portal, user } = await renderPortal('/backup-and-restore/backup-jobs?application=sharepoint&search=Night', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', []),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
      'apollo.jobs.list': ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        return HttpResponse.json(testPage(query.get('pageSize') === '500' ? [] : [job]));
      },
    });
    expect(await screen.findByRole('row', { name: /Nightly SharePoint/ })).toBeTruthy();
    const list = asked(queries).filter((q) => q.pageSize !== '500');
    expect(list[0]).toMatchObject({ type: 'backup', application: 'sharepoint', search: 'Night', page: '1' });
    const filter = screen.getByRole('combobox', { name: 'Application' }) as HTMLSelectElement;
    expect(filter.value).toBe('sharepoint');

    await user.selectOptions(filter, '');
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ search: 'Night' }));
    await waitFor(() => expect(asked(queries).at(-1)?.application).toBeUndefined());
  });
});
