/**
 * A legal hold placed or released reads again, at once, everything whose answer counts what holds keep
 * (the cases, the mailboxes and their largest, the Teams archive's figures and tree, the deletion
 * previews), those no screen shows included, and nothing else. The reads are seeded here with the
 * keys the archive builds its own on (`sharedKeys`), as the archive's screens would have left them in
 * the cache, and answered by MSW from the SDK's catalogue.
 */
import {
  createClient,
  type DeletionPreview,
  type EdiscoveryCase,
  type Mailbox,
  type Page,
  type PortalClient,
  type TeamsArchiveNode,
  type TeamsArchiveStatistics,
} from '@compliance-portal/sdk';
import { createHandlers, type TypedResolvers } from '@compliance-portal/sdk/testing';
import { type QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../app/query-client';
import { sharedKeys } from '../../../shared/api/keys';
import { testMailbox, testPage } from '../../../testing/fixtures';
import { useHoldCase, useReleaseCase } from './mutations';
import { casesQuery, rightsQuery, searchQuery } from './queries';

const TENANT = 't1';
const WORKER = '10.64.0.2';
const INDEX = '10.65.0.2';
/** Another organisation's worker: a hold in this tenant changes nothing read from it. */
const OTHER_WORKER = '10.64.0.9';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const falcon: EdiscoveryCase = {
  caseId: 'k1',
  name: 'Falcon',
  search: { query: 'falcon', kinds: ['mail'], mailboxes: ['m1'], teams: [], chats: [] },
  createdBy: 'admin@example.com',
  createdAt: '2026-11-23T00:00:00.000Z',
  hits: 12,
  custodians: [{ kind: 'mailbox', id: 'm1', name: 'Adele Vance' }],
  hold: null,
};
const hold: NonNullable<EdiscoveryCase['hold']> = {
  heldAt: '2026-11-24T09:30:00.000Z',
  heldBy: 'admin@example.com',
  items: 12,
  custodians: [{ kind: 'mailbox', id: 'm1', name: 'Adele Vance', items: 12 }],
};

/**
 * The server's side: what a hold keeps now, and how often each read was answered (the mailbox list
 * per worker).
 */
function portalServer(initiallyHeld: number) {
  let held = initiallyHeld;
  const reads: Record<string, number> = {};
  const read = (name: string) => {
    reads[name] = (reads[name] ?? 0) + 1;
  };
  const mailbox = (): Mailbox => testMailbox({ held });
  const team = (): TeamsArchiveNode => ({
    nodeId: 'team-1',
    kind: 'team',
    name: 'Mark 8 Project Team',
    messageCount: 40,
    held,
    children: [],
  });
  const resolvers: TypedResolvers = {
    'apollo.ediscovery.holdCase': () => {
      held = 12;
      return HttpResponse.json({ ...falcon, hold });
    },
    'apollo.ediscovery.releaseCase': () => {
      held = 0;
      return HttpResponse.json({ ...falcon, hold: null });
    },
    'apollo.ediscovery.cases': () => {
      read('cases');
      return HttpResponse.json([{ ...falcon, hold: held ? hold : null }]);
    },
    'legacy.mailboxes.list': ({ params }) => {
      read(`mailboxes@${params.workerIp}`);
      return HttpResponse.json(testPage([mailbox()]));
    },
    'legacy.mailboxes.top': () => {
      read('mailboxesTop');
      return HttpResponse.json([mailbox()]);
    },
    'legacy.teams.statistics': () => {
      read('teamsStatistics');
      return HttpResponse.json({
        configured: true,
        periodDays: 30,
        teams: 1,
        channels: 1,
        chats: 0,
        messages: 40,
        bytes: 4096,
        held,
        heldSources: held ? 1 : 0,
        growth: [],
      });
    },
    'apollo.archive.teams': () => {
      read('teamsArchive');
      return HttpResponse.json([team()]);
    },
    'apollo.jobs.deletionPreview': () => {
      read('deletionPreview');
      return HttpResponse.json({
        before: '2025-11-24T00:00:00.000Z',
        items: 1200 - held,
        bytes: 1024,
        sources: 1,
        held,
        heldCustodians: held
          ? [{ caseId: 'k1', caseName: 'Falcon', kind: 'mailbox', id: 'm1', name: 'Adele Vance', items: held }]
          : [],
      });
    },
    'apollo.ediscovery.rights': () => {
      read('rights');
      return HttpResponse.json({ ediscoveryManager: true });
    },
    'apollo.locations.list': () => {
      read('locations');
      return HttpResponse.json([]);
    },
    'apollo.jobs.list': () => {
      read('jobs');
      return HttpResponse.json(testPage([]));
    },
    'apollo.ediscovery.search': () => {
      read('search');
      return HttpResponse.json({ ...testPage([]), searchedMailboxes: 1 });
    },
  };
  server.use(...createHandlers({ resolvers }));
  return { reads };
}

/** The reads a hold changes and some it does not, as the screens that show them would have left them. */
async function seed(api: PortalClient) {
  const queryClient = createQueryClient();
  const mailboxQuery = { page: 1, pageSize: 25, sort: 'name' };
  const previewRequest = { sources: ['m1'], retention: { unit: 'year' as const, value: 1 } };
  await Promise.all([
    queryClient.fetchQuery(casesQuery(api, TENANT)),
    queryClient.fetchQuery({
      queryKey: sharedKeys.mailboxList(WORKER, mailboxQuery),
      queryFn: () => api.legacy.mailboxes.list({ workerIp: WORKER, indexIp: INDEX, query: mailboxQuery }),
    }),
    queryClient.fetchQuery({
      queryKey: sharedKeys.mailboxesTop(WORKER),
      queryFn: () => api.legacy.mailboxes.top({ query: { workerIp: WORKER, limit: 10 } }),
    }),
    queryClient.fetchQuery({
      queryKey: sharedKeys.teamsStatistics(WORKER),
      queryFn: () => api.legacy.teams.statistics({ query: { workerIp: WORKER } }),
    }),
    queryClient.fetchQuery({
      queryKey: sharedKeys.teamsArchive(TENANT),
      queryFn: () => api.apollo.archive.teams({ tenantId: TENANT }),
    }),
    queryClient.fetchQuery({
      queryKey: sharedKeys.deletionPreview(TENANT, previewRequest),
      queryFn: () =>
        api.apollo.jobs.deletionPreview({ tenantId: TENANT, body: { application: 'exchange', ...previewRequest } }),
    }),
    // Unrelated: another worker's mailboxes, and what the tenant reads beside the holds.
    queryClient.fetchQuery({
      queryKey: sharedKeys.mailboxList(OTHER_WORKER, mailboxQuery),
      queryFn: () => api.legacy.mailboxes.list({ workerIp: OTHER_WORKER, indexIp: INDEX, query: mailboxQuery }),
    }),
    queryClient.fetchQuery(rightsQuery(api, TENANT)),
    queryClient.fetchQuery(searchQuery(api, TENANT, { query: 'falcon', kinds: ['mail'] }, 1, 25)),
    queryClient.fetchQuery({
      queryKey: sharedKeys.locations(TENANT),
      queryFn: () => api.apollo.locations.list({ tenantId: TENANT }),
    }),
    queryClient.fetchQuery({
      queryKey: sharedKeys.jobList(TENANT, { type: 'archiveDeletion' }),
      queryFn: () => api.apollo.jobs.list({ tenantId: TENANT, query: { type: 'archiveDeletion' } }),
    }),
  ]);
  return { queryClient, mailboxQuery, previewRequest };
}

/** The keys of the queries marked out of date and not read since. */
const outOfDate = (queryClient: QueryClient) =>
  queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => query.queryKey);

/** Each read once, as seeded. */
const SEEDED = {
  cases: 1,
  [`mailboxes@${WORKER}`]: 1,
  mailboxesTop: 1,
  teamsStatistics: 1,
  teamsArchive: 1,
  deletionPreview: 1,
  [`mailboxes@${OTHER_WORKER}`]: 1,
  rights: 1,
  search: 1,
  locations: 1,
  jobs: 1,
};

/** After the change: what a hold changes read a second time, the rest not. */
const AFTER_CHANGE = {
  ...SEEDED,
  cases: 2,
  [`mailboxes@${WORKER}`]: 2,
  mailboxesTop: 2,
  teamsStatistics: 2,
  teamsArchive: 2,
  deletionPreview: 2,
};

describe('placing a legal hold', () => {
  it('reads again every count of held items, those no screen shows too, and nothing else', async () => {
    const { reads } = portalServer(0);
    const api = createClient();
    const { queryClient, mailboxQuery, previewRequest } = await seed(api);
    expect(reads).toEqual(SEEDED);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const held: EdiscoveryCase[] = [];
    // The cases are on screen beside the Hold button; the archive's reads are on no screen.
    const { result } = renderHook(
      () => {
        useQuery(casesQuery(api, TENANT));
        return useHoldCase(api, TENANT, WORKER, (c) => held.push(c));
      },
      { wrapper },
    );

    await act(() => result.current.mutateAsync(falcon));

    expect(held.map((c) => c.hold?.items)).toEqual([12]);
    await waitFor(() => expect(reads).toEqual(AFTER_CHANGE));
    // Nothing observes these reads: they are fresh in the cache (and so in its offline copy) all the same.
    expect(queryClient.getQueryData<Page<Mailbox>>(sharedKeys.mailboxList(WORKER, mailboxQuery))?.items[0]?.held).toBe(
      12,
    );
    expect(queryClient.getQueryData<Mailbox[]>(sharedKeys.mailboxesTop(WORKER))?.[0]?.held).toBe(12);
    expect(queryClient.getQueryData<TeamsArchiveStatistics>(sharedKeys.teamsStatistics(WORKER))).toMatchObject({
      held: 12,
      heldSources: 1,
    });
    expect(queryClient.getQueryData<TeamsArchiveNode[]>(sharedKeys.teamsArchive(TENANT))?.[0]?.held).toBe(12);
    expect(queryClient.getQueryData<DeletionPreview>(sharedKeys.deletionPreview(TENANT, previewRequest))?.held).toBe(
      12,
    );
    expect(queryClient.getQueryData(casesQuery(api, TENANT).queryKey)?.[0]?.hold?.items).toBe(12);
    // Nothing is left marked out of date: not the unrelated reads (another worker's mailboxes, the
    // rights, a search, the locations, the jobs), and not a count of held items read again.
    expect(outOfDate(queryClient)).toEqual([]);
    queryClient.clear();
  });
});

describe('releasing a legal hold', () => {
  it('reads the same counts again, and nothing else', async () => {
    const { reads } = portalServer(12);
    const api = createClient();
    const { queryClient, mailboxQuery } = await seed(api);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const released: string[] = [];
    const { result } = renderHook(
      () => {
        useQuery(casesQuery(api, TENANT));
        return useReleaseCase(api, TENANT, WORKER, (c) => released.push(c.name));
      },
      { wrapper },
    );

    await act(() => result.current.mutateAsync({ ...falcon, hold }));

    expect(released).toEqual(['Falcon']);
    await waitFor(() => expect(reads).toEqual(AFTER_CHANGE));
    expect(queryClient.getQueryData<Page<Mailbox>>(sharedKeys.mailboxList(WORKER, mailboxQuery))?.items[0]?.held).toBe(
      0,
    );
    expect(outOfDate(queryClient)).toEqual([]);
    queryClient.clear();
  });
});
