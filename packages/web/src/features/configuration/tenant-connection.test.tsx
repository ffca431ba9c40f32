/**
 * Connecting a tenant, as an administrator reads it: every field of the tenant form says what it is
 * and where the Microsoft Entra admin center shows it, in English and German, beside the permissions
 * the app registration needs; the admin consent dialog checks what is typed, shows the link it got
 * before leaving for Microsoft, and a connected tenant consents again from its row; the page Microsoft
 * answers to passes the answer on once and says how the consent ended.
 */
import type {
  PermissionNeed,
  Tenant,
  TenantConsentAnswer,
  TenantConsentOutcome,
  TenantConsentStart,
} from '@compliance-portal/sdk';
import { germanErrorMessages } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { readWorker, storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const REDIRECT = 'https://portal.example/configuration/tenant-consent';
const PERMISSIONS: PermissionNeed[] = [
  { permission: 'User.Read.All', areas: ['backup', 'mailArchive', 'userSync', 'connectionTest'] },
  { permission: 'Sites.Read.All', areas: ['backup', 'cleanup'] },
  { permission: 'Mail.ReadWrite', areas: ['restore'] },
  { permission: 'Chat.Read.All', areas: ['chats'] },
];
const CONSENT_URL =
  'https://login.microsoftonline.com/organizations/v2.0/adminconsent?client_id=33333333-3333-4333-8333-333333333333&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default&redirect_uri=https%3A%2F%2Fportal.example%2Fconfiguration%2Ftenant-consent&state=the-state';

const tenant = (over: Partial<Tenant> = {}): Tenant => ({
  tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01',
  tenantName: 'Contoso production',
  applicationId: '11111111-1111-4111-8111-111111111111',
  objectId: '22222222-2222-4222-8222-222222222222',
  redirectUri: REDIRECT,
  organisationId: 'c1',
  hasClientSecret: true,
  isActive: true,
  provisioning: 'provisioned',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** Puts `text` into a field as a paste: one input event, not one per key. */
async function paste(field: HTMLElement, text: string) {
  field.focus();
  await userEvent.paste(text);
}

const signedIn = (language: 'en' | 'de' = 'en') => {
  localStorage.setItem('language', language);
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

const configuration = {
  'legacy.workers.client': respond('legacy.workers.client', testClient()),
  'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
  'apollo.tenants.consentSetup': respond('apollo.tenants.consentSetup', {
    redirectUri: REDIRECT,
    authority: 'https://login.microsoftonline.com',
    permissions: PERMISSIONS,
  }),
} as const;

/** The help text a field is described by. */
const helpOf = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the tenant form’s help', () => {
  it('has the session follow an organisation’s first tenant connected by consent, and says what comes next', async () => {
    // The organisation has no tenant yet: its worker acts for none, until the server's says otherwise.
    localStorage.setItem('language', 'en');
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker({ stagingtenant_id: '' }));
    const connected = tenant({ tenantName: 'Fabrikam' });
    // The server's worker acts for the tenant once the consent has connected it, not when the page loads.
    let consented = false;
    await renderPortal(
      `/configuration/tenant-consent?admin_consent=True&tenant=${connected.tenantId}&state=the-state`,
      {
        ...configuration,
        'legacy.workers.client': () =>
          HttpResponse.json(
            testClient({ worker: testWorker({ stagingtenant_id: consented ? connected.tenantId : '' }) }),
          ),
        'apollo.tenants.finishConsent': () => {
          consented = true;
          return HttpResponse.json<TenantConsentOutcome>({
            outcome: 'granted',
            tenant: connected,
            connectionTest: { ok: true, latencyMs: 80, checkedAt: '2026-11-02T08:00:00.000Z' },
          });
        },
      },
    );
    await screen.findByTestId('consent-outcome');
    await waitFor(() => expect(readWorker()?.stagingtenant_id).toBe(connected.tenantId));
    const next = screen.getByTestId('consent-next');
    expect(next.textContent).toContain(en.tenantConnection.callback.next);
    expect(within(next).getByRole('link', { name: en.tenantConnection.callback.nextAction }).getAttribute('href')).toBe(
      '/configuration?tab=locations',
    );
  });

  it.each([
    ['en', en],
    ['de', de],
  ] as const)(
    'says what each field is and where to find it (%s), with the portal’s redirect URI filled in',
    async (language, texts) => {
      signedIn(language);
      const { user } = await renderPortal('/configuration', configuration);
      const table = await screen.findByRole('table', { name: texts.configuration.tenants });
      await within(table).findByText('Contoso production');
      await user.click(screen.getByRole('button', { name: texts.configuration.addTenant }));
      const dialog = await screen.findByRole('dialog');
      const field = (label: string) => within(dialog).getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`));
      const f = texts.tenantConnection.fields;
      expect(helpOf(field(texts.configuration.tenantName))).toContain(f.tenantName);
      expect(helpOf(field(texts.configuration.applicationId))).toContain(f.applicationId);
      expect(helpOf(field(texts.configuration.clientSecret))).toContain(f.clientSecret);
      expect(helpOf(field(texts.configuration.tenantId))).toContain(f.tenantId);
      expect(helpOf(field(texts.configuration.objectId))).toContain(f.objectId);
      expect(helpOf(field(texts.configuration.redirectUri))).toContain(f.redirectUri);
      expect(helpOf(field(texts.configuration.organisationId))).toContain(f.organisationId);
      // Where in the admin center, in the admin center's own words of the language.
      expect(helpOf(field(texts.configuration.applicationId))).toContain(
        language === 'en'
          ? 'App registrations › your app › Overview › Application (client) ID'
          : 'Übersicht › Anwendungs-ID (Client)',
      );
      await waitFor(() => expect((field(texts.configuration.redirectUri) as HTMLInputElement).value).toBe(REDIRECT));
      // The portal's own address is named in the help only once the field holds another.
      expect(helpOf(field(texts.configuration.redirectUri))).not.toContain(REDIRECT);
      await user.type(field(texts.configuration.redirectUri), '/other');
      expect(helpOf(field(texts.configuration.redirectUri))).toContain(REDIRECT);
      // The organisation's ID is said to be the organisation worked as, by its name.
      expect(helpOf(field(texts.configuration.organisationId))).toContain(testWorker().organisationName ?? '');

      // Beside the form: the permissions the app registration needs, each with the areas using it.
      const permissions = within(dialog).getByRole('table', { name: texts.tenantConnection.permissions.table });
      const rows = within(permissions).getAllByRole('row').slice(1);
      expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual([
        'Chat.Read.All',
        'Mail.ReadWrite',
        'Sites.Read.All',
        'User.Read.All',
      ]);
      const areas = texts.configuration.missingPermissions.areas;
      expect(within(rows[3] as HTMLElement).getAllByRole('cell')[1]?.textContent).toBe(
        new Intl.ListFormat(language, { type: 'conjunction' }).format([
          areas.backup,
          areas.mailArchive,
          areas.userSync,
          areas.connectionTest,
        ]),
      );
      await user.type(
        within(dialog).getByRole('searchbox', { name: texts.tenantConnection.permissions.search }),
        areas.restore,
      );
      // The search settles (300 ms) before it filters.
      await waitFor(() => expect(within(permissions).getAllByRole('row')).toHaveLength(2), { timeout: 5000 });
      expect(within(permissions).getByText('Mail.ReadWrite')).toBeTruthy();
    },
  );

  it('says when an administrator last consented through the portal, and who started it', async () => {
    signedIn();
    const { user } = await renderPortal('/configuration', {
      ...configuration,
      'apollo.tenants.list': respond('apollo.tenants.list', [
        tenant({ adminConsentAt: '2026-11-02T08:00:00.000Z', adminConsentBy: 'admin@contoso.example' }),
      ]),
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    await user.click(await within(table).findByRole('button', { name: 'Edit' }));
    const status = await within(await screen.findByRole('dialog')).findByTestId('admin-consent-status');
    expect(status.textContent).toContain('admin@contoso.example');
    expect(status.textContent).toMatch(/^Admin consent granted through the portal on /);
  });
});

describe('connecting by admin consent', () => {
  it('checks the fields, starts the consent, shows its link and then leaves for Microsoft', async () => {
    signedIn();
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    let started: TenantConsentStart | undefined;
    const { user } = await renderPortal('/configuration', {
      ...configuration,
      'apollo.tenants.startConsent': async ({ request }) => {
        started = await request.json();
        return HttpResponse.json({ consentUrl: CONSENT_URL, expiresAt: '2026-11-02T08:10:00.000Z' });
      },
    });
    await screen.findByRole('table', { name: 'Tenants' });
    await user.click(await screen.findByRole('button', { name: en.tenantConnection.connect }));
    const dialog = await screen.findByRole('dialog', { name: en.tenantConnection.consentTitle });
    expect(within(dialog).getByText(en.tenantConnection.consentIntro)).toBeTruthy();
    // What to type is only what Microsoft cannot tell: no tenant, object ID or redirect URI field.
    expect(within(dialog).queryByLabelText(/^Object ID/)).toBeNull();
    expect(within(dialog).queryByLabelText(/^Redirect URI/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: en.tenantConnection.continue }));
    expect(within(dialog).getAllByText('Field must not be empty.')).toHaveLength(3);
    await paste(within(dialog).getByLabelText(/^Tenant name/), 'Fabrikam');
    await user.type(within(dialog).getByLabelText(/^Application \(client\) ID/), 'not-a-guid');
    await paste(within(dialog).getByLabelText(/^Client secret/), 'the-secret');
    await paste(within(dialog).getByLabelText(/^Tenant ID or domain/), 'not a domain');
    await user.click(within(dialog).getByRole('button', { name: en.tenantConnection.continue }));
    expect(within(dialog).getAllByText('Value does not match the required pattern.')).toHaveLength(2);
    expect(started).toBeUndefined();
    const app = within(dialog).getByLabelText(/^Application \(client\) ID/);
    await user.clear(app);
    await paste(app, '33333333-3333-4333-8333-333333333333');
    await user.clear(within(dialog).getByLabelText(/^Tenant ID or domain/));
    await user.click(within(dialog).getByRole('button', { name: en.tenantConnection.continue }));
    await waitFor(() =>
      expect(started).toEqual({
        organisationId: 'c1',
        tenantName: 'Fabrikam',
        applicationId: '33333333-3333-4333-8333-333333333333',
        clientSecret: 'the-secret',
      }),
    );
    const link = await within(dialog).findByTestId('consent-link');
    expect(link.textContent).toContain(en.tenantConnection.link.tenantAny);
    expect(link.textContent).toContain('33333333-3333-4333-8333-333333333333');
    expect(link.textContent).toContain(REDIRECT);
    expect(assign).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: en.tenantConnection.link.go }));
    expect(assign).toHaveBeenCalledWith(CONSENT_URL);
  });

  it('consents again for a connected tenant from its row, at its own tenant', async () => {
    signedIn('de');
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const renewal = CONSENT_URL.replace('/organizations/', `/${tenant().tenantId}/`);
    let renewed = '';
    const { user } = await renderPortal('/configuration', {
      ...configuration,
      'apollo.tenants.renewConsent': ({ params }) => {
        renewed = String(params.tenantId);
        return HttpResponse.json({ consentUrl: renewal, expiresAt: '2026-11-02T08:10:00.000Z' });
      },
    });
    const table = await screen.findByRole('table', { name: de.configuration.tenants });
    await user.click(await within(table).findByRole('button', { name: de.tenantConnection.grantConsent }));
    const dialog = await screen.findByRole('dialog', {
      name: de.tenantConnection.renewTitle.replace('{{name}}', 'Contoso production'),
    });
    await user.click(within(dialog).getByRole('button', { name: de.tenantConnection.continue }));
    const link = await within(dialog).findByTestId('consent-link');
    expect(renewed).toBe(tenant().tenantId);
    expect(link.textContent).toContain(`Contoso production (${tenant().tenantId})`);
    await user.click(within(dialog).getByRole('button', { name: de.tenantConnection.link.go }));
    expect(assign).toHaveBeenCalledWith(renewal);
  });
});

describe('/configuration/tenant-consent, where Microsoft answers', () => {
  const answerUrl = (query: Record<string, string>) => `/configuration/tenant-consent?${new URLSearchParams(query)}`;

  async function answered(
    query: Record<string, string>,
    outcome: TenantConsentOutcome | (() => ReturnType<typeof refuse>),
  ) {
    let sent: TenantConsentAnswer | undefined;
    let calls = 0;
    const view = await renderPortal(answerUrl(query), {
      ...configuration,
      'apollo.tenants.finishConsent': async ({ request }) => {
        calls += 1;
        sent = await request.json();
        return typeof outcome === 'function' ? outcome() : HttpResponse.json(outcome);
      },
    });
    return { ...view, sent: () => sent, calls: () => calls };
  }

  it('passes the answer on once, takes it out of the address, and shows the connection and its test', async () => {
    signedIn();
    const { sent, calls, portal } = await answered(
      {
        admin_consent: 'True',
        tenant: tenant().tenantId,
        scope: 'https://graph.microsoft.com/User.Read.All',
        state: 'the-state',
      },
      {
        outcome: 'granted',
        tenant: tenant({ tenantName: 'Fabrikam' }),
        connectionTest: {
          ok: true,
          latencyMs: 120,
          checkedAt: '2026-11-02T08:00:00.000Z',
          missingPermissions: [{ permission: 'Chat.Read.All', areas: ['chats'] }],
        },
      },
    );
    const outcome = await screen.findByTestId('consent-outcome');
    expect(outcome.dataset.outcome).toBe('granted');
    expect(outcome.textContent).toContain('Admin consent granted for “Fabrikam”: the tenant is connected.');
    expect(screen.getByTestId('connection-result').textContent).toBe('The connection to Fabrikam works (120 ms).');
    expect(screen.getByTestId('missing-permissions').textContent).toContain('Chat.Read.All');
    expect(sent()).toEqual({
      state: 'the-state',
      adminConsent: 'True',
      tenant: tenant().tenantId,
      scope: 'https://graph.microsoft.com/User.Read.All',
    });
    expect(calls()).toBe(1);
    expect(portal.router.state.location.searchStr).toBe('');
    expect(screen.getByRole('link', { name: en.tenantConnection.callback.back }).getAttribute('href')).toBe(
      '/configuration',
    );
  });

  it.each([
    ['en', en],
    ['de', de],
  ] as const)('explains a decline and an error with their AADSTS codes (%s)', async (language, texts) => {
    signedIn(language);
    const declined = await answered(
      {
        admin_consent: 'True',
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to consent to access the app.\r\nTrace ID: x',
        state: 'declined',
      },
      {
        outcome: 'declined',
        error: 'access_denied',
        errorCode: 65004,
        description: 'AADSTS65004: User declined to consent to access the app.',
      },
    );
    const outcome = await screen.findByTestId('consent-outcome');
    expect(outcome.dataset.outcome).toBe('declined');
    expect(outcome.textContent).toContain(texts.tenantConnection.callback.declined);
    expect(outcome.textContent).toContain(texts.tenantConnection.callback.declinedText);
    expect(declined.sent()?.errorDescription).toContain('AADSTS65004');
    declined.view.unmount();

    await answered(
      { admin_consent: 'True', tenant: tenant().tenantId, state: 'wrong-secret' },
      {
        outcome: 'failed',
        error: 'invalid_client',
        errorCode: 7000215,
        description: 'AADSTS7000215: Invalid client secret provided.',
      },
    );
    const failed = await screen.findByTestId('consent-outcome');
    expect(failed.dataset.outcome).toBe('failed');
    expect(failed.getAttribute('role')).toBe('alert');
    expect(failed.textContent).toContain(texts.tenantConnection.callback.failed);
    expect(failed.textContent).toContain(texts.tenantConnection.errors.aadsts7000215);
    expect(failed.textContent).toContain('AADSTS7000215');
    expect(failed.textContent).toContain('Invalid client secret provided.');
  });

  it('tells an error without an explanation of its own as Microsoft named it', async () => {
    signedIn();
    await answered(
      { admin_consent: 'True', error: 'server_error', state: 's' },
      { outcome: 'failed', error: 'server_error', errorCode: 50000 },
    );
    const failed = await screen.findByTestId('consent-outcome');
    expect(failed.textContent).toContain('Microsoft answered “server_error”.');
    expect(failed.textContent).toContain('AADSTS50000');
  });

  it('shows the server’s refusal of a late answer in German', async () => {
    signedIn('de');
    await answered({ admin_consent: 'True', tenant: tenant().tenantId, state: 'late' }, () =>
      refuse(400, { title: 'Bad Request', status: 400, code: 'consentExpired', detail: 'late' }),
    );
    expect(await screen.findByText(germanErrorMessages.consentExpired)).toBeTruthy();
  });

  it('says there is no answer when the address holds none, and sends nothing', async () => {
    signedIn();
    const { calls } = await answered({}, { outcome: 'declined' });
    expect(await screen.findByText(en.tenantConnection.callback.noAnswer)).toBeTruthy();
    expect(calls()).toBe(0);
  });
});
