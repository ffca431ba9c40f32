import type { SignedInSession, SignInActivity } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();

const session = (over: Partial<SignedInSession>): SignedInSession => ({
  sessionId: 's1',
  current: true,
  device: { browser: 'Firefox 128', os: 'Windows', type: 'desktop' },
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  ip: '198.51.100.4',
  method: 'password',
  signedInAt: '2026-11-02T08:00:00.000Z',
  lastActiveAt: '2026-11-02T09:30:00.000Z',
  ...over,
});

const activity: SignInActivity = { items: [], total: 0, page: 1, pageSize: 10, otherSessions: 0 };

function world() {
  let sessions: SignedInSession[] = [
    session({}),
    session({
      sessionId: 's2',
      current: false,
      device: { browser: 'Safari 17', os: 'iOS 17.5', type: 'mobile' },
      ip: '203.0.113.9',
      signedInAt: '2026-11-01T18:00:00.000Z',
      lastActiveAt: '2026-11-01T18:20:00.000Z',
    }),
    session({
      sessionId: 's3',
      current: false,
      device: { browser: null, os: null, type: 'unknown' },
      userAgent: null,
      ip: null,
      method: 'microsoft',
      signedInAt: '2026-10-30T07:00:00.000Z',
      lastActiveAt: '2026-10-30T07:00:00.000Z',
    }),
  ];
  const revoked: string[] = [];
  const reads = { count: 0 };
  let refuseNext = false;
  const resolvers: Resolvers = {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'legacy.auth.activity': respond('legacy.auth.activity', activity),
    'legacy.sessions.list': () => {
      reads.count++;
      return HttpResponse.json({ items: sessions });
    },
    'legacy.sessions.revoke': ({ params }) => {
      revoked.push(String(params.sessionId));
      if (refuseNext) {
        refuseNext = false;
        return refuse(404, { message: 'Session not found' });
      }
      sessions = sessions.filter((s) => s.sessionId !== params.sessionId);
      return new HttpResponse(null, { status: 200 });
    },
    'legacy.auth.revokeOtherSessions': () => {
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return HttpResponse.json({ revoked: ended });
    },
  };
  return {
    resolvers,
    revoked,
    reads,
    refuseNext: () => {
      refuseNext = true;
    },
  };
}

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

describe('the account’s signed-in sessions', { timeout: 60_000 }, () => {
  it('lists device, browser, address, sign-in and last activity, the current one marked and not signed out here', async () => {
    signedIn();
    const w = world();
    await renderPortal('/account/settings?tab=activity', w.resolvers);
    const list = await screen.findByRole('list', { name: 'Sessions' });
    const items = await within(list).findAllByTestId('session');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(
        /^Firefox 128 on WindowsThis sessionComputer · Signed in Nov 2, 2026, 8:00\sAM with password · last active Nov 2, 2026, 9:30\sAM · from 198\.51\.100\.4$/,
      ),
      expect.stringMatching(/^Safari 17 on iOS 17\.5Phone · Signed in .* · from 203\.0\.113\.9Sign out…$/),
      expect.stringMatching(
        /^Unknown browserUnknown device · Signed in .* with Microsoft · .* · from an unknown addressSign out…$/,
      ),
    ]);
    expect(items[0]?.getAttribute('data-current')).toBe('true');
    expect(within(items[0] as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('signs out another session after asking, and then all the others', async () => {
    signedIn();
    const w = world();
    const { user } = await renderPortal('/account/settings?tab=activity', w.resolvers);
    const list = await screen.findByRole('list', { name: 'Sessions' });
    await within(list).findByText('Safari 17 on iOS 17.5');
    await user.click(
      within(list).getByRole('button', { name: /^Sign out Safari 17 on iOS 17\.5, signed in Nov 1, 2026/ }),
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'Sign out this session?' }, { timeout: 5000 });
    expect(within(dialog).getByText(/^Safari 17 on iOS 17\.5 \(signed in Nov 1, 2026/)).toBeTruthy();
    // Cancel changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(w.revoked).toEqual([]);

    await user.click(within(list).getByRole('button', { name: /^Sign out Safari 17/ }));
    dialog = await screen.findByRole('alertdialog', { name: 'Sign out this session?' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await screen.findByText('The session was signed out.');
    await waitFor(() => expect(within(list).queryByText('Safari 17 on iOS 17.5')).toBeNull());
    expect(w.revoked).toEqual(['s2']);

    // The page's button opens the dialog; the dialog's own button, found inside it, confirms.
    await user.click(screen.getByRole('button', { name: 'Sign out every other session…' }));
    const all = await screen.findByRole('alertdialog', { name: 'Sign out every other session?' });
    await user.click(within(all).getByRole('button', { name: 'Sign out every other session' }));
    expect(await screen.findByText('1 other session was signed out.')).toBeTruthy();
    await waitFor(() => expect(within(list).getAllByTestId('session')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sign out every other session…' })).toHaveProperty('disabled', true);
  });

  it('says a refusal in the dialog, in German, and reads the list again', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    const w = world();
    const { user } = await renderPortal('/account/settings?tab=activity', w.resolvers);
    const list = await screen.findByRole('list', { name: 'Sitzungen' });
    const items = await within(list).findAllByTestId('session');
    expect(items[0]?.textContent).toMatch(
      /^Firefox 128 unter WindowsDiese SitzungComputer · Angemeldet .* mit Passwort/,
    );
    w.refuseNext();
    const readsBefore = w.reads.count;
    await user.click(within(list).getByRole('button', { name: /^Safari 17 unter iOS 17\.5 abmelden/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Diese Sitzung abmelden?' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Abmelden' }));
    expect(
      await within(dialog).findByText('Die Sitzung wurde nicht abgemeldet. Ressource nicht gefunden'),
    ).toBeTruthy();
    // Gone already (signed out elsewhere): the list is read again.
    await waitFor(() => expect(w.reads.count).toBeGreaterThan(readsBefore));
    localStorage.removeItem('language');
  });
});
