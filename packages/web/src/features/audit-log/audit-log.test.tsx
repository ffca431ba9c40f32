import type { AuditChainReport, AuditEntry } from '@compliance-portal/sdk';
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

// jsdom has no ResizeObserver; the user menu's positioning asks for one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** jsdom's Blob has no text(): read it as a browser of 2015 would. */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 41,
  at: '2026-11-02T08:00:00.000Z',
  actorUserId: 'u1',
  actorEmail: 'admin@contoso.example',
  actorName: 'Contoso Administrator',
  organisationId: 'c1',
  action: 'location.create',
  target: 'l-7f3a',
  targetName: 'Primary storage',
  outcome: 'success',
  ip: '198.51.100.4',
  details: {},
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
  ...over,
});

const ENTRIES: AuditEntry[] = [
  entry({ seq: 43, action: 'user.deactivate', target: 'u2', targetName: 'Megan Bowen' }),
  entry({
    seq: 42,
    action: 'auth.signin',
    actorUserId: null,
    actorName: null,
    actorEmail: 'someone@unknown.example',
    target: null,
    targetName: null,
    outcome: 'failure',
    details: { reason: 'failed' },
  }),
  entry({}),
  entry({ seq: 40, action: 'newer.action.unknown', target: 'x1', targetName: null }),
];

const verified: AuditChainReport = {
  verified: true,
  entries: 43,
  firstSeq: 1,
  lastSeq: 43,
  brokenAt: null,
  problem: null,
  checkedAt: '2026-11-02T08:01:00.000Z',
  durationMs: 12,
};

function world(chain: AuditChainReport = verified) {
  const asked: URLSearchParams[] = [];
  const resolvers: Resolvers = {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.audit.list': ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const actor = query.get('actor')?.toLowerCase();
      const items = ENTRIES.filter(
        (e) =>
          (!actor || `${e.actorName ?? ''} ${e.actorEmail ?? ''}`.toLowerCase().includes(actor)) &&
          (!query.get('action') || e.action.startsWith(query.get('action') ?? '')) &&
          (!query.get('outcome') || e.outcome === query.get('outcome')),
      );
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
    },
    'apollo.audit.verify': respond('apollo.audit.verify', chain),
  };
  return { asked, resolvers };
}

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

describe('the audit log', { timeout: 60_000 }, () => {
  it('shows who did what to what, in words, with the chain verified', async () => {
    signedIn();
    const w = world();
    await renderPortal('/configuration/audit-log', w.resolvers);
    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    await within(table).findByText('User deactivated');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(
        /Contoso Administratoradmin@contoso\.example.*User deactivatedMegan Bowen.*198\.51\.100\.443$/,
      ),
      expect.stringMatching(/someone@unknown\.example.*Sign-in: passwordFailed · wrong password.*42$/),
      expect.stringMatching(/Contoso Administrator.*Storage location added.*Primary storage/),
      // An action this version does not know is shown as recorded, and a target without a name by its id.
      expect.stringMatching(/newer\.action\.unknown.*x1/),
    ]);
    expect(w.asked[0]?.toString()).toBe('organisationId=c1&page=1&pageSize=25');
    const chain = within(screen.getByTestId('audit-chain'));
    expect(
      (await chain.findByText('Verified: all 43 entries of this organisation match the chain.')).textContent,
    ).toBeTruthy();
  });

  it('filters by who, what, outcome and days, keeping them in the address', async () => {
    signedIn();
    const w = world();
    const { user, portal } = await renderPortal('/configuration/audit-log', w.resolvers);
    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    await within(table).findByText('User deactivated');

    await user.type(screen.getByLabelText('Who (name or address)'), 'unknown');
    await waitFor(() => expect(w.asked.at(-1)?.get('actor')).toBe('unknown'));
    await waitFor(() => expect(within(table).queryByText('User deactivated')).toBeNull());
    expect(within(table).getByText('someone@unknown.example')).toBeTruthy();

    await user.clear(screen.getByLabelText('Who (name or address)'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'What' }), 'user.');
    await waitFor(() => expect(w.asked.at(-1)?.get('action')).toBe('user.'));
    expect(screen.getByRole('option', { name: 'All: Users' })).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Outcome' }), 'success');
    await waitFor(() => expect(w.asked.at(-1)?.get('outcome')).toBe('success'));

    // Days in the browser's zone; the last one included (the server's `to` is the next day's start).
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To (including)'), '2026-11-02');
    await waitFor(() => expect(w.asked.at(-1)?.get('to')).toBe(new Date(2026, 10, 3).toISOString()));
    expect(w.asked.at(-1)?.get('from')).toBe(new Date(2026, 10, 1).toISOString());
    expect(portal.router.state.location.search).toMatchObject({
      action: 'user.',
      outcome: 'success',
      from: '2026-11-01',
      to: '2026-11-02',
    });

    // A last day before the first is said beside the field and not asked for.
    const asked = w.asked.length;
    await user.clear(screen.getByLabelText('To (including)'));
    await user.type(screen.getByLabelText('To (including)'), '2026-10-01');
    expect(await screen.findByText("Must be greater or less than another field's value.")).toBeTruthy();
    expect(w.asked.slice(asked).every((q) => q.get('to') === null)).toBe(true);

    // Cleared at once (the unfiltered first page is still fresh from the start, and read from there).
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(Object.values(portal.router.state.location.search).filter((v) => v !== undefined)).toEqual([]),
    );
    expect((screen.getByLabelText('Who (name or address)') as HTMLInputElement).value).toBe('');
    await within(table).findByText('User deactivated');
    expect(within(table).getAllByRole('row')).toHaveLength(5);
  });

  it('exports the entries with readable actions and the hashes', async () => {
    signedIn();
    const w = world();
    const saved = vi.mocked(saveBlob);
    saved.mockClear();
    const { user } = await renderPortal('/configuration/audit-log', w.resolvers);
    await within(await screen.findByRole('table', { name: 'Audit log entries' })).findByText('User deactivated');
    await user.click(screen.getByRole('button', { name: 'Export csv' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const [blob, name] = saved.mock.calls[0] ?? [];
    expect(name).toBe('Audit log.csv');
    const lines = (await readText(blob as Blob)).replace('\uFEFF', '').split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      `43,2026-11-02T08:00:00.000Z,Contoso Administrator,admin@contoso.example,User deactivated,user.deactivate,Megan Bowen,u2,Succeeded,198.51.100.4,{},${'a'.repeat(64)},${'b'.repeat(64)}`,
    );
    expect(lines[1]).toContain(',Sign-in: password,auth.signin,,,Failed,198.51.100.4,"{""reason"":""failed""}",');
  });

  it('says where the chain is broken, in German, and checks again when asked', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    let checks = 0;
    const w = world();
    w.resolvers['apollo.audit.verify'] = () => {
      checks++;
      return checks === 1
        ? HttpResponse.json<AuditChainReport>({
            ...verified,
            verified: false,
            entries: 16,
            lastSeq: 17,
            brokenAt: 17,
            problem: 'altered',
          })
        : refuse(500, { title: 'Internal server error' });
    };
    const { user } = await renderPortal('/configuration/audit-log', w.resolvers);
    const chain = within(await screen.findByTestId('audit-chain'));
    expect(
      await chain.findByText(
        'Die Kette ist bei Eintrag 17 nicht in Ordnung: Der Eintrag wurde nach dem Schreiben geändert.',
      ),
    ).toBeTruthy();
    expect(chain.getByText(/^16 Einträge dieser Organisation davor passten\./)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Einträge des Audit-Protokolls' });
    await within(table).findByText('Benutzer deaktiviert');
    expect(within(table).getByText('Fehlgeschlagen · falsches Passwort')).toBeTruthy();
    await user.click(chain.getByRole('button', { name: 'Erneut prüfen' }));
    expect(await chain.findByText('Die Kette konnte nicht geprüft werden.', {}, { timeout: 15_000 })).toBeTruthy();
    localStorage.removeItem('language');
  });

  it('is reached from the configuration page and the account menu', async () => {
    signedIn();
    const w = world();
    const { user, path } = await renderPortal('/configuration', {
      ...w.resolvers,
      'apollo.tenants.list': respond('apollo.tenants.list', []),
    });
    await user.click(await screen.findByRole('link', { name: 'Audit log' }));
    await waitFor(() => expect(path()).toBe('/configuration/audit-log'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Back to configuration' }));
    await waitFor(() => expect(path()).toBe('/configuration'));
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Audit log' }));
    await waitFor(() => expect(path()).toBe('/configuration/audit-log'));
  });
});
