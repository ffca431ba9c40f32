import type { DiscoveryNode, Job, JobCreate, JobRun } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const backup: Job = {
  jobId: 'j1',
  name: 'Nightly OneDrive',
  type: 'backup',
  application: 'onedrive',
  sources: ['u1'],
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
const snapshot: JobRun = {
  reportId: 'r1',
  jobId: 'j1',
  jobName: 'Nightly OneDrive',
  jobType: 'backup',
  application: 'onedrive',
  status: 'finished',
  progress: 100,
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:05:00.000Z',
  itemsProcessed: 10,
  itemsFailed: 0,
  bytesProcessed: 100,
};
const file: DiscoveryNode = {
  nodeId: 'n1',
  parentId: null,
  kind: 'file',
  name: 'Budget.xlsx',
  path: '/Budget.xlsx',
  sizeBytes: 1024,
  modified: null,
  hasChildren: false,
};

describe('the restore', () => {
  it('restores an item of a snapshot to its place after the confirmation, then shows its progress', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    let body: JobCreate | undefined;
    const { user } = await renderPortal('/backup-and-restore/restore', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([backup])),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        testPage([{ sourceId: 'u1', kind: 'user', displayName: 'Adele Vance', protected: true }]),
      ),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([snapshot])),
      'apollo.discovery.items': respond('apollo.discovery.items', testPage([file])),
      'apollo.jobs.create': async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { ...backup, jobId: 'j2', name: 'Restore', type: 'restore', status: 'running', progress: 40 },
          { status: 201 },
        );
      },
      'apollo.jobs.get': respond('apollo.jobs.get', {
        ...backup,
        jobId: 'j2',
        name: 'Restore',
        type: 'restore',
        status: 'running',
        progress: 40,
      }),
    });
    await user.selectOptions(await screen.findByLabelText('Backup job'), 'j1');
    await user.selectOptions(
      screen.getByLabelText('Source'),
      await screen.findByRole('option', { name: 'Adele Vance' }),
    );
    const date = await screen.findByRole('option', { name: /2026/ });
    await user.selectOptions(screen.getByLabelText('Snapshot date'), date);
    await user.click(await screen.findByLabelText('Select Budget.xlsx'));
    expect(screen.getByTestId('restore-selection').textContent).toBe('1 item selected');

    await user.click(screen.getByRole('button', { name: 'Restore…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('1 item of Adele Vance');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body?.restore).toEqual({
      sourceJobId: 'j1',
      snapshot: '2026-11-23T02:05:00.000Z',
      sourceId: 'u1',
      nodeIds: ['n1'],
      target: 'original',
      conflictPolicy: 'keepBoth',
    });
    expect((await screen.findByTestId('restore-progress')).textContent).toBe('40%');
  });

  it('keeps the folder trail a list of its own items only (WCAG 1.3.1: each <li> a child of its <ol>)', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const folder: DiscoveryNode = {
      ...file,
      nodeId: 'f1',
      kind: 'folder',
      name: 'Reports',
      path: '/Reports',
      hasChildren: true,
    };
    const { user } = await renderPortal('/backup-and-restore/restore', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([backup])),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        testPage([{ sourceId: 'u1', kind: 'user', displayName: 'Adele Vance', protected: true }]),
      ),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([snapshot])),
      'apollo.discovery.items': respond('apollo.discovery.items', testPage([folder, file])),
    });
    await user.selectOptions(await screen.findByLabelText('Backup job'), 'j1');
    await user.selectOptions(
      screen.getByLabelText('Source'),
      await screen.findByRole('option', { name: 'Adele Vance' }),
    );
    await user.selectOptions(
      screen.getByLabelText('Snapshot date'),
      await screen.findByRole('option', { name: /2026/ }),
    );
    const [open] = await screen.findAllByTestId('open-node');
    await user.click(open as HTMLElement);
    const current = await screen.findByTestId('current-folder');
    const trail = current.closest('ol');
    expect(trail).not.toBeNull();
    expect([...(trail?.children ?? [])].map((child) => child.tagName)).toEqual(['LI', 'LI', 'LI']);
  });
});
