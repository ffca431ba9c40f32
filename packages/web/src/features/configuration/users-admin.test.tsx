import type { PortalUser, UserCreate } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../components/ui/save-blob';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

// jsdom cannot download: the saved file is caught here.
vi.mock('../../components/ui/save-blob', () => ({ saveBlob: vi.fn() }));

startMsw();

/** jsdom's Blob has no text(): read it as a browser of 2015 would. */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

const person = (over: Partial<PortalUser>): PortalUser => ({
  userId: 'u1',
  email: 'admin@contoso.example',
  displayName: 'Contoso Administrator',
  role: 'admin',
  organisationId: 'c1',
  twoFactorEnabled: true,
  ediscoveryManager: false,
  createdAt: '2026-01-05T10:00:00.000Z',
  status: 'active',
  lastSignInAt: '2026-11-02T08:00:00.000Z',
  invitedAt: null,
  deactivatedAt: null,
  ...over,
});

/** The organisation's users as the server keeps them, and every request the page made. */
function world() {
  const users: PortalUser[] = [
    person({}),
    person({
      userId: 'u2',
      email: 'megan@contoso.example',
      displayName: 'Megan Bowen',
      ediscoveryManager: true,
      lastSignInAt: '2026-11-01T09:30:00.000Z',
    }),
    person({
      userId: 'u3',
      email: 'new@contoso.example',
      displayName: 'New Person',
      twoFactorEnabled: false,
      status: 'invited',
      lastSignInAt: null,
      invitedAt: '2026-11-02T07:00:00.000Z',
    }),
  ];
  const calls: string[] = [];
  const refusals: Record<string, () => ReturnType<typeof refuse>> = {};
  const find = (id: unknown) => users.find((u) => u.userId === id) as PortalUser;
  const answer = (name: string, id: unknown, change: (u: PortalUser) => void) => {
    calls.push(`${name} ${String(id)}`);
    const refused = refusals[name];
    if (refused) return refused();
    const found = find(id);
    change(found);
    return HttpResponse.json<PortalUser>(found);
  };
  const resolvers: Resolvers = {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.tenants.list': respond('apollo.tenants.list', []),
    'legacy.user.users': ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.push(`list ${query.toString()}`);
      const status = query.get('status');
      const items = users.filter((u) => !status || u.status === status);
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 10 });
    },
    'legacy.user.create': async ({ request }) => {
      const body = (await request.json()) as UserCreate;
      calls.push(`create ${JSON.stringify(body)}`);
      const refused = refusals.create;
      if (refused) return refused();
      const created = person({
        userId: 'u9',
        email: body.email,
        displayName: body.displayName,
        status: 'invited',
        lastSignInAt: null,
        twoFactorEnabled: false,
      });
      users.push(created);
      return HttpResponse.json(created, { status: 201 });
    },
    'legacy.user.grantEdiscoveryManager': ({ params }) =>
      answer('grant', params.userId, (u) => {
        u.ediscoveryManager = true;
      }),
    'legacy.user.revokeEdiscoveryManager': ({ params }) =>
      answer('revoke', params.userId, (u) => {
        u.ediscoveryManager = false;
      }),
    'legacy.user.deactivate': ({ params }) =>
      answer('deactivate', params.userId, (u) => {
        u.status = 'deactivated';
      }),
    'legacy.user.reactivate': ({ params }) =>
      answer('reactivate', params.userId, (u) => {
        u.status = 'active';
      }),
    'legacy.user.resendInvitation': ({ params }) => answer('resend', params.userId, () => undefined),
    'legacy.user.remove': ({ params }) => {
      calls.push(`remove ${String(params.userId)}`);
      const refused = refusals.remove;
      if (refused) return refused();
      users.splice(users.indexOf(find(params.userId)), 1);
      return new HttpResponse(null, { status: 200 });
    },
  };
  return { users, calls, refusals, resolvers, changes: () => calls.filter((c) => !c.startsWith('list')) };
}

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

async function openUsers(resolvers: Resolvers, tab = 'Users', table = 'Portal users') {
  const rendered = await renderPortal('/configuration', resolvers);
  await rendered.user.click(await screen.findByRole('tab', { name: tab }));
  const found = await screen.findByRole('table', { name: table });
  return { ...rendered, table: found };
}

/** The buttons of a user's row. */
const actionsOf = (name: string, lang: 'en' | 'de' = 'en') =>
  within(screen.getByRole('group', { name: lang === 'de' ? `Aktionen für ${name}` : `Actions for ${name}` }));

describe('configuration: the portal users', { timeout: 60_000 }, () => {
  it('lists name, address, role, two-factor sign-in, last sign-in and state, and filters by state', async () => {
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    expect(w.calls[0]).toBe('list organisationId=c1&page=1&pageSize=10&order=asc&sort=displayName');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(
        /^Contoso Administrator \(you\)admin@contoso\.example.*AdministratorSet upNov 2, 2026.*Active/,
      ),
      expect.stringMatching(/^Megan Bowen.*AdministratoreDiscovery managerSet upNov 1, 2026.*Active/),
      expect.stringMatching(/^New Person.*AdministratorNot set upNeverInvited/),
    ]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'invited');
    await waitFor(() => expect(within(table).queryByText('Megan Bowen')).toBeNull());
    expect(w.calls.at(-1)).toContain('status=invited');
    // Sorting by the last sign-in asks the server.
    await user.click(within(table).getByRole('button', { name: 'Sort by Last sign-in' }));
    await waitFor(() => expect(w.calls.at(-1)).toContain('order=asc&sort=lastSignInAt'));
  });

  it('invites a user after checking the fields, and says a taken address in the dialog', async () => {
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    await user.click(screen.getByRole('button', { name: 'Invite a user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a portal user' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(within(dialog).getAllByText('Field must not be empty.')).toHaveLength(2);
    await user.type(within(dialog).getByLabelText(/^Email/), 'adele@contoso');
    await user.type(within(dialog).getByLabelText(/^Name/), 'Adele Vance');
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(within(dialog).getByText('Invalid email.')).toBeTruthy();
    expect(w.changes()).toEqual([]);

    w.refusals.create = () => refuse(409, { message: 'A user with this email already exists.', code: 'emailTaken' });
    await user.type(within(dialog).getByLabelText(/^Email/), '.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() => expect(w.changes()).toHaveLength(1));
    expect(
      await within(dialog).findByText('The invitation was not sent. A user with this email already exists.'),
    ).toBeTruthy();
    expect(w.changes()).toEqual([
      `create ${JSON.stringify({ email: 'adele@contoso.example', displayName: 'Adele Vance', role: 'admin', organisationId: 'c1' })}`,
    ]);
  });

  it('invites a user, who shows as invited; sends the invitation again', async () => {
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    await user.click(screen.getByRole('button', { name: 'Invite a user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a portal user' }, { timeout: 5000 });
    await user.type(within(dialog).getByLabelText(/^Email/), 'adele@contoso.example');
    await user.type(within(dialog).getByLabelText(/^Name/), 'Adele Vance');
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    await screen.findByText('adele@contoso.example was invited by mail.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await within(table).findByText('Adele Vance');

    await user.click(actionsOf('New Person').getByRole('button', { name: 'Invite again' }));
    await screen.findByText('A new invitation was sent to new@contoso.example; the earlier link stops working.');
    expect(w.changes().at(-1)).toBe('resend u3');
  });

  it('changes the role: makes a user an eDiscovery manager and takes it back', async () => {
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    await user.click(actionsOf('New Person').getByRole('button', { name: 'Change role' }));
    let dialog = await screen.findByRole('dialog', { name: 'Change the role of New Person' }, { timeout: 5000 });
    expect((within(dialog).getByRole('radio', { name: /^Administrator\b(?! and)/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(within(dialog).getByRole('radio', { name: /Administrator and eDiscovery manager/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save the role' }));
    await screen.findByText('The role of New Person was changed.');
    expect(w.changes()).toEqual(['grant u3']);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(actionsOf('Megan Bowen').getByRole('button', { name: 'Change role' }));
    dialog = await screen.findByRole('dialog', { name: 'Change the role of Megan Bowen' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('radio', { name: /^Administrator\b(?! and)/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save the role' }));
    await screen.findByText('The role of Megan Bowen was changed.');
    expect(w.changes()).toEqual(['grant u3', 'revoke u2']);
  });

  it('deactivates after asking, says the last administrator’s refusal, reactivates; not for one’s own account', async () => {
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    // One's own account: deactivate and delete are offered but disabled, with the reason.
    for (const name of ['Deactivate…', 'Delete…']) {
      const button = actionsOf('Contoso Administrator').getByRole('button', { name });
      expect(button).toHaveProperty('disabled', true);
      expect(button.getAttribute('title')).toBe('Not for your own account');
    }

    w.refusals.deactivate = () =>
      refuse(409, {
        message: "This is the organisation's last active administrator.",
        code: 'lastAdministrator',
      });
    await user.click(actionsOf('Megan Bowen').getByRole('button', { name: 'Deactivate…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate Megan Bowen?' }, { timeout: 5000 });
    expect(within(dialog).getByText(/Every session of Megan Bowen ends at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(
      await within(dialog).findByText(
        "Nothing was changed. This is the organisation's last active administrator. Invite or reactivate another administrator first.",
      ),
    ).toBeTruthy();
    delete w.refusals.deactivate;
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await screen.findByText('Megan Bowen was deactivated.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const megan = () => within(table).getByText('Megan Bowen').closest('tr') as HTMLElement;
    await waitFor(() => expect(megan().textContent).toContain('Deactivated'));

    await user.click(actionsOf('Megan Bowen').getByRole('button', { name: 'Reactivate' }));
    await screen.findByText('Megan Bowen can sign in again.');
    await waitFor(() => expect(megan().textContent).toContain('Active'));
    expect(w.changes()).toEqual(['deactivate u2', 'deactivate u2', 'reactivate u2']);
  });

  it('deletes a user after a confirmation naming them, and says a refusal in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    const w = world();
    const { user, table } = await openUsers(w.resolvers, 'Benutzer', 'Portalbenutzer');
    await within(table).findByText('Megan Bowen');
    w.refusals.remove = () => refuse(409, { message: 'last', code: 'lastAdministrator' });
    await user.click(actionsOf('Megan Bowen', 'de').getByRole('button', { name: 'Löschen…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Megan Bowen löschen?' }, { timeout: 5000 });
    expect(within(dialog).getByText(/Megan Bowen \(megan@contoso\.example\) wird endgültig gelöscht/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(
      await within(dialog).findByText(
        'Es wurde nichts geändert. Dies ist die letzte aktive Administratorin bzw. der letzte aktive Administrator der Organisation. Laden Sie zuerst eine weitere Person ein oder aktivieren Sie eine wieder.',
      ),
    ).toBeTruthy();
    delete w.refusals.remove;
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    await screen.findByText('Megan Bowen wurde gelöscht.');
    await waitFor(() => expect(within(table).queryByText('Megan Bowen')).toBeNull());
    expect(w.changes()).toEqual(['remove u2', 'remove u2']);
    expect(actionsOf('New Person', 'de').getByRole('button', { name: 'Erneut einladen' })).toBeTruthy();
    localStorage.removeItem('language');
  });

  it('exports every user of the list as csv with readable words', async () => {
    signedIn();
    const w = world();
    const saved = vi.mocked(saveBlob);
    saved.mockClear();
    const { user, table } = await openUsers(w.resolvers);
    await within(table).findByText('Megan Bowen');
    await user.click(screen.getByRole('button', { name: 'Export csv' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const [blob, name] = saved.mock.calls[0] ?? [];
    expect(name).toBe('Portal users.csv');
    const text = await readText(blob as Blob);
    expect(text.replace('\uFEFF', '').split('\r\n')).toEqual([
      'Contoso Administrator,admin@contoso.example,Administrator,Set up,2026-11-02T08:00:00.000Z,Active',
      'Megan Bowen,megan@contoso.example,"Administrator, eDiscovery manager",Set up,2026-11-01T09:30:00.000Z,Active',
      'New Person,new@contoso.example,Administrator,Not set up,,Invited',
    ]);
  });
});
