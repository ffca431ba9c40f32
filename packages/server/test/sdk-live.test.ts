import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { firstUserAddress, startSimulator } from '@compliance-portal/m365-simulator';
import {
  type AnyEndpoint,
  ApiError,
  createClient,
  type EndpointId,
  endpoints,
  type TenantConsentAnswer,
} from '@compliance-portal/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../src/app.js';
import { archiveContact, archiveEvent } from '../src/archive-data/mailbox-items.js';
import { restoreArchiveName } from '../src/jobs/executors/restore.js';
import { createZip } from '../src/jobs/zip.js';
import { drainBackground } from '../src/modules/identity/background.js';
import { useConsentPlatform } from '../src/modules/tenant-consent/service.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import {
  ADMIN,
  API_KEY,
  codeFor,
  DEMO_PASSWORD,
  discovered,
  PARTNER,
  TENANTS,
  useTestServer,
  workerIp,
} from './helpers.js';
import { checkedFetch, OpenApiAnswers } from './openapi-answers.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const byId = new Map<string, AnyEndpoint>(endpoints.map((e) => [e.id, e]));
const called = new Set<string>();

/** Runs one SDK call, records its endpoint and checks the answer against the catalogue's schema. */
async function call<T>(id: EndpointId, run: () => Promise<T>): Promise<T> {
  const result = await run();
  called.add(id);
  const endpoint = byId.get(id);
  if (endpoint?.response && endpoint.responseKind === 'json') {
    const validate = ajv.compile(JSON.parse(JSON.stringify(endpoint.response)));
    expect(validate(result), `${id}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  return result;
}

// One walk through the whole API, step by step, in order: each step works with what the steps before
// it made (the sessions of the first sign-in, the tenant, jobs and runs, the archive), and the last two
// check every call made before them. So this walk is not shuffled.
describe('the SDK against the live server', { shuffle: false }, () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-sdk-live-')) });
  let origin = '';
  beforeAll(async () => {
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  // Every answer the SDK gets is checked against the published OpenAPI document, apart from the catalogue.
  const answers = new OpenApiAnswers();
  const client = (token?: string) =>
    createClient({ origin, apiKey: API_KEY, fetch: checkedFetch(answers), ...(token ? { token } : {}) });

  let adminToken = '';
  /** The administrator's authenticator key, for the changes that ask for a code. */
  let adminKey = '';
  let partnerToken = '';

  it('signs in through the legacy flow: password, QR setup, code, then a code on the next sign-in', async () => {
    const anonymous = client();
    const first = await call('legacy.auth.signin', () =>
      anonymous.legacy.auth.signin({ body: { email: ADMIN, password: DEMO_PASSWORD } }),
    );
    expect(first.twoFactor).toBe('setup');
    const pending = client(first.token);
    const qr = await call('legacy.auth.generateQr', () => pending.legacy.auth.generateQr());
    const setup = await call('legacy.auth.qrcodeVerification', () =>
      pending.legacy.auth.qrcodeVerification({ body: { code: codeFor(server, qr.key) } }),
    );
    expect(setup.recoveryCodes).toHaveLength(10);
    server.clock.advance(30_000);
    const second = await anonymous.legacy.auth.signin({ body: { email: ADMIN, password: DEMO_PASSWORD } });
    const verified = await call('legacy.auth.codeVerification', () =>
      client(second.token).legacy.auth.codeVerification({ body: { code: codeFor(server, qr.key) } }),
    );
    server.clock.advance(30_000);
    adminToken = verified.token;
    adminKey = qr.key;
    const me = await call('legacy.auth.verifyUser', () => client(adminToken).legacy.auth.verifyUser());
    expect(me.user.email).toBe(ADMIN);

    const p = await anonymous.legacy.auth.signin({ body: { email: PARTNER, password: DEMO_PASSWORD } });
    const pq = await client(p.token).legacy.auth.generateQr();
    partnerToken = (await client(p.token).legacy.auth.qrcodeVerification({ body: { code: codeFor(server, pq.key) } }))
      .token;
    server.clock.advance(30_000);
  });

  it('maps a legacy failure to the catalogue message', async () => {
    const error = await client()
      .legacy.auth.signin({ body: { email: ADMIN, password: 'Wrong-1aA!' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).messageKey).toBe('invalidCredentials');
  });

  it('runs the apollo identity endpoints', async () => {
    const anonymous = client();
    const email = `new-${randomUUID().slice(0, 8)}@fresh.example`;
    await call('apollo.auth.register', () =>
      anonymous.apollo.auth.register({ body: { email, password: 'Fresh-Passw0rd!' } }),
    );
    await call('apollo.auth.resendConfirmationMail', () =>
      anonymous.apollo.auth.resendConfirmationMail({ body: { email } }),
    );
    // The mail leaves after the answer (the answer's timing must not reveal accounts).
    await drainBackground(server.ctx);
    const link = new URL(server.mails.filter((m) => m.to === email).at(-1)?.link ?? '');
    const text = await call('apollo.auth.confirmEmail', () =>
      anonymous.apollo.auth.confirmEmail({
        query: { userId: link.searchParams.get('userId') ?? '', code: link.searchParams.get('code') ?? '' },
      }),
    );
    expect(text).toBe('Thank you for confirming your email.');
    // The portal's page opened with the same link: confirmed already.
    const page = await call('legacy.auth.confirmEmail', () =>
      anonymous.legacy.auth.confirmEmail({
        body: Object.fromEntries(link.searchParams) as { userId: string; code: string },
      }),
    );
    expect(page).toEqual({ outcome: 'alreadyConfirmed', email, emailChanged: false });
    await call('apollo.auth.forgotPassword', () => anonymous.apollo.auth.forgotPassword({ body: { email } }));
    await drainBackground(server.ctx);
    const resetCode = server.mails.at(-1)?.text.split(': ').at(-1)?.trim() ?? '';
    await call('apollo.auth.resetPassword', () =>
      anonymous.apollo.auth.resetPassword({ body: { email, resetCode, newPassword: 'Reset-Passw0rd!' } }),
    );

    // The admin has 2FA from the legacy setup: one identity across both APIs.
    const [row] = await server.ctx.db.query<{ totp_secret: string }>('select totp_secret from users where email = $1', [
      ADMIN,
    ]);
    const key = server.ctx.secrets.open(row?.totp_secret ?? '');
    const tokens = await call('apollo.auth.login', () =>
      anonymous.apollo.auth.login({
        body: { email: ADMIN, password: DEMO_PASSWORD, twoFactorCode: codeFor(server, key) },
      }),
    );
    server.clock.advance(30_000);
    expect(tokens.expiresIn).toBe(3600);
    const refreshed = await call('apollo.auth.refresh', () =>
      anonymous.apollo.auth.refresh({ body: { refreshToken: tokens.refreshToken } }),
    );
    const bearer = client(refreshed.accessToken);
    const info = await call('apollo.auth.info', () => bearer.apollo.auth.info());
    expect(info).toEqual({ email: ADMIN, isEmailConfirmed: true });
    await call('apollo.auth.updateInfo', () => bearer.apollo.auth.updateInfo({ body: {} }));
    const twoFactor = await call('apollo.auth.twoFactor', () =>
      bearer.apollo.auth.twoFactor({
        body: { resetSharedKey: false, resetRecoveryCodes: false, forgetMachine: false },
      }),
    );
    // An enrolled authenticator's key is never answered again.
    expect(twoFactor).toMatchObject({ isTwoFactorEnabled: true, sharedKey: null, recoveryCodesLeft: 10 });
  });

  it('administers tenants and locations', async () => {
    const admin = client(adminToken);
    const tenants = await call('apollo.tenants.list', () => admin.apollo.tenants.list());
    expect(tenants.map((t) => t.tenantId)).toEqual([TENANTS.contoso]);
    const organisationId = tenants[0]?.organisationId ?? '';
    const tenantId = randomUUID();
    const created = await call('apollo.tenants.create', () =>
      admin.apollo.tenants.create({
        body: {
          tenantName: 'second.onmicrosoft.com',
          applicationId: randomUUID(),
          clientSecret: 'a-client-secret',
          tenantId,
          objectId: randomUUID(),
          redirectUri: 'https://portal.example/auth/callback',
          organisationId,
        },
      }),
    );
    expect(created).toMatchObject({ hasClientSecret: true, isActive: false, provisioning: 'notProvisioned' });
    await call('apollo.tenants.get', () => admin.apollo.tenants.get({ tenantId }));
    await call('apollo.tenants.update', () =>
      admin.apollo.tenants.update({ tenantId, body: { tenantName: 'renamed.onmicrosoft.com' } }),
    );
    const task = await call('apollo.tenants.provision', () => admin.apollo.tenants.provision({ tenantId }));
    let status = task.status;
    for (let i = 0; i < 50 && status !== 'succeeded' && status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await call('apollo.tenants.task', () => admin.apollo.tenants.task({ tenantId, taskId: task.taskId })))
        .status;
    }
    expect(status).toBe('succeeded');
    const location = await call('apollo.locations.create', () =>
      admin.apollo.locations.create({
        tenantId,
        body: { name: 'Vault', siteAddress: 'https://contoso.sharepoint.com/sites/vault' },
      }),
    );
    await call('apollo.locations.list', () => admin.apollo.locations.list({ tenantId }));
    await call('apollo.locations.get', () => admin.apollo.locations.get({ tenantId, locationId: location.locationId }));
    await call('apollo.locations.update', () =>
      admin.apollo.locations.update({
        tenantId,
        locationId: location.locationId,
        body: { name: 'Vault 2', siteAddress: 'https://contoso.sharepoint.com/sites/vault2' },
      }),
    );
    // A SharePoint site's location keeps its data in the server's own store: not tested per location.
    const probed = await call('apollo.locations.probe', () =>
      admin.apollo.locations.probe({ tenantId, locationId: location.locationId }),
    );
    expect(probed).toMatchObject({ store: 'server', name: 'Vault 2' });
    expect(probed.probe).toBeUndefined();
    await call('apollo.configuration.switchTenant', () =>
      admin.apollo.configuration.switchTenant({ body: { tenantId } }),
    );
    await call('apollo.configuration.backupConfig', () =>
      admin.apollo.configuration.backupConfig({ query: { tenantId } }),
    );
    await call('apollo.configuration.updateBackupConfig', () =>
      admin.apollo.configuration.updateBackupConfig({
        body: { tenantId, pricePerGbMonth: 0.03, defaultLocationId: location.locationId },
      }),
    );
    const ip = await workerIp(server, 'Contoso');
    const legacyLocations = await call('legacy.locations.backup', () =>
      admin.legacy.locations.backup({ workerIp: ip }),
    );
    expect(legacyLocations.map((l) => l.name)).toEqual(['Vault 2']);
    await call('legacy.locations.archive', () => admin.legacy.locations.archive({ workerIp: ip }));
    await call('legacy.locations.worker', () => admin.legacy.locations.worker({ workerIp: ip }));
    await call('apollo.configuration.switchTenant', () =>
      admin.apollo.configuration.switchTenant({ body: { tenantId: TENANTS.contoso } }),
    );
    await call('apollo.locations.delete', () =>
      admin.apollo.locations.delete({ tenantId, locationId: location.locationId }),
    );
    const off = await call('apollo.tenants.deprovision', () => admin.apollo.tenants.deprovision({ tenantId }));
    for (let i = 0; i < 50; i++) {
      const t = await admin.apollo.tenants.task({ tenantId, taskId: off.taskId });
      if (t.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await call('apollo.tenants.delete', () => admin.apollo.tenants.delete({ tenantId }));
  });

  it('connects a tenant by admin consent, and consents again for it', async () => {
    const admin = client(adminToken);
    const tenantId = randomUUID();
    const app = { clientId: randomUUID(), clientSecret: 'consent-app-secret' };
    const setup = await call('apollo.tenants.consentSetup', () => admin.apollo.tenants.consentSetup());
    const sim = await startSimulator({
      tenants: [
        {
          tenantId,
          ...app,
          size: { users: 2 },
          consent: [],
          redirectUris: [setup.redirectUri],
          applicationPermissions: setup.permissions.map((p) => p.permission),
        },
      ],
    });
    useConsentPlatform(server.ctx, { authority: sim.authorityHost, graphBaseUrl: sim.graphBaseUrl });
    /** The simulator's consent page answered as its administrator would, and the answer passed on as the page does. */
    const consentAt = async (consentUrl: string, decision: 'accept' | 'cancel') => {
      const form = async (page: Response, fields: Record<string, string>) =>
        fetch(consentUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            flow: /name="flow" value="([^"]+)"/.exec(await page.text())?.[1] ?? '',
            ...fields,
          }),
          redirect: 'manual',
        });
      const signedIn = await form(await fetch(consentUrl), { login: firstUserAddress(tenantId) });
      const back = new URL((await form(signedIn, { decision })).headers.get('location') ?? '').searchParams;
      const answer: TenantConsentAnswer = { state: back.get('state') ?? '' };
      for (const [field, name] of [
        ['adminConsent', 'admin_consent'],
        ['tenant', 'tenant'],
        ['scope', 'scope'],
        ['error', 'error'],
        ['errorDescription', 'error_description'],
      ] as const) {
        const value = back.get(name);
        if (value !== null) answer[field] = value;
      }
      return answer;
    };
    try {
      const organisationId = (await admin.apollo.tenants.list())[0]?.organisationId ?? '';
      const link = await call('apollo.tenants.startConsent', () =>
        admin.apollo.tenants.startConsent({
          body: {
            organisationId,
            tenantName: 'Consented Ltd',
            applicationId: app.clientId,
            clientSecret: app.clientSecret,
          },
        }),
      );
      const accepted = await consentAt(link.consentUrl, 'accept');
      const granted = await call('apollo.tenants.finishConsent', () =>
        admin.apollo.tenants.finishConsent({ body: accepted }),
      );
      expect(granted).toMatchObject({ outcome: 'granted', tenant: { tenantId }, connectionTest: { ok: true } });
      const again = await call('apollo.tenants.renewConsent', () => admin.apollo.tenants.renewConsent({ tenantId }));
      const declined = await admin.apollo.tenants.finishConsent({
        body: await consentAt(again.consentUrl, 'cancel'),
      });
      expect(declined).toMatchObject({ outcome: 'declined', errorCode: 65004 });
      await admin.apollo.tenants.delete({ tenantId });
    } finally {
      await sim.close();
    }
  });

  it('serves organisations, partners, licences, users, notifications and the audit log', async () => {
    const admin = client(adminToken);
    const partner = client(partnerToken);
    const own = await call('legacy.workers.client', () => admin.legacy.workers.client());
    expect(own.worker.cloud_portal_license).toBe('full');
    expect((await call('legacy.workers.clients', () => partner.legacy.workers.clients())).map((c) => c.name)).toEqual([
      'Northwind Traders',
      'Tailspin Toys',
      'Woodgrove Bank',
    ]);
    expect(
      (await call('legacy.workers.clientsByType', () => partner.legacy.workers.clientsByType({ type: 'trial' }))).map(
        (c) => c.name,
      ),
    ).toEqual(['Tailspin Toys']);
    await call('legacy.workers.partnerClients', () => partner.legacy.workers.partnerClients());
    const added = await call('legacy.workers.addPartnerClient', () =>
      partner.legacy.workers.addPartnerClient({
        body: { name: 'Litware Inc', abbr: 'litware', license: 'trial', adminEmail: 'admin@litware.example' },
      }),
    );
    expect(added.worker.cloud_portal_license).toBe('trial');
    const fleet = await call('legacy.workers.fleet', () => partner.legacy.workers.fleet({ query: { sort: 'name' } }));
    expect(fleet.items.map((c) => [c.name, c.connection.state])).toEqual([
      ['Litware Inc', 'none'],
      ['Northwind Traders', 'untested'],
      ['Tailspin Toys', 'untested'],
      ['Woodgrove Bank', 'untested'],
    ]);
    const checks = await call('legacy.workers.checks', () =>
      admin.legacy.workers.checks({ workerIp: own.worker.workerIp }),
    );
    expect(checks.checks.every((c) => c.ok)).toBe(true);
    const license = await call('apollo.configuration.license', () =>
      partner.apollo.configuration.license({ query: { organisationId: added.clientId } }),
    );
    expect(license.limits).toMatchObject({ backupJobsPerApplication: 1, restoresPerApplication: 10 });
    const second = await call('legacy.user.create', () =>
      admin.legacy.user.create({
        body: { email: 'second@contoso.example', displayName: 'Second Admin', role: 'admin' },
      }),
    );
    expect(second.ediscoveryManager).toBe(false);
    const users = await call('legacy.user.users', () =>
      admin.legacy.user.users({ query: { search: 'second', sort: 'createdAt', order: 'desc' } }),
    );
    expect(users.items.map((u) => u.email)).toEqual(['second@contoso.example']);
    const granted = await call('legacy.user.grantEdiscoveryManager', () =>
      admin.legacy.user.grantEdiscoveryManager({ userId: second.userId }),
    );
    expect(granted).toMatchObject({ userId: second.userId, ediscoveryManager: true });
    const revoked = await call('legacy.user.revokeEdiscoveryManager', () =>
      admin.legacy.user.revokeEdiscoveryManager({ userId: second.userId }),
    );
    expect(revoked).toMatchObject({ userId: second.userId, ediscoveryManager: false });
    const resent = await call('legacy.user.resendInvitation', () =>
      admin.legacy.user.resendInvitation({ userId: second.userId, body: {} }),
    );
    expect(resent.status).toBe('invited');
    const invitation = server.mails
      .filter((m) => m.to === 'second@contoso.example')
      .at(-1)
      ?.link?.split('/')
      .at(-1);
    const anonymous = client();
    const invited = await call('legacy.invitations.get', () =>
      anonymous.legacy.invitations.get({ token: invitation ?? '' }),
    );
    expect(invited).toMatchObject({ email: 'second@contoso.example', organisationName: 'Contoso' });
    const accepted = await call('legacy.invitations.accept', () =>
      anonymous.legacy.invitations.accept({
        token: invitation ?? '',
        body: { password: 'Second-Passw0rd!', confirmPassword: 'Second-Passw0rd!' },
      }),
    );
    expect(accepted).toEqual({ email: 'second@contoso.example' });
    const deactivated = await call('legacy.user.deactivate', () =>
      admin.legacy.user.deactivate({ userId: second.userId }),
    );
    expect(deactivated.status).toBe('deactivated');
    const reactivated = await call('legacy.user.reactivate', () =>
      admin.legacy.user.reactivate({ userId: second.userId }),
    );
    expect(reactivated.status).toBe('active');
    await call('legacy.user.remove', () => admin.legacy.user.remove({ userId: second.userId }));
    await call('legacy.user.notifications', () => admin.legacy.user.notifications());
    await call('legacy.user.updateNotifications', () =>
      admin.legacy.user.updateNotifications({
        body: { jobFailed: true, jobFinished: true, dailySummary: false, weeklyReport: false, licenseExpiry: true },
      }),
    );
    const tested = await call('legacy.user.testNotification', () => admin.legacy.user.testNotification({ body: {} }));
    expect(tested.to).toBe(ADMIN);
    const log = await call('apollo.audit.list', () => admin.apollo.audit.list({ query: { action: 'tenant.' } }));
    expect(log.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(['tenant.create', 'tenant.update', 'tenant.provision', 'tenant.switch', 'tenant.delete']),
    );
    const chain = await call('apollo.audit.verify', () => admin.apollo.audit.verify());
    expect(chain).toMatchObject({ verified: true, brokenAt: null });

    const [org] = await server.ctx.db.query<{ id: string }>(
      `insert into organisations (id, name, kind, license, abbr) values ($1, 'Platform', 'operator', 'full', 'platform') returning id`,
      [randomUUID()],
    );
    await server.ctx.db.query(
      `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
       select $1, 'operator@portal.example', 'Operator', password_hash, 'operator', $2, true from users where email = $3`,
      [randomUUID(), org?.id ?? null, ADMIN],
    );
    const o = await client().legacy.auth.signin({
      body: { email: 'operator@portal.example', password: DEMO_PASSWORD },
    });
    const oq = await client(o.token).legacy.auth.generateQr();
    const operator = client(
      (await client(o.token).legacy.auth.qrcodeVerification({ body: { code: codeFor(server, oq.key) } })).token,
    );
    const partners = await call('legacy.workers.partners', () => operator.legacy.workers.partners());
    expect(partners).toEqual([expect.objectContaining({ name: 'Fabrikam Partners', clientCount: 4 })]);
  });

  it('creates, changes, starts, stops and removes jobs', async () => {
    const admin = client(adminToken);
    const tenantId = TENANTS.contoso;
    await discovered(server, tenantId, 'onedrive', ['adele@contoso.example']);
    await discovered(server, tenantId, 'teams', ['team-1']);
    const job = await call('apollo.jobs.create', () =>
      admin.apollo.jobs.create({
        tenantId,
        body: {
          name: 'SDK backup',
          type: 'backup',
          application: 'onedrive',
          sources: ['adele@contoso.example'],
          recurrence: { kind: 'weekly', hours: [1] },
        },
      }),
    );
    const list = await call('apollo.jobs.list', () => admin.apollo.jobs.list({ tenantId, query: { search: 'SDK' } }));
    expect(list.items.map((j) => j.jobId)).toContain(job.jobId);
    expect((await call('apollo.jobs.get', () => admin.apollo.jobs.get({ tenantId, jobId: job.jobId }))).name).toBe(
      'SDK backup',
    );
    const renamed = await call('apollo.jobs.update', () =>
      admin.apollo.jobs.update({ tenantId, jobId: job.jobId, body: { name: 'SDK weekly backup' } }),
    );
    expect(renamed.name).toBe('SDK weekly backup');
    const start = await call('apollo.jobs.start', () => admin.apollo.jobs.start({ tenantId, jobId: job.jobId }));
    const status = await call('apollo.jobs.status', () =>
      admin.apollo.jobs.status({ tenantId, jobId: job.jobId, taskId: start.taskId }),
    );
    expect(status.action).toBe('start');
    const stop = await call('apollo.jobs.stop', () => admin.apollo.jobs.stop({ tenantId, jobId: job.jobId }));
    expect(stop.action).toBe('stop');
    // The run stopped before it started: a retry runs the whole job again (stopped in turn to remove it).
    const [stopped] = (await admin.apollo.monitoring.list({ tenantId, query: { jobId: job.jobId } })).items;
    expect(stopped?.retryable).toBe(true);
    const retried = await call('apollo.monitoring.retry', () =>
      admin.apollo.monitoring.retry({ tenantId, reportId: stopped?.reportId ?? '' }),
    );
    expect(retried).toMatchObject({ jobId: job.jobId, retryOf: stopped?.reportId, scope: 'wholeJob', count: 0 });
    await admin.apollo.jobs.stop({ tenantId, jobId: job.jobId });
    await call('apollo.jobs.delete', () => admin.apollo.jobs.delete({ tenantId, jobId: job.jobId }));
  });

  it('runs the legacy job screens: scheduled jobs, runs, reports', async () => {
    const admin = client(adminToken);
    const ip = await workerIp(server, 'Contoso');
    const job = await call('legacy.jobs.create', () =>
      admin.legacy.jobs.create({
        body: { workerIp: ip, prefix: 'teams', name: 'SDK Teams archive', sources: ['team-1'] },
      }),
    );
    const scheduled = await call('legacy.jobs.scheduled', () =>
      admin.legacy.jobs.scheduled({ workerIp: ip, prefix: 'teams' }),
    );
    expect(scheduled.map((j) => j.jobId)).toContain(job.jobId);
    await call('legacy.jobs.update', () => admin.legacy.jobs.update({ body: { jobId: job.jobId, name: 'SDK Teams' } }));
    const run = await call('legacy.jobs.start', () => admin.legacy.jobs.start({ body: { jobId: job.jobId } }));
    const running = await call('legacy.jobs.running', () => admin.legacy.jobs.running({ query: { workerIp: ip } }));
    expect(running.map((r) => r.reportId)).toContain(run.reportId);
    const filtered = await call('legacy.jobs.filtered', () =>
      admin.legacy.jobs.filtered({ body: { workerIp: ip, prefix: 'teams' } }),
    );
    expect(filtered.total).toBe(1);
    const report = await call('legacy.jobs.reportDataAccounts', () =>
      admin.legacy.jobs.reportDataAccounts({ body: { reportId: run.reportId } }),
    );
    expect(report.items).toEqual([]);
    const tenantId = TENANTS.contoso;
    const monitor = await call('apollo.monitoring.list', () =>
      admin.apollo.monitoring.list({ tenantId, query: { type: 'teamsArchive', status: 'pending' } }),
    );
    expect(monitor.items.map((r) => r.reportId)).toEqual([run.reportId]);
    const accounts = await call('apollo.monitoring.accounts', () =>
      admin.apollo.monitoring.accounts({ tenantId, reportId: run.reportId }),
    );
    expect(accounts.total).toBe(0);
    const reports = await call('apollo.reporting.list', () => admin.apollo.reporting.list({ tenantId }));
    expect(reports.items.map((r) => r.reportId)).not.toContain(run.reportId);
    await call('apollo.reporting.accounts', () =>
      admin.apollo.reporting.accounts({ tenantId, reportId: run.reportId }),
    );
    const cleanups = await call('apollo.reporting.dataManagementReports', () =>
      admin.apollo.reporting.dataManagementReports({ tenantId }),
    );
    expect(cleanups.total).toBe(0);
    await call('apollo.reporting.dataManagementAccounts', () =>
      admin.apollo.reporting.dataManagementAccounts({ tenantId, reportId: run.reportId }),
    );
    const kept = await call('apollo.reporting.heldItems', () =>
      admin.apollo.reporting.heldItems({ tenantId, reportId: run.reportId, query: { sort: 'subject' } }),
    );
    expect(kept.total).toBe(0);
    await call('legacy.jobs.stop', () => admin.legacy.jobs.stop({ body: { jobId: job.jobId } }));
    await call('legacy.jobs.remove', () => admin.legacy.jobs.remove({ body: { jobId: job.jobId } }));

    // A restore prepared as a download: its ZIP comes with its file name.
    const restoreId = randomUUID();
    const runId = randomUUID();
    const now = server.ctx.now();
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, status, created_at, updated_at)
       values ($1, $2, 'Adele files', 'restore', 'onedrive', $3, 'finished', $4, $4)`,
      [
        restoreId,
        TENANTS.contoso,
        JSON.stringify({
          sources: ['adele'],
          recurrence: null,
          retention: null,
          restore: {
            sourceJobId: 'b',
            snapshot: now.toISOString(),
            sourceId: 'adele',
            nodeIds: ['root'],
            target: 'download',
            conflictPolicy: 'keepBoth',
          },
        }),
        now,
      ],
    );
    await server.ctx.db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, finished)
       values ($1, $2, $3, 'creation', 'finished', $4, $4, $4)`,
      [runId, restoreId, TENANTS.contoso, now],
    );
    const path = join(server.ctx.config.dataDir, restoreArchiveName(runId));
    mkdirSync(dirname(path), { recursive: true });
    const zip = await createZip(path);
    await zip.add('Documents/a.txt', new TextEncoder().encode('restored'));
    await zip.close();
    const download = await call('legacy.jobs.downloadRestoreArchive', () =>
      admin.legacy.jobs.downloadRestoreArchive({ body: { jobId: restoreId } }),
    );
    expect(download.fileName).toBe('restore-Adele_files.zip');
    expect(download.contentType).toBe('application/zip');
    expect(Buffer.from(await download.blob.arrayBuffer())).toEqual(readFileSync(path));
  });

  it('runs discovery, the snapshot tree, the backup dashboards and the worker statistics', async () => {
    const admin = client(adminToken);
    const tenantId = TENANTS.contoso;
    const sim = await startSimulator({ tenants: [{ tenantId, size: { users: 3, sites: 1, teams: 1 } }] });
    try {
      // What an earlier test recorded as discovered is forgotten: this one reads the simulated tenant.
      await server.ctx.db.query('delete from discovered_sources where tenant_id = $1', [tenantId]);
      await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
        tenantId,
        sim.graphBaseUrl,
        sim.authorityHost,
      ]);
      const [location] = await server.ctx.db.query<{ location_id: string }>(
        'select location_id from locations where tenant_id = $1 limit 1',
        [tenantId],
      );
      const locationId = location?.location_id ?? '';
      const accounts = await call('apollo.discovery.users', () =>
        admin.apollo.discovery.users({ tenantId, locationId, query: { application: 'onedrive' } }),
      );
      expect(accounts.total).toBe(4);
      const groups = await call('apollo.discovery.groups', () =>
        admin.apollo.discovery.groups({ tenantId, locationId }),
      );
      const group = groups.items.find((g) => g.displayName === 'All Company');
      const members = await call('apollo.discovery.groupUsers', () =>
        admin.apollo.discovery.groupUsers({ tenantId, locationId, groupId: group?.groupId ?? '' }),
      );
      expect(members.total).toBe(3);

      // A finished backup run with one file of the first account.
      const source = accounts.items[0]?.sourceId ?? '';
      const jobId = randomUUID();
      const now = server.ctx.now();
      await server.ctx.db.query(
        `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
         values ($1, $2, 'SDK OneDrive', 'backup', 'onedrive', $3, $4, $5, $5)`,
        [jobId, tenantId, locationId, JSON.stringify({ sources: [source], recurrence: null, retention: null }), now],
      );
      const [run] = await server.ctx.db.query<{ seq: number }>(
        `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
         values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4) returning seq`,
        [randomUUID(), jobId, tenantId, now],
      );
      await server.ctx.db.query(
        `insert into backup_items (job_id, source_id, item_id, version_id, drive_id, kind, name, path, size, hash, modified_at, is_latest, first_seq)
         values ($1, $2, 'i1', 'v1', 'd1', 'file', 'plan.docx', '/plan.docx', 42, 'h', $3, true, $4)`,
        [jobId, source, now, run?.seq ?? 0],
      );
      const tree = await call('apollo.discovery.items', () =>
        admin.apollo.discovery.items({ tenantId, locationId, sourceId: source, nodeId: 'root' }),
      );
      expect(tree.items.map((n) => n.name)).toEqual(['plan.docx']);
      const basic = await call('apollo.dashboards.application', () =>
        admin.apollo.dashboards.application({ tenantId, application: 'onedrive', view: 'basic' }),
      );
      expect(basic.protectedCount).toBe(1);
      const size = await admin.apollo.dashboards.application({ tenantId, application: 'onedrive', view: 'size' });
      expect(size.storedBytes).toBe(42);
      const details = await admin.apollo.dashboards.application({ tenantId, application: 'onedrive', view: 'details' });
      expect(details.entries.map((e) => e.displayName)).toEqual([accounts.items[0]?.displayName]);

      const ip = await workerIp(server, 'Contoso');
      const stats = await call('legacy.workers.statistics', () =>
        admin.legacy.workers.statistics({ query: { workerIp: ip } }),
      );
      expect(stats.perApplication.find((a) => a.application === 'onedrive')?.bytes).toBe(42);
      const last = await call('legacy.workers.lastSuccessfulJob', () =>
        admin.legacy.workers.lastSuccessfulJob({ workerIp: ip }),
      );
      expect(last?.jobId).toBe(jobId);

      // A site's backup with one list of one item, a minute older than the OneDrive one: the list in
      // the tree, its item, and its items as csv.
      const siteJobId = randomUUID();
      await server.ctx.db.query(
        `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
         values ($1, $2, 'SDK site', 'backup', 'sharepoint', $3, $4, $5, $5)`,
        [
          siteJobId,
          tenantId,
          locationId,
          JSON.stringify({ sources: ['site-1'], recurrence: null, retention: null }),
          now,
        ],
      );
      const earlier = new Date(now.getTime() - 60_000);
      const [siteRun] = await server.ctx.db.query<{ seq: number }>(
        `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
         values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4) returning seq`,
        [randomUUID(), siteJobId, tenantId, earlier],
      );
      const columns = [{ name: 'Title', displayName: 'Title', text: {} }];
      await server.ctx.db.query(
        `insert into backup_lists (job_id, tenant_id, site_id, list_id, first_seq, name, display_name, template, definition)
         values ($1, $2, 'site-1', 'list-1', $3, 'Issues', 'Issues', 'genericList', $4)`,
        [siteJobId, tenantId, siteRun?.seq ?? 0, JSON.stringify({ displayName: 'Issues', columns, contentTypes: [] })],
      );
      await server.ctx.db.query(
        `insert into backup_list_items (job_id, tenant_id, site_id, list_id, item_id, version_id, fields, modified_at,
                                        is_latest, first_seq)
         values ($1, $2, 'site-1', 'list-1', '1', '1.0', $3, $4, true, $5)`,
        [siteJobId, tenantId, JSON.stringify({ Title: 'Printer jams' }), earlier, siteRun?.seq ?? 0],
      );
      const site = await admin.apollo.discovery.items({ tenantId, locationId, sourceId: 'site-1', nodeId: 'root' });
      expect(site.items.map((n) => [n.nodeId, n.kind, n.name, n.itemCount])).toEqual([
        ['list:list-1', 'list', 'Issues', 1],
      ]);
      const issues = await admin.apollo.discovery.items({
        tenantId,
        locationId,
        sourceId: 'site-1',
        nodeId: 'list:list-1',
      });
      expect(issues.items.map((n) => [n.nodeId, n.name, n.version])).toEqual([
        ['listItem:list-1:1', 'Printer jams', '1.0'],
      ]);
      const csv = await call('apollo.discovery.listCsv', () =>
        admin.apollo.discovery.listCsv({ tenantId, locationId, sourceId: 'site-1', listId: 'list-1' }),
      );
      expect([csv.fileName, await csv.blob.text()]).toEqual(['Issues.csv', 'Title\r\nPrinter jams\r\n']);

      // Data management: the first account's OneDrive in the file manager, a clean-up preview, the dashboards.
      const rule = { kind: 'keepNewest', count: 1 } as const;
      const top = await call('apollo.dataManagement.browse', () =>
        admin.apollo.dataManagement.browse({
          tenantId,
          body: { application: 'onedrive', sourceId: source, nodeId: 'root', rule },
        }),
      );
      const file = top.items.find((n) => n.kind === 'file');
      expect(file?.versions).toBeGreaterThan(0);
      const versions = await call('apollo.dataManagement.versions', () =>
        admin.apollo.dataManagement.versions({
          tenantId,
          body: { application: 'onedrive', sourceId: source, nodeId: file?.nodeId ?? '', rule },
        }),
      );
      expect(versions.filter((v) => v.eligible)).toHaveLength(file?.eligibleVersions ?? -1);
      const preview = await call('apollo.dataManagement.preview', () =>
        admin.apollo.dataManagement.preview({
          tenantId,
          body: { application: 'onedrive', sourceId: source, paths: [file?.path ?? ''], rule },
        }),
      );
      expect(preview).toMatchObject({ files: 1, reclaimableBytes: file?.reclaimableBytes });
      const managed = await call('apollo.dashboards.sharepointDataManagement', () =>
        admin.apollo.dashboards.sharepointDataManagement({ tenantId }),
      );
      expect(managed.storageUsedBytes).toBeGreaterThan(0);
      const overview = await call('apollo.dashboards.overview', () => admin.apollo.dashboards.overview({ tenantId }));
      expect(overview.backup.lastJob?.jobId).toBe(jobId);
      const connection = await call('apollo.configuration.testOnedriveConnection', () =>
        admin.apollo.configuration.testOnedriveConnection({ body: { tenantId } }),
      );
      expect(connection.ok).toBe(true);
      const synced = await call('apollo.configuration.syncUsers', () =>
        admin.apollo.configuration.syncUsers({ body: { tenantId } }),
      );
      expect(synced.synchronized).toBe(4);
    } finally {
      await sim.close();
    }
  });

  it('runs the email-archive paths: mailboxes, folders, CSV, figures, the worker', async () => {
    const admin = client(adminToken);
    const ip = await workerIp(server, 'Contoso');
    const [worker] = await server.ctx.db.query<{ id: string; index_ip: string }>(
      'select id, index_ip from workers where worker_ip = $1',
      [ip],
    );
    const mime = new TextEncoder().encode('Subject: Order\r\nFrom: a@contoso.example\r\n\r\nPlease ship.\r\n');
    const blob = await createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')).put(mime);
    await server.ctx.db.query(
      `insert into archive_items (tenant_id, kind, source, container, external_id, subject, size, blob_hash, archived_at, sent_at, search)
       values ($1, 'mail', 'adele@contoso.example', 'Inbox/TestOrder', 'sdk-1', 'Order', 1234, $3, $2, $2, to_tsvector('Order'))`,
      [TENANTS.contoso, server.ctx.now(), blob.hash],
    );
    // The mail came from an archive job; restoring it into the mailbox is a restore job of that archive.
    const archiveJobId = randomUUID();
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, created_at, updated_at)
       values ($1, $2, 'SDK mail archive', 'exchangeArchive', 'exchange', '{"sources":["adele@contoso.example"]}', $3, $3)`,
      [archiveJobId, TENANTS.contoso, server.ctx.now()],
    );
    await server.ctx.db.query("update archive_items set job_id = $1 where external_id = 'sdk-1'", [archiveJobId]);
    const [archivedMail] = await server.ctx.db.query<{ id: string }>(
      "select id::text from archive_items where external_id = 'sdk-1'",
    );
    await discovered(server, TENANTS.contoso, 'onedrive', ['adele@contoso.example']);
    const restoring = await call('legacy.email.restore', () =>
      admin.legacy.email.restore({
        body: { workerIp: ip, mailboxId: 'adele@contoso.example', messageIds: [archivedMail?.id ?? ''] },
      }),
    );
    expect(restoring.reportId).toBeTruthy();
    // Reading the mail needs eDiscovery's right to read the mailbox: refused, then given for the download.
    const download = () =>
      admin.legacy.email.fullRestoreDownload({ body: { workerIp: ip, mailboxId: 'adele@contoso.example' } });
    const refused = await download().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, message: "You need a proxy right to read this mailbox's archive." });
    const rightId = randomUUID();
    await server.ctx.db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                 principal_email, granted_by, granted_at)
       values ($1, $2, 'adele@contoso.example', 'Adele', 'user:admin', 'account', 'Admin', $3, $3, $4)`,
      [rightId, TENANTS.contoso, ADMIN, server.ctx.now()],
    );
    const eml = await call('legacy.email.fullRestoreDownload', download);
    expect(Buffer.from(await eml.blob.arrayBuffer())).toEqual(Buffer.from(mime));
    const browsed = await call('apollo.archive.browseMail', () =>
      admin.apollo.archive.browseMail({
        tenantId: TENANTS.contoso,
        body: { mailboxId: 'adele@contoso.example', folder: 'Inbox/TestOrder', search: 'order', sort: 'subject' },
      }),
    );
    expect(browsed.items.map((m) => [m.itemId, m.subject, m.sizeBytes])).toEqual([[archivedMail?.id, 'Order', 1234]]);
    const opened = await call('apollo.archive.item', () =>
      admin.apollo.archive.item({ tenantId: TENANTS.contoso, itemId: archivedMail?.id ?? '' }),
    );
    expect(opened).toMatchObject({ kind: 'mail', from: 'a@contoso.example', body: 'Please ship.', attachments: [] });
    // An archived calendar event of the mailbox the right opens: found, previewed and downloaded as .ics.
    const event = {
      id: 'sdk-event-1',
      subject: 'Quarterly review',
      start: { dateTime: '2026-03-02T09:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2026-03-02T10:00:00.0000000', timeZone: 'UTC' },
      location: { displayName: 'Room 4' },
      organizer: { emailAddress: { name: 'Adele', address: 'adele@contoso.example' } },
      attendees: [
        {
          type: 'required',
          status: { response: 'accepted' },
          emailAddress: { name: 'Ben', address: 'ben@contoso.example' },
        },
      ],
      body: { contentType: 'text', content: 'Figures of the quarter' },
    };
    const eventBlob = await createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')).put(
      new TextEncoder().encode(JSON.stringify(event)),
    );
    await server.ctx.db.query(
      `insert into archived_events (tenant_id, mailbox, external_id, version, calendar_id, calendar_name, event_type, subject,
                                    starts_at, ends_at, blob_hash, size, archived_at, organizer, attendees, location)
       values ($1, 'adele@contoso.example', 'sdk-event-1', 1, 'cal-1', 'Calendar', 'singleInstance', 'Quarterly review',
               '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', $2, 100, $3, 'Adele <adele@contoso.example>',
               'Ben <ben@contoso.example>', 'Room 4')`,
      [TENANTS.contoso, eventBlob.hash, server.ctx.now()],
    );
    const foundEvents = await call('apollo.ediscovery.search', () =>
      admin.apollo.ediscovery.search({ tenantId: TENANTS.contoso, body: { query: 'to:ben', kinds: ['events'] } }),
    );
    expect(foundEvents.items.map((i) => [i.kind, i.itemId, i.sender])).toEqual([
      ['event', 'sdk-event-1', 'Adele <adele@contoso.example>'],
    ]);
    const shownEvent = await call('apollo.ediscovery.eventPreview', () =>
      admin.apollo.ediscovery.eventPreview({
        tenantId: TENANTS.contoso,
        mailboxId: 'adele@contoso.example',
        eventId: 'sdk-event-1',
      }),
    );
    expect(shownEvent).toMatchObject({
      location: 'Room 4',
      body: 'Figures of the quarter',
      start: '2026-03-02T09:00:00.000Z',
    });
    const ics = await call('apollo.ediscovery.eventFile', () =>
      admin.apollo.ediscovery.eventFile({
        tenantId: TENANTS.contoso,
        mailboxId: 'adele@contoso.example',
        eventId: 'sdk-event-1',
      }),
    );
    expect(await ics.blob.text()).toContain('SUMMARY:Quarterly review');
    // The same mailbox's contacts and calendar, archived beside its mail.
    const itemScope = {
      tenantId: TENANTS.contoso,
      mailbox: 'adele@contoso.example',
      jobId: archiveJobId,
      locationId: null,
      now: server.ctx.now(),
    };
    const itemBlobs = createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs'));
    await archiveContact(server.ctx.db, itemBlobs, itemScope, {
      folderId: 'folder-1',
      folderPath: 'Contacts',
      contact: {
        id: 'sdk-contact',
        displayName: 'Pradeep Gupta',
        emailAddresses: [{ name: 'Pradeep Gupta', address: 'pradeep@contoso.example' }],
      },
    });
    await archiveEvent(server.ctx.db, itemBlobs, itemScope, {
      calendarId: 'calendar-1',
      calendarName: 'Calendar',
      event: {
        id: 'sdk-event',
        iCalUId: 'sdk-event-uid',
        subject: 'Order review',
        start: { dateTime: '2026-11-03T09:00:00.0000000', timeZone: 'UTC' },
        end: { dateTime: '2026-11-03T09:30:00.0000000', timeZone: 'UTC' },
        organizer: { emailAddress: { name: 'Adele Vance', address: 'adele@contoso.example' } },
        attendees: [],
      },
      attachments: async function* () {},
    });
    const contacts = await call('apollo.archive.browseMailboxItems', () =>
      admin.apollo.archive.browseMailboxItems({
        tenantId: TENANTS.contoso,
        body: { mailboxId: 'adele@contoso.example', kind: 'contact', search: 'pradeep' },
      }),
    );
    expect(contacts.items.map((c) => [c.itemId, c.title, c.email, c.versions])).toEqual([
      ['sdk-contact', 'Pradeep Gupta', 'pradeep@contoso.example', 1],
    ]);
    const contact = await call('apollo.archive.mailboxItem', () =>
      admin.apollo.archive.mailboxItem({
        tenantId: TENANTS.contoso,
        body: { mailboxId: 'adele@contoso.example', kind: 'contact', itemId: 'sdk-contact' },
      }),
    );
    expect(contact.contact?.emails).toEqual([{ name: 'Pradeep Gupta', address: 'pradeep@contoso.example' }]);
    const itemIcs = await call('apollo.archive.mailboxItemFile', () =>
      admin.apollo.archive.mailboxItemFile({
        tenantId: TENANTS.contoso,
        body: { mailboxId: 'adele@contoso.example', kind: 'event', itemId: 'sdk-event' },
      }),
    );
    expect(await itemIcs.blob.text()).toContain('SUMMARY:Order review');
    await server.ctx.db.query('delete from proxy_rights where right_id = $1', [rightId]);
    // eDiscovery: the administrator reads no mailbox without a right here, but the Teams archive.
    const message = await createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')).put(
      new TextEncoder().encode(JSON.stringify({ body: { contentType: 'text', content: 'Standup at nine' } })),
    );
    const [teamsItem] = await server.ctx.db.query<{ id: string }>(
      `insert into archive_items (tenant_id, kind, source, container, external_id, subject, size, blob_hash, archived_at, sent_at, search)
       values ($1, 'teams', 'team-1', 'General', 'sdk-t1', '', 20, $3, $2, $2, to_tsvector('english', 'Standup at nine'))
       returning id::text`,
      [TENANTS.contoso, server.ctx.now(), message.hash],
    );
    const found = await call('apollo.ediscovery.search', () =>
      admin.apollo.ediscovery.search({ tenantId: TENANTS.contoso, body: { query: 'standup' } }),
    );
    expect(found.items.map((i) => i.itemId)).toEqual([teamsItem?.id]);
    expect(found.searchedMailboxes).toBe(0);
    const shown = await call('apollo.ediscovery.preview', () =>
      admin.apollo.ediscovery.preview({ tenantId: TENANTS.contoso, itemId: teamsItem?.id ?? '' }),
    );
    expect(shown.body).toBe('Standup at nine');
    const teams = await call('apollo.archive.teams', () => admin.apollo.archive.teams({ tenantId: TENANTS.contoso }));
    expect(teams.map((n) => [n.nodeId, n.children.map((c) => c.name)])).toEqual([['team-1', ['General']]]);
    const threads = await call('apollo.archive.teamsThreads', () =>
      admin.apollo.archive.teamsThreads({ tenantId: TENANTS.contoso, query: { source: 'team-1', channel: 'General' } }),
    );
    expect(threads.items.map((th) => [th.post.body, th.replies.length])).toEqual([['Standup at nine', 0]]);
    const saved = await call('apollo.ediscovery.createCase', () =>
      admin.apollo.ediscovery.createCase({
        tenantId: TENANTS.contoso,
        body: { name: 'Standups', search: { query: 'standup', teams: ['team-1'] } },
      }),
    );
    expect(saved.hits).toBe(1);
    expect(saved.custodians).toEqual([{ kind: 'team', id: 'team-1', name: 'team-1' }]);
    const rights = await call('apollo.ediscovery.rights', () =>
      admin.apollo.ediscovery.rights({ tenantId: TENANTS.contoso }),
    );
    expect(rights).toEqual({ ediscoveryManager: true });
    const listed = await call('apollo.ediscovery.cases', () =>
      admin.apollo.ediscovery.cases({ tenantId: TENANTS.contoso }),
    );
    expect(listed.map((c) => c.caseId)).toEqual([saved.caseId]);
    await call('apollo.ediscovery.getCase', () =>
      admin.apollo.ediscovery.getCase({ tenantId: TENANTS.contoso, caseId: saved.caseId }),
    );
    // The Teams message is held (channels are open to who acts for the tenant), then released.
    const held = await call('apollo.ediscovery.holdCase', () =>
      admin.apollo.ediscovery.holdCase({ tenantId: TENANTS.contoso, caseId: saved.caseId }),
    );
    expect(held.hold).toMatchObject({
      heldBy: ADMIN,
      items: 1,
      custodians: [{ kind: 'team', id: 'team-1', name: 'team-1', items: 1 }],
    });
    const released = await call('apollo.ediscovery.releaseCase', () =>
      admin.apollo.ediscovery.releaseCase({ tenantId: TENANTS.contoso, caseId: saved.caseId }),
    );
    expect(released.hold).toBeNull();
    const exported = await call('apollo.ediscovery.exportCase', () =>
      admin.apollo.ediscovery.exportCase({ tenantId: TENANTS.contoso, caseId: saved.caseId }),
    );
    expect(exported.fileName).toBe('case-Standups.zip');
    await call('apollo.ediscovery.deleteCase', () =>
      admin.apollo.ediscovery.deleteCase({ tenantId: TENANTS.contoso, caseId: saved.caseId }),
    );
    const list = await call('legacy.mailboxes.list', () =>
      admin.legacy.mailboxes.list({ workerIp: ip, indexIp: worker?.index_ip ?? '' }),
    );
    expect(list.items.map((m) => m.mailboxId)).toEqual(['adele@contoso.example']);
    const top = await call('legacy.mailboxes.top', () => admin.legacy.mailboxes.top({ query: { workerIp: ip } }));
    expect(top[0]?.sizeBytes).toBe(1234);
    const meta = await call('legacy.mailboxes.meta', () =>
      admin.legacy.mailboxes.meta({ query: { workerIp: ip, mailboxId: 'adele@contoso.example' } }),
    );
    expect(meta.folders.map((f) => f.path)).toEqual(['Inbox/TestOrder']);
    const csv = await call('legacy.mailboxes.downloadCsv', () =>
      admin.legacy.mailboxes.downloadCsv({ workerIp: ip, indexIp: worker?.index_ip ?? '' }),
    );
    expect(await csv.blob.text()).toContain('adele@contoso.example');
    const doomed = await call('apollo.jobs.deletionPreview', () =>
      admin.apollo.jobs.deletionPreview({
        tenantId: TENANTS.contoso,
        body: { application: 'exchange', sources: [], retention: { unit: 'days', value: 1 } },
      }),
    );
    expect(doomed.items).toBeGreaterThanOrEqual(0);
    const stats = await call('legacy.email.statistics', () => admin.legacy.email.statistics({ query: { ip } }));
    // The mail beside the two events (eDiscovery's and the browse's) and the contact archived above.
    expect(stats.items).toBe(4);
    expect(stats.itemsByKind).toEqual({ mails: 1, events: 2, contacts: 1, tasks: 0 });
    const check = await call('legacy.email.workerCheck', () => admin.legacy.email.workerCheck({ workerIp: ip }));
    expect(check.online).toBe(true);
    const setup = await call('legacy.email.workerMeta', () =>
      admin.legacy.email.workerMeta({ workerId: worker?.id ?? '' }),
    );
    expect(setup.folders).toEqual(['Inbox/TestOrder']);

    // Proxy rights, with the tenant's accounts and groups read from a simulated Microsoft 365.
    const sim = await startSimulator({
      tenants: [{ tenantId: TENANTS.contoso, size: { users: 3, sites: 0, teams: 1 } }],
    });
    try {
      await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
        TENANTS.contoso,
        sim.graphBaseUrl,
        sim.authorityHost,
      ]);
      await server.ctx.db.query('delete from discovered_sources where tenant_id = $1', [TENANTS.contoso]);
      const principals = await call('legacy.proxyRights.accounts', () =>
        admin.legacy.proxyRights.accounts({ query: { workerIp: ip } }),
      );
      const [owner, reader] = principals.filter((p) => p.kind === 'account');
      const granted = await call('legacy.proxyRights.grant', () =>
        admin.legacy.proxyRights.grant({
          body: { workerIp: ip, mailboxId: owner?.principalId ?? '', principalIds: [reader?.principalId ?? ''] },
        }),
      );
      const rights = await call('legacy.proxyRights.list', () =>
        admin.legacy.proxyRights.list({ query: { workerIp: ip } }),
      );
      expect(rights.map((r) => r.rightId)).toEqual(granted.map((r) => r.rightId));
      const held = await call('legacy.proxyRights.account', () =>
        admin.legacy.proxyRights.account({ query: { workerIp: ip, principalId: reader?.principalId ?? '' } }),
      );
      expect(held.rights).toHaveLength(1);
      await call('legacy.proxyRights.revoke', () =>
        admin.legacy.proxyRights.revoke({ query: { workerIp: ip, rightId: granted[0]?.rightId ?? '' } }),
      );

      // The Teams paths.
      const teams = await call('legacy.teams.list', () => admin.legacy.teams.list({ query: { workerIp: ip } }));
      const teamId = teams[0]?.teamId ?? '';
      await call('legacy.teams.members', () => admin.legacy.teams.members({ workerIp: ip, query: { teamId } }));
      await call('legacy.teams.foundGroups', () => admin.legacy.teams.foundGroups({ workerIp: ip }));
      await call('legacy.teams.foundAccounts', () => admin.legacy.teams.foundAccounts({ workerIp: ip, type: 'team' }));
      await call('legacy.teams.restoreFoundAccounts', () =>
        admin.legacy.teams.restoreFoundAccounts({ workerIp: ip, type: 'mailbox' }),
      );
      await call('legacy.teams.archiveStructure', () =>
        admin.legacy.teams.archiveStructure({ query: { workerIp: ip } }),
      );
      await call('legacy.teams.filter', () => admin.legacy.teams.filter({ body: { workerIp: ip, query: 'standup' } }));
      const stats = await call('legacy.teams.statistics', () =>
        admin.legacy.teams.statistics({ query: { workerIp: ip } }),
      );
      expect(stats.configured).toBe(true);
      await call('legacy.teams.finishedRestoreJobs', () => admin.legacy.teams.finishedRestoreJobs({ workerIp: ip }));
    } finally {
      await sim.close();
    }
  });

  it('keeps documents: upload, list, download, delete', async () => {
    const admin = client(adminToken);
    const bytes = new TextEncoder().encode('%PDF-1.4\nSDK contract\n%%EOF\n');
    const file = new File([bytes], 'SDK contract.pdf', { type: 'application/pdf' });
    const saved = await call('legacy.files.upload', () =>
      admin.legacy.files.upload({ body: { file, abbr: 'contoso', documentType: 'contracts' } }),
    );
    expect(saved).toMatchObject({ fileName: 'SDK contract.pdf', sizeBytes: bytes.length });
    const documents = await call('legacy.files.documents', () => admin.legacy.files.documents({ abbr: 'contoso' }));
    expect(documents.map((d) => d.fileName)).toContain('SDK contract.pdf');
    const reports = await call('legacy.files.reports', () => admin.legacy.files.reports({ abbr: 'contoso' }));
    expect(reports.map((d) => d.fileName)).not.toContain('SDK contract.pdf');
    const download = await call('legacy.files.download', () =>
      admin.legacy.files.download({ fileName: 'SDK contract.pdf', abbr: 'contoso', documentType: 'contracts' }),
    );
    expect(Buffer.from(await download.blob.arrayBuffer())).toEqual(Buffer.from(bytes));
    await call('legacy.files.delete', () =>
      admin.legacy.files.delete({ body: { abbr: 'contoso', documentType: 'contracts', fileName: 'SDK contract.pdf' } }),
    );
    expect((await admin.legacy.files.documents({ abbr: 'contoso' })).map((d) => d.fileName)).not.toContain(
      'SDK contract.pdf',
    );
  });

  it('reads the support contacts and sends a support request', async () => {
    const contacts = await call('apollo.support.contacts', () => client(adminToken).apollo.support.contacts());
    expect(contacts).toEqual({ email: 'support@portal.test', phone: '+49 30 555 0100' });
    const sent = server.mails.length;
    const request = await call('apollo.support.createRequest', () =>
      client(adminToken).apollo.support.createRequest({
        body: { subject: 'Restore question', area: 'backup', message: 'How do I restore one file?' },
      }),
    );
    expect(request.reference).toMatch(/^SR-\d{8}-\d{4}$/);
    expect(server.mails.length).toBe(sent + 2);
  });

  it("sign-in with Microsoft: the server's offer, the organisation's settings, and a sign-in through the simulator", async () => {
    const app = { clientId: randomUUID(), clientSecret: 'sdk-live-sign-in' };
    const tenantId = TENANTS.contoso;
    const sim = await startSimulator({
      tenants: [{ tenantId, size: { users: 2 } }],
      signInApps: [{ ...app, redirectUris: [`${server.ctx.config.publicUrl}/signin/microsoft`] }],
    });
    try {
      server.ctx.config.entra = { ...app, authority: sim.authorityHost };
      const anonymous = client();
      expect(await call('legacy.auth.signInOptions', () => anonymous.legacy.auth.signInOptions())).toEqual({
        microsoft: true,
      });
      const settings = { microsoft: true, entraTenantId: tenantId, password: true };
      const confirmation = { oldPassword: DEMO_PASSWORD, twoFactorCode: codeFor(server, adminKey) };
      server.clock.advance(30_000);
      expect(
        await call('legacy.auth.updateSignInSettings', () =>
          client(adminToken).legacy.auth.updateSignInSettings({ body: { ...settings, ...confirmation } }),
        ),
      ).toMatchObject({ ...settings, entraTenant: { tenantId, state: 'pending', by: ADMIN } });
      expect(
        await call('legacy.auth.signInSettings', () => client(adminToken).legacy.auth.signInSettings()),
      ).toMatchObject({ ...settings, reauthentication: { needed: true, secondFactor: true } });
      const email = firstUserAddress(tenantId);
      await server.ctx.db.query(
        `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
         select $1, $2, 'Adele', password_hash, 'admin', organisation_id, true from users where email = $3`,
        [randomUUID(), email, ADMIN],
      );
      const { authorizationUrl } = await call('legacy.auth.microsoftStart', () =>
        anonymous.legacy.auth.microsoftStart({ body: { email } }),
      );
      const page = await (await fetch(authorizationUrl)).text();
      const signedIn = await fetch(authorizationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ flow: /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '', login: email }),
        redirect: 'manual',
      });
      const back = new URL(signedIn.headers.get('location') ?? '');
      const session = await call('legacy.auth.microsoftComplete', () =>
        anonymous.legacy.auth.microsoftComplete({
          body: { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' },
        }),
      );
      expect(session.user.email).toBe(email);
      // That sign-in proved the tenant.
      expect(await client(adminToken).legacy.auth.signInSettings()).toMatchObject({
        entraTenant: { tenantId, state: 'bound', by: email, proof: 'microsoftSignIn' },
      });
    } finally {
      await sim.close();
    }
  });

  it('password reset, sign-in activity, signing out the other sessions and logout through the legacy API', async () => {
    const anonymous = client();
    await call('legacy.auth.forgotPassword', () => anonymous.legacy.auth.forgotPassword({ body: { email: PARTNER } }));
    await drainBackground(server.ctx);
    const token = server.mails.at(-1)?.link?.split('/').at(-1) ?? '';
    await call('legacy.auth.resetPassword', () =>
      anonymous.legacy.auth.resetPassword({
        token,
        body: { password: 'Partner-Passw0rd!', confirmPassword: 'Partner-Passw0rd!' },
      }),
    );
    const activity = await call('legacy.auth.activity', () =>
      client(adminToken).legacy.auth.activity({ query: { pageSize: 5 } }),
    );
    expect(activity.items.length).toBeGreaterThan(0);
    expect(activity.items.every((event) => event.outcome === 'success' || event.outcome === 'failure')).toBe(true);
    const sessions = await call('legacy.sessions.list', () => client(adminToken).legacy.sessions.list());
    expect(sessions.items.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.items.length - 1).toBe(activity.otherSessions);
    const another = sessions.items.find((s) => !s.current);
    expect(another).toBeDefined();
    await call('legacy.sessions.revoke', () =>
      client(adminToken).legacy.sessions.revoke({ sessionId: another?.sessionId ?? '' }),
    );
    const others = await call('legacy.auth.revokeOtherSessions', () =>
      client(adminToken).legacy.auth.revokeOtherSessions({ body: {} }),
    );
    expect(others.revoked).toBe(activity.otherSessions - 1);
    await call('legacy.auth.logout', () => client(adminToken).legacy.auth.logout({ body: {} }));
    const after = await client(adminToken)
      .legacy.workers.client()
      .catch((e: unknown) => e);
    expect((after as ApiError).status).toBe(401);
  });

  it('answered as the OpenAPI document says, on every call (status, media type, body)', () => {
    console.log(answers.summary('the SDK against the live server'));
    expect(answers.problems).toEqual([]);
    expect(answers.operations.size).toBeGreaterThanOrEqual(called.size);
  });

  it('called every endpoint the server implements', () => {
    const implemented = Object.keys(routeTable(server.ctx)).sort();
    expect(implemented.filter((id) => !called.has(id))).toEqual([]);
    expect(implemented.length).toBe(called.size);
  });
});
