import type { Client, LicenseKind, Worker } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { readCookie, readWorker, storeUser, storeWorker } from '../../session/storage';
import { testFleetClient, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';
import { navigation, visibleFor } from './navigation';

startMsw();

const worker = testWorker();
const client = (w: Worker, license: LicenseKind = 'full'): Client => ({
  clientId: w.clientId,
  name: w.organisationName,
  license,
  partnerId: 'p1',
  worker: { ...w, cloud_portal_license: license },
  createdAt: '2026-01-01T00:00:00.000Z',
});

function signedInAs(role: 'admin' | 'partner', withWorker = true) {
  storeUser({ token: 'session-token', user: { email: `${role}@example.com`, role } });
  if (withWorker) storeWorker(worker);
}

describe('the main layout', () => {
  it('offers every area of the navigation, the organisation and the user', async () => {
    signedInAs('admin');
    await renderPortal('/reports');
    const nav = await screen.findByRole('navigation', { name: en.nav.main });
    const labels = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    for (const group of navigation) {
      for (const item of group.items) {
        if (visibleFor('admin', item.to)) expect(labels).toContain(item.to);
        else expect(labels).not.toContain(item.to);
      }
    }
    expect(labels).not.toContain('/partner-setup');
    expect(screen.getByTestId('current-organisation').textContent).toContain('Contoso');
    expect(screen.getByTestId('user-menu').textContent).toContain('admin@example.com');
  });

  it('names the organisation and its Microsoft 365 domain in the header, never the worker’s address', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker({ tenantDomain: 'contoso.onmicrosoft.com' }));
    await renderPortal('/reports');
    const header = await screen.findByRole('banner');
    const current = within(header).getByTestId('current-organisation');
    expect(within(current).getByText('Contoso')).toBeTruthy();
    expect(within(current).getByTestId('tenant-domain').textContent).toBe('contoso.onmicrosoft.com');
    expect(header.textContent).not.toContain(worker.workerIp);
    expect(header.textContent).not.toContain('Worker');
    // A full licence goes without saying.
    expect(within(header).queryByText(en.common.trialBadge)).toBeNull();
  });

  it('names the organisation alone while its domain is not known, and marks a trial licence', async () => {
    storeUser({ token: 'session-token', user: { email: 'partner@example.com', role: 'partner' } });
    storeWorker(testWorker({ organisationName: 'Tailspin Toys', cloud_portal_license: 'trial' }));
    await renderPortal('/reports');
    // The trial dialog is open over the page (which it hides from assistive technology).
    const current = await screen.findByTestId('current-organisation');
    expect(current.textContent).toBe(`Tailspin Toys${en.common.trialBadge}`);
    expect(within(current).queryByTestId('tenant-domain')).toBeNull();
    expect(current.closest('header')?.textContent).not.toContain(worker.workerIp);
  });

  it('switches the language from the header', async () => {
    signedInAs('admin');
    const { user } = await renderPortal('/reports');
    await user.selectOptions(await screen.findByTestId('language-switch'), 'de');
    expect(await screen.findByRole('navigation', { name: de.nav.main })).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('de');
  });
});

describe('guards', () => {
  it("select a customer administrator's own worker, stored as the worker cookie", async () => {
    signedInAs('admin', false);
    const { path } = await renderPortal('/reports', {
      'legacy.workers.client': respond(
        'legacy.workers.client',
        client({ ...worker, tenantDomain: 'contoso.onmicrosoft.com' }),
      ),
    });
    await waitFor(() => expect(path()).toBe('/reports'));
    expect(readWorker()).toMatchObject({
      tenant_id: 't1',
      cloud_portal_license: 'full',
      workerIp: '10.64.0.2',
      tenantDomain: 'contoso.onmicrosoft.com',
    });
  });

  it('make a partner choose a client first', async () => {
    signedInAs('partner', false);
    const tailspin = {
      ...worker,
      workerId: 'w3',
      clientId: 'c3',
      organisationName: 'Tailspin',
      stagingtenant_id: 't3',
    };
    const { path, user } = await renderPortal('/reports', {
      'legacy.workers.clients': respond('legacy.workers.clients', [client(worker), client(tailspin, 'trial')]),
      'legacy.workers.fleet': respond('legacy.workers.fleet', {
        items: [testFleetClient(), testFleetClient({ clientId: 'c3', name: 'Tailspin', license: 'trial' })],
        total: 2,
        page: 1,
        pageSize: 25,
        counts: { critical: 0, warning: 0, ok: 2 },
        generatedAt: '2026-11-23T12:00:00.000Z',
      }),
    });
    await waitFor(() => expect(path()).toBe('/partner-setup'));
    await user.click(await screen.findByRole('button', { name: 'Work as Tailspin' }));
    await waitFor(() => expect(path()).not.toBe('/partner-setup'));
    expect(readWorker()).toMatchObject({ clientId: 'c3', tenant_id: 't3', cloud_portal_license: 'trial' });
    expect(await screen.findByTestId('trial-dialog')).toBeTruthy();
  });

  it('keep a customer administrator out of /partner-setup', async () => {
    signedInAs('admin');
    const { path } = await renderPortal('/partner-setup');
    await waitFor(() => expect(path()).not.toBe('/partner-setup'));
  });

  it('let /account/settings show notification settings without a selected worker', async () => {
    signedInAs('partner', false);
    const { path } = await renderPortal('/account/settings', {
      'legacy.user.notifications': respond('legacy.user.notifications', {
        jobFailed: true,
        jobFinished: false,
        dailySummary: false,
        weeklyReport: true,
        licenseExpiry: true,
      }),
    });
    expect(await screen.findAllByRole('checkbox')).not.toHaveLength(0);
    expect(path()).toBe('/account/settings');
  });
});

describe('API errors', () => {
  it('show the "no tenant" warning for a 404', async () => {
    signedInAs('partner', false);
    await renderPortal('/account/settings', {
      'legacy.user.notifications': () => refuse(404, { message: 'Not found' }),
    });
    expect(await screen.findByText(en.errors.noTenant)).toBeTruthy();
  });

  it('show the network warning when the server cannot be reached', async () => {
    signedInAs('partner', false);
    await renderPortal('/account/settings', { 'legacy.user.notifications': () => HttpResponse.error() });
    // The SDK retries a network error twice with back-off (up to 1.5 s) before the query sees it. Each
    // retry of the query dismisses the warning and shows it again: one may still be fading out.
    expect((await screen.findAllByText(en.errors.network, {}, { timeout: 5000 })).length).toBeGreaterThan(0);
  });

  it('clear the cookies and sign out on a 401 from apollo', async () => {
    signedInAs('admin');
    const { portal, path } = await renderPortal('/reports', {
      'apollo.tenants.list': () => refuse(401, { title: 'Unauthorized', status: 401 }),
      'legacy.auth.logout': respond('legacy.auth.logout'),
    });
    await portal.api.apollo.tenants.list().catch(() => undefined);
    await waitFor(() => expect(path()).toBe('/signin'));
    expect(readCookie('worker')).toBeUndefined();
    expect(readCookie('user')).toBeUndefined();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('clear the cookies on a 401 from /login too, but stay on the page', async () => {
    signedInAs('admin');
    const { portal, path } = await renderPortal('/reports', {
      'apollo.auth.login': () => refuse(401, { title: 'Unauthorized', status: 401 }),
    });
    expect(readCookie('worker')).toBeDefined();
    expect(readCookie('user')).toBeDefined();
    await portal.api.apollo.auth.login({ body: { email: 'admin@example.com', password: 'x' } }).catch(() => undefined);
    expect(readCookie('worker')).toBeUndefined();
    expect(readCookie('user')).toBeUndefined();
    // No redirect to /logout: the session is told nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(path()).toBe('/reports');
    expect(portal.session.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('only log a failed logout: no network warning, even when the server cannot be reached', async () => {
    signedInAs('admin');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let calls = 0;
    const { portal, path } = await renderPortal('/reports', {
      'legacy.auth.logout': () => {
        calls += 1;
        return HttpResponse.error();
      },
    });
    portal.session.send({ type: 'session.logout' });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('logout call failed', expect.anything()));
    expect(calls).toBe(1);
    expect(path()).not.toBe('/reports');
    // The toaster has loaded (the page is shown), so a warning would be on screen by now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      screen.queryByText('There was a network error: the server is temporarily unable to handle the request.'),
    ).toBeNull();
    warn.mockRestore();
  });
});
