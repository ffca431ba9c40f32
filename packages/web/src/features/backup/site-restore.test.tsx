import type { DiscoveryNode, Job, JobCreate, JobRun } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();

const backup: Job = {
  jobId: 'j1',
  name: 'Intranet',
  type: 'backup',
  application: 'sharepoint',
  sources: ['s1'],
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
  jobName: 'Intranet',
  jobType: 'backup',
  application: 'sharepoint',
  status: 'finished',
  progress: 100,
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:05:00.000Z',
  itemsProcessed: 10,
  itemsFailed: 0,
  bytesProcessed: 100,
};
const node = (n: Partial<DiscoveryNode> & Pick<DiscoveryNode, 'nodeId' | 'kind' | 'name'>): DiscoveryNode => ({
  parentId: null,
  path: `/${n.name}`,
  sizeBytes: 0,
  modified: '2026-11-20T10:00:00.000Z',
  hasChildren: false,
  ...n,
});
const library = node({ nodeId: 'drive:d1', kind: 'library', name: 'Documents', hasChildren: true, sizeBytes: 2048 });
const list = node({ nodeId: 'list:L1', kind: 'list', name: 'Issues', hasChildren: true, itemCount: 3 });
const pages = node({ nodeId: 'pages', kind: 'pages', name: 'Site pages', hasChildren: true, itemCount: 2 });
const items = [
  node({ nodeId: 'listItem:L1:1', parentId: 'list:L1', kind: 'listItem', name: 'Printer jams', version: '3.0' }),
  node({ nodeId: 'listItem:L1:2', parentId: 'list:L1', kind: 'listItem', name: 'VPN drops', version: '1.0' }),
];
const home = node({ nodeId: 'page:p1', parentId: 'pages', kind: 'page', name: 'Home', version: '2.0' });

/** The site's tree as the server answers it, node by node. */
const tree: Record<string, DiscoveryNode[]> = { root: [library, list, pages], 'list:L1': items, pages: [home] };

function resolvers(created: (body: JobCreate) => void, csvAsked: (url: URL) => void): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.jobs.list': respond('apollo.jobs.list', testPage([backup])),
    'apollo.discovery.users': respond(
      'apollo.discovery.users',
      testPage([{ sourceId: 's1', kind: 'site', displayName: 'Intranet site', protected: true }]),
    ),
    'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([snapshot])),
    'apollo.discovery.items': ({ params }) => HttpResponse.json(testPage(tree[String(params.nodeId)] ?? [])),
    'apollo.discovery.listCsv': ({ request }) => {
      csvAsked(new URL(request.url));
      return new HttpResponse('Title\r\nPrinter jams\r\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="Issues.csv"',
        },
      });
    },
    'apollo.jobs.create': async ({ request }) => {
      created(await request.json());
      return HttpResponse.json(
        { ...backup, jobId: 'j2', name: 'Restore', type: 'restore', status: 'running', progress: 10 },
        { status: 201 },
      );
    },
    'apollo.jobs.get': respond('apollo.jobs.get', {
      ...backup,
      jobId: 'j2',
      name: 'Restore',
      type: 'restore',
      status: 'running',
      progress: 10,
    }),
  };
}

describe("the restore of a site's lists and pages", () => {
  const saved: string[] = [];
  beforeEach(() => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    // jsdom has no object URLs: the saved file is what the link was given.
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: vi.fn(() => 'blob:csv'),
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    saved.length = 0;
    localStorage.removeItem('language');
  });

  async function openSite(created: (body: JobCreate) => void = () => {}, csvAsked: (url: URL) => void = () => {}) {
    const view = await renderPortal('/backup-and-restore/restore', resolvers(created, csvAsked));
    const { user } = view;
    await user.selectOptions(await screen.findByLabelText(/Backup job|Sicherungsauftrag/), 'j1');
    await user.selectOptions(
      screen.getByLabelText(/^(Source|Quelle)$/),
      await screen.findByRole('option', { name: 'Intranet site' }),
    );
    await user.selectOptions(
      screen.getByLabelText(/Snapshot date|Datum/),
      await screen.findByRole('option', { name: /2026/ }),
    );
    return view;
  }

  it('shows lists with their item count and the pages group, opens a list, and restores items, a list and pages', async () => {
    let body: JobCreate | undefined;
    const { user } = await openSite((b) => {
      body = b;
    });
    const table = await screen.findByRole('table');
    await within(table).findByText('Issues');
    expect(within(table).getByText('List · 3 items')).toBeTruthy();
    expect(within(table).getByText('Site pages')).toBeTruthy();
    expect(within(table).getByText('Site pages · 2 pages')).toBeTruthy();
    expect(within(table).getByText('Library')).toBeTruthy();
    // Sizes: the library's; a list and the pages group have none, shown as nothing rather than "0 B".
    expect(within(table).getByText('2 KB')).toBeTruthy();
    expect(within(table).queryByText('0 B')).toBeNull();

    // The whole pages group and, inside the list, one item.
    await user.click(screen.getByLabelText('Select Site pages'));
    await user.click(screen.getByRole('button', { name: 'Issues' }));
    expect((await screen.findByTestId('current-folder')).textContent).toBe('Issues');
    await screen.findByText('Printer jams');
    expect(screen.getByText('List item · Version 3.0')).toBeTruthy();
    await user.click(screen.getByLabelText('Select Printer jams'));
    expect(screen.getByTestId('restore-selection').textContent).toBe('1 list item and 2 pages selected');

    await user.click(screen.getByRole('button', { name: 'Restore…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('1 list item and 2 pages of Intranet site');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body?.restore).toMatchObject({
      sourceJobId: 'j1',
      sourceId: 's1',
      nodeIds: ['pages', 'listItem:L1:1'],
      target: 'original',
    });
  });

  it('counts a whole list as its items beside files, in German too', async () => {
    localStorage.setItem('language', 'de');
    const { user } = await openSite();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Liste · 3 Elemente')).toBeTruthy();
    expect(within(table).getByText('Websiteseiten')).toBeTruthy();
    await user.click(screen.getByLabelText(/Issues/, { selector: 'input' }));
    await user.click(screen.getByLabelText(/Documents/, { selector: 'input' }));
    expect(screen.getByTestId('restore-selection').textContent).toBe('1 Element und 3 Listenelemente ausgewählt');
  });

  it("downloads a list's items as csv at the chosen snapshot", async () => {
    let asked: URL | undefined;
    const { user } = await openSite(undefined, (url) => {
      asked = url;
    });
    await user.click(await screen.findByRole('button', { name: 'Download the items of Issues as CSV' }));
    await waitFor(() => expect(saved).toEqual(['Issues.csv']));
    expect(asked?.pathname).toMatch(/\/discovery\/l1\/source\/s1\/lists\/L1\/csv$/);
    expect(asked?.searchParams.get('snapshot')).toBe('2026-11-23T02:05:00.000Z');
    // Only lists offer it.
    expect(screen.queryByRole('button', { name: /Documents as CSV/ })).toBeNull();
  });
});
