import type { DiscoveredSource, JobCreate } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const client = respond('legacy.workers.client', testClient());
const stats = (configured: boolean) => ({
  configured,
  periodDays: 30,
  teams: 2,
  channels: 5,
  chats: 7,
  messages: 321,
  bytes: 1024 ** 2,
  held: 0,
  heldSources: 0,
  growth: [
    { date: '2026-10-24', messages: 0 },
    { date: '2026-11-23', messages: 321 },
  ],
});

describe('the Teams archive dashboard', () => {
  it('says when Teams is not configured yet', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': respond('legacy.teams.statistics', stats(false)),
    });
    expect((await screen.findByTestId('teams-not-configured')).textContent).toContain('Teams is not configured yet.');
  });

  it('shows the archived teams, channels and messages', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': respond('legacy.teams.statistics', stats(true)),
    });
    expect((await screen.findByTestId('figure-Items protected')).textContent).toBe('321');
    expect(screen.getByTestId('figure-Archived channels').textContent).toBe('5');
    expect(screen.getByTestId('figure-Archived chats').textContent).toBe('7');
    expect(
      screen.getByRole('img', { name: /^Messages per day: archived, and deleted by retention: Archived per day/ }),
    ).toBeTruthy();
    expect(screen.queryByTestId('teams-held')).toBeNull();
  });

  it('says how many messages legal holds keep, and in how many teams and chats', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': respond('legacy.teams.statistics', { ...stats(true), held: 12, heldSources: 2 }),
    });
    expect((await screen.findByTestId('teams-held')).textContent).toBe(
      'Legal holdLegal hold keeps 12 messages in 2 teams or chats from deletion.',
    );
  });
});

describe('Teams archive jobs', () => {
  it('archive the chosen teams and the chats of the chosen accounts', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let created: JobCreate | undefined;
    const discovered: Record<'teams' | 'exchange', DiscoveredSource[]> = {
      teams: [{ sourceId: 't1', kind: 'team', displayName: 'Project Falcon', protected: false }],
      exchange: [
        {
          sourceId: 'u1',
          kind: 'mailbox',
          displayName: 'Adele Vance',
          email: 'adele@contoso.example',
          protected: true,
        },
        {
          sourceId: 'u2',
          kind: 'mailbox',
          displayName: 'Alex Wilber',
          email: 'alex@contoso.example',
          protected: false,
        },
      ],
    };
    const { user } = await renderPortal('/teams/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': ({ request }) => {
        const application = new URL(request.url).searchParams.get('application') as 'teams' | 'exchange';
        const items = discovered[application];
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 10 });
      },
      'apollo.jobs.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(createdJob({ locationId: 'l1', ...created }));
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create Teams archive job' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Teams');
    await user.click(await within(dialog).findByLabelText('Select Project Falcon'));
    const chats = within(dialog).getByRole('table', { name: /accounts/ });
    // Whether an account's mail is archived says nothing of its chats: no "protected" column here.
    expect(within(chats).queryByText('Protected')).toBeNull();
    await user.click(within(chats).getByLabelText('Select Alex Wilber'));
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      name: 'Teams',
      type: 'teamsArchive',
      application: 'teams',
      sources: ['t1'],
      chats: ['u2'],
      locationId: 'l1',
    });
  });

  it('need at least one team, and days for a schedule on days of the week', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let created = 0;
    const { user } = await renderPortal('/teams/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
      'apollo.jobs.create': () => {
        created += 1;
        return HttpResponse.json(createdJob({ name: 'x', type: 'teamsArchive', application: 'teams', sources: [] }));
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create Teams archive job' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Teams');
    await user.selectOptions(within(dialog).getByLabelText('Recurrence'), 'daysOfWeek');
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('At least one item must be selected.');
    // The schedule says what it lacks itself.
    expect(within(dialog).getAllByText('At least one item must be selected.')).toHaveLength(2);
    expect(created).toBe(0);
  });
});
