import type { HeldItem, Report } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const report: Report = {
  reportId: 'r1',
  title: 'Mail retention 2026-11-23 02:00',
  jobId: 'j1',
  jobName: 'Mail retention',
  jobType: 'archiveDeletion',
  application: 'exchange',
  status: 'finished',
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:01:00.000Z',
  totals: { accounts: 0, items: 7, bytes: 1024, failures: 0 },
};
const held: HeldItem[] = [
  {
    itemId: '11',
    kind: 'mail',
    source: 'm1',
    sourceName: 'Adele Vance',
    subject: 'Falcon plan',
    sentAt: '2026-09-01T09:00:00.000Z',
    caseId: 'k1',
    caseName: 'Falcon',
  },
  {
    itemId: '12',
    kind: 'mail',
    source: 'm2',
    sourceName: 'Board',
    subject: null,
    sentAt: '2026-09-02T09:00:00.000Z',
    caseId: 'k1',
    caseName: 'Falcon',
  },
];

describe('an archive deletion report', () => {
  it('lists the items legal holds kept, with subjects only where the reader may read them, sorted on the server', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const queries: URLSearchParams[] = [];
    const { user } = await renderPortal('/archive/reports', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.reporting.list': respond('apollo.reporting.list', testPage([report])),
      'apollo.reporting.accounts': respond('apollo.reporting.accounts', testPage([])),
      'apollo.reporting.heldItems': ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json(testPage(held));
      },
    });
    await user.click(await screen.findByRole('row', { name: /Mail retention/ }));
    const table = await screen.findByRole('table', { name: 'Kept by legal hold' });
    const plan = await within(table).findByRole('row', { name: /Falcon plan/ });
    expect(within(plan).getByText('Falcon')).toBeTruthy();
    expect(within(table).getByText('Hidden: you may not read this mailbox')).toBeTruthy();
    expect(queries[0]?.get('sort')).toBe('sentAt');
    expect(queries[0]?.get('order')).toBe('desc');
    await user.click(within(table).getByRole('button', { name: 'Sort by Subject' }));
    await waitFor(() => expect(queries.at(-1)?.get('sort')).toBe('subject'));
    expect(screen.getByRole('heading', { name: 'Kept by legal hold' })).toBeTruthy();
  });
});
