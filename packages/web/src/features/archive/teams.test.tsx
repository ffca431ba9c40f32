import { screen } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const client = () => HttpResponse.json(testClient());
const stats = (configured: boolean) => ({
  configured,
  periodDays: 30,
  teams: 2,
  channels: 5,
  chats: 0,
  messages: 321,
  bytes: 1024 ** 2,
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
      'legacy.teams.statistics': () => HttpResponse.json(stats(false)),
    });
    expect((await screen.findByTestId('teams-not-configured')).textContent).toContain('Teams is not configured yet.');
  });

  it('shows the archived teams, channels and messages', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': () => HttpResponse.json(stats(true)),
    });
    expect((await screen.findByTestId('figure-Archived messages')).textContent).toBe('321');
    expect(screen.getByTestId('figure-Archived channels').textContent).toBe('5');
    expect(screen.getByRole('img', { name: /Messages archived per day/ })).toBeTruthy();
  });
});
