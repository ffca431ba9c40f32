import type { Worker } from '@compliance-portal/sdk';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../session/machine';
import { readWorker, storeWorker } from '../session/storage';
import { requireRole, requireSignedIn, requireWorker } from './guards';

function session(role?: 'admin' | 'partner' | 'operator') {
  const actor = createActor(
    sessionMachine.provide({
      // The session reads the worker again as it starts: here it answers nothing, and the stored one stays.
      actors: {
        logoutApi: fromPromise(async () => {}),
        loadWorker: fromPromise(async (): Promise<Worker | null> => null),
      },
      actions: { persistUser: () => {} },
    }),
    { input: { storedUser: role ? { token: 't', user: { email: 'u@x.example', role } } : null } },
  );
  actor.start();
  return actor;
}

const worker = {
  workerId: 'w',
  workerIp: '10.64.0.2',
  indexIp: '10.65.0.2',
  clientId: 'c',
  organisationName: 'Contoso',
  abbr: 'contoso',
  stagingtenant_id: 't1',
  cloud_portal_license: 'full' as const,
};

describe('route guards', () => {
  it('send a signed-out user to /signin with the way back', () => {
    expect(() => requireSignedIn(session(), '/reports?x=1')).toThrow(
      expect.objectContaining({
        options: expect.objectContaining({ to: '/signin', search: { redirect: '/reports?x=1' } }),
      }),
    );
    expect(requireSignedIn(session('admin'), '/').token).toBe('t');
  });

  it("select a customer administrator's own worker", async () => {
    const client = vi.fn(async () => ({ worker }));
    const selected = await requireWorker(session('admin'), { legacy: { workers: { client } } } as never);
    expect(client).toHaveBeenCalledTimes(1);
    expect(readWorker()?.tenant_id).toBe('t1');
    // What the _worker route gives its loaders: the worker as stored.
    expect(selected).toEqual(readWorker());
  });

  it('send a partner without a client to /partner-setup, and let one with a client through', async () => {
    await expect(requireWorker(session('partner'), {} as never)).rejects.toMatchObject({
      options: { to: '/partner-setup' },
    });
    storeWorker(worker);
    await expect(requireWorker(session('partner'), {} as never)).resolves.toEqual(readWorker());
  });

  it('open a mail’s link as the client it names, when the user may act for it, and take the name out of the address', async () => {
    storeWorker(worker);
    const northwind = {
      ...worker,
      workerId: 'w2',
      workerIp: '10.64.0.3',
      clientId: 'n',
      organisationName: 'Northwind',
    };
    const clients = vi.fn(async () => [
      { clientId: 'c', worker },
      { clientId: 'n', worker: northwind },
    ]);
    const queryClient = new QueryClient();
    queryClient.setQueryData(['legacy', 'jobs', 'c'], ['a job of Contoso']);
    const api = { legacy: { workers: { clients } } } as never;
    const location = { pathname: '/archive/job-monitor', searchStr: '?type=exchangeArchive&run=r1&client=n', hash: '' };
    await expect(requireWorker(session('partner'), api, queryClient, location)).rejects.toMatchObject({
      options: { href: '/archive/job-monitor?type=exchangeArchive&run=r1', replace: true },
    });
    expect(readWorker()?.workerIp).toBe('10.64.0.3');
    // What was read as Contoso is not shown as Northwind.
    expect(queryClient.getQueryData(['legacy', 'jobs', 'c'])).toBeUndefined();

    // A client the user may not act for changes nothing; the address loses the name all the same.
    const other = { pathname: '/configuration', searchStr: '?tab=licence&client=stranger', hash: '' };
    await expect(requireWorker(session('partner'), api, queryClient, other)).rejects.toMatchObject({
      options: { href: '/configuration?tab=licence' },
    });
    expect(readWorker()?.workerIp).toBe('10.64.0.3');
  });

  it('keep roles out of guarded routes', () => {
    expect(() => requireRole(session('admin'), ['partner', 'operator'])).toThrow(
      expect.objectContaining({ options: expect.objectContaining({ to: '/' }) }),
    );
    expect(() => requireRole(session('partner'), ['partner', 'operator'])).not.toThrow();
  });
});
