import type { Client, PortalClient, Worker } from '@compliance-portal/sdk';
import type { i18n } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from './machine';
import { ACTIVITY_THROTTLE_MS, connectSession, createSessionActor } from './runtime';
import { clearUserData, readWorker, storeUser, storeWorker, subscribeWorker, toStoredWorker } from './storage';

function actorSpy() {
  const events: string[] = [];
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        logoutApi: fromPromise(async () => {}),
        loadWorker: fromPromise(async (): Promise<Worker | null> => null),
      },
      actions: {
        persistUser: () => {},
        clearUserData: () => events.push('clearUserData'),
        clearTrialDialogFlag: () => {},
        writeLogoutMarker: () => {},
        clearAllCookies: () => {},
        navigate: (_, p) => events.push(`navigate:${p.to}`),
        showError: () => {},
        showInactivityWarning: () => {},
        dismissInactivityWarning: () => {},
        logLogoutFailure: () => {},
        storeWorker: () => {},
        adoptWorker: () => events.push('adoptWorker'),
        logWorkerFailure: () => {},
      },
      guards: { notOnSignin: () => true },
    }),
    { input: { storedUser: { token: 't', user: { email: 'a@b.example', role: 'admin' } } } },
  );
  actor.start();
  return { actor, events };
}

afterEach(() => vi.useRealTimers());

describe('connectSession', () => {
  it('logs out when another tab writes the logout marker', () => {
    const { actor, events } = actorSpy();
    const stop = connectSession(actor);
    window.dispatchEvent(new StorageEvent('storage', { key: 'logout', newValue: String(Date.now()) }));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(events).toEqual(['clearUserData', 'navigate:/logout']);
    stop();
  });

  it("shares this tab's activity through local storage, throttled, and hears the other tabs'", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-02T08:00:00Z'));
    const { actor } = actorSpy();
    const stop = connectSession(actor);
    document.body.click();
    const first = Number(localStorage.getItem('lastActivity'));
    expect(first).toBe(Date.now());
    vi.advanceTimersByTime(ACTIVITY_THROTTLE_MS - 1);
    document.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first);
    vi.advanceTimersByTime(1);
    document.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first + ACTIVITY_THROTTLE_MS);

    window.dispatchEvent(new StorageEvent('storage', { key: 'lastActivity', newValue: String(Date.now() + 1000) }));
    expect(actor.getSnapshot().context.lastActivity).toBe(Date.now() + 1000);
    stop();
    document.body.click();
    vi.advanceTimersByTime(ACTIVITY_THROTTLE_MS * 2);
    document.body.click();
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first + ACTIVITY_THROTTLE_MS);
  });
});

describe('the stored worker across tabs', () => {
  const worker = (clientId: string, tenant: string | null): Worker => ({
    workerId: `w-${clientId}`,
    workerIp: `10.64.0.${clientId.length}`,
    indexIp: '10.65.0.2',
    clientId,
    organisationName: clientId,
    abbr: clientId,
    stagingtenant_id: tenant,
    cloud_portal_license: 'trial',
  });
  const client = (w: Worker): Client => ({
    clientId: w.clientId,
    name: w.organisationName,
    license: 'trial',
    partnerId: null,
    worker: w,
    createdAt: '2026-01-01T00:00:00.000Z',
  });

  /** A tab of the portal: the session as the browser runs it, on this document's storage. */
  function tab(server: { own: Worker; clients?: Worker[] }) {
    const changed: (string | null)[] = [];
    const api = {
      legacy: {
        workers: {
          client: async () => client(server.own),
          clients: async () => (server.clients ?? []).map(client),
        },
        auth: { logout: async () => undefined },
      },
    } as unknown as PortalClient;
    const actor = createSessionActor({
      api,
      i18n: { t: (key: string) => key } as unknown as i18n,
      navigate: () => undefined,
      currentPath: () => '/configuration',
      onWorkerChanged: (w) => changed.push(w.tenant_id),
    });
    // Each tab hears only its own events; the storage event is what the browser sends the others.
    const target = new EventTarget() as Window;
    const stop = connectSession(actor, target);
    return { actor, changed, target, stop };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('stores the tenant the server gave the worker at once, and the other tab shows it without a reload', async () => {
    storeUser({ token: 't', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(worker('c1', null));
    const server = { own: worker('c1', null) };
    const a = tab(server);
    const b = tab(server);
    a.actor.start();
    b.actor.start();
    await settle();
    // Nothing changed at start: nothing stored, nothing read again.
    expect([a.changed, b.changed]).toEqual([[], []]);
    expect(readWorker()?.tenant_id).toBeNull();
    let shown = 0;
    const unsubscribe = subscribeWorker(() => shown++);

    // Tab A connects the organisation's first tenant; the server makes it the worker's.
    server.own = worker('c1', 't-first');
    a.actor.send({ type: 'session.organisationChanged' });
    await settle();
    expect(readWorker()).toMatchObject({
      tenant_id: 't-first',
      stagingtenant_id: 't-first',
      cloud_portal_license: 'trial',
    });
    expect(a.changed).toEqual(['t-first']);
    expect(shown).toBe(1);

    // The browser tells tab B that local storage changed: its screens read the worker again. The shared
    // cookie may reach B's document later than the event (Chromium, tabs in their own processes): B
    // reads what the event told of, not the cookie's old worker.
    const stored = localStorage.getItem('worker');
    // biome-ignore lint/suspicious/noDocumentCookie: the test puts the old worker in the cookie as the lagging tab sees it; jsdom has no Cookie Store API
    document.cookie = `worker=${encodeURIComponent(JSON.stringify(toStoredWorker(worker('c1', null))))}; path=/`;
    b.target.dispatchEvent(new StorageEvent('storage', { key: 'worker', newValue: stored }));
    expect(b.changed).toEqual(['t-first']);
    expect(shown).toBe(2);
    expect(readWorker()?.tenant_id).toBe('t-first');
    // The logout's removal of the worker is no worker to show.
    b.target.dispatchEvent(new StorageEvent('storage', { key: 'worker', newValue: null }));
    expect(b.changed).toEqual(['t-first']);
    unsubscribe();
    for (const t of [a, b]) {
      t.stop();
      t.actor.stop();
    }
  });

  it("reads a partner's chosen client again from its clients, and leaves a worker not stored alone", async () => {
    storeUser({ token: 't', user: { email: 'partner@fabrikam.example', role: 'partner', organisationId: 'p1' } });
    storeWorker(worker('client-2', 't-old'));
    const p = tab({ own: worker('p1', null), clients: [worker('client-1', 'x'), worker('client-2', 't-new')] });
    p.actor.start();
    await settle();
    expect(readWorker()).toMatchObject({ clientId: 'client-2', tenant_id: 't-new' });
    expect(p.changed).toEqual(['t-new']);
    p.stop();
    p.actor.stop();

    clearUserData();
    storeUser({ token: 't', user: { email: 'partner@fabrikam.example', role: 'partner', organisationId: 'p1' } });
    const none = tab({ own: worker('p1', null) });
    none.actor.start();
    await settle();
    expect(readWorker()).toBeNull();
    expect(none.changed).toEqual([]);
    none.stop();
    none.actor.stop();
  });
});
