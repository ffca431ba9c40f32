import { describe, expect, it } from 'vitest';
import { endpointById, endpoints } from '../src/index.js';
import { catalogueTemplate, specPaths } from './helpers/spec-paths.js';

describe('endpoint catalogue', () => {
  it('has every endpoint path of the product specification under its API', () => {
    for (const api of ['apollo', 'legacy'] as const) {
      for (const specPath of specPaths[api]) {
        const template = catalogueTemplate(specPath);
        const found = endpoints.filter((e) => e.api === api && e.path === template);
        expect(found.length, `${api} ${specPath}`).toBeGreaterThan(0);
      }
    }
  });

  it('has no path beyond section 7 but tenant admin consent, the audit log, eDiscovery and legal hold, data management, support requests, account self-service, sign-in with Microsoft, the confirmation link, the users list, testing a location again, user administration, retrying a run, archive browsing, the partner’s fleet, the test mail and a backed-up list as csv', () => {
    const named = new Set([...specPaths.apollo, ...specPaths.legacy].map(catalogueTemplate));
    expect(endpoints.filter((e) => !named.has(e.path)).map((e) => e.id)).toEqual([
      'apollo.tenants.consentSetup',
      'apollo.tenants.startConsent',
      'apollo.tenants.finishConsent',
      'apollo.tenants.renewConsent',
      'apollo.jobs.deletionPreview',
      'apollo.locations.probe',
      'apollo.monitoring.retry',
      'apollo.reporting.heldItems',
      'apollo.discovery.listCsv',
      'apollo.audit.list',
      'apollo.audit.verify',
      'apollo.ediscovery.search',
      'apollo.ediscovery.preview',
      'apollo.ediscovery.eventPreview',
      'apollo.ediscovery.eventFile',
      'apollo.ediscovery.cases',
      'apollo.ediscovery.createCase',
      'apollo.ediscovery.getCase',
      'apollo.ediscovery.deleteCase',
      'apollo.ediscovery.holdCase',
      'apollo.ediscovery.releaseCase',
      'apollo.ediscovery.rights',
      'apollo.ediscovery.exportCase',
      'apollo.dataManagement.browse',
      'apollo.dataManagement.versions',
      'apollo.dataManagement.preview',
      'apollo.support.contacts',
      'apollo.support.createRequest',
      'apollo.archive.browseMail',
      'apollo.archive.item',
      'apollo.archive.browseMailboxItems',
      'apollo.archive.mailboxItem',
      'apollo.archive.mailboxItemFile',
      'apollo.archive.teams',
      'apollo.archive.teamsThreads',
      'legacy.auth.signInOptions',
      'legacy.auth.microsoftStart',
      'legacy.auth.microsoftComplete',
      'legacy.auth.signInSettings',
      'legacy.auth.updateSignInSettings',
      'legacy.auth.activity',
      'legacy.auth.revokeOtherSessions',
      'legacy.auth.confirmEmail',
      'legacy.workers.fleet',
      'legacy.user.users',
      'legacy.user.grantEdiscoveryManager',
      'legacy.user.revokeEdiscoveryManager',
      'legacy.user.deactivate',
      'legacy.user.reactivate',
      'legacy.user.remove',
      'legacy.user.resendInvitation',
      'legacy.user.testNotification',
      'legacy.sessions.list',
      'legacy.sessions.revoke',
      'legacy.invitations.get',
      'legacy.invitations.accept',
    ]);
  });

  it('counts 96 section 7 paths and one endpoint per method and path', () => {
    expect(specPaths.apollo.length + specPaths.legacy.length).toBe(96);
    const keys = endpoints.map((e) => `${e.api} ${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(endpoints.map((e) => e.id)).size).toBe(endpoints.length);
    // 127, legal hold's three (holdCase, releaseCase, reporting.heldItems), sign-in with
    // Microsoft's five (the options, start, complete, and the organisation's settings read and changed),
    // the eDiscovery manager's four (eDiscovery rights, the users list, grant and revoke), the
    // confirmation link's page that says why a link failed (legacy confirmEmail), testing a location's
    // store again, tenant admin consent's four (what an app registration needs, start, finish,
    // consent again), user administration's nine (verifying the audit log; deactivating,
    // reactivating and deleting a user and inviting them again; the caller's sessions and signing one
    // out; an invitation read and accepted), retrying a run, and archive browsing's seven (a mailbox's mail
    // by folder, one item, a mailbox's calendar events, contacts and tasks, one of them with its
    // versions and as a file, the Teams archive's teams and chats, their threads), the partner's
    // fleet with each client's health, the test mail of the notification settings, a backed-up
    // SharePoint list's items as csv, and an archived event's eDiscovery preview and .ics.
    expect(endpoints.length).toBe(167);
  });

  it('gives every entry the public shape', () => {
    for (const e of endpoints) {
      expect(e.id).toMatch(/^(apollo|legacy)\.[a-zA-Z]+\.[a-zA-Z0-9]+$/);
      expect(['apollo', 'legacy']).toContain(e.api);
      expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).toContain(e.method);
      expect(e.path.startsWith('/')).toBe(true);
      expect(['apiKey', 'token', 'none']).toContain(e.auth);
      // Apollo asks the application key everywhere but on the mailed confirmation link.
      if (e.api === 'apollo') expect(e.auth).toBe(e.id === 'apollo.auth.confirmEmail' ? 'none' : 'apiKey');
      expect(['public', 'signin', 'session']).toContain(e.access);
      if (e.auth === 'none') expect(e.access).toBe('public');
      if (e.responseKind === 'blob') expect(e.contentTypes?.length).toBeGreaterThan(0);
      if (e.method === 'GET') expect(e.body).toBeUndefined();
    }
  });

  it('leaves only the sign-ins, the password reset, the confirmation link and the invitation link public on legacy, and the sign-in endpoints public on apollo', () => {
    const ids = (list: typeof endpoints) => list.map((e) => e.id).sort();
    const legacyPublic = [
      'legacy.auth.confirmEmail',
      'legacy.auth.forgotPassword',
      'legacy.auth.microsoftComplete',
      'legacy.auth.microsoftStart',
      'legacy.auth.resetPassword',
      'legacy.auth.signInOptions',
      'legacy.auth.signin',
      'legacy.invitations.accept',
      'legacy.invitations.get',
    ];
    expect(ids(endpoints.filter((e) => e.api === 'legacy' && e.access === 'public'))).toEqual(legacyPublic);
    expect(ids(endpoints.filter((e) => e.api === 'apollo' && e.access === 'public'))).toEqual([
      'apollo.auth.confirmEmail',
      'apollo.auth.forgotPassword',
      'apollo.auth.login',
      'apollo.auth.refresh',
      'apollo.auth.register',
      'apollo.auth.resendConfirmationMail',
      'apollo.auth.resetPassword',
    ]);
    // The second factor of a legacy sign-in is reached with the sign-in token.
    expect(ids(endpoints.filter((e) => e.access === 'signin'))).toEqual([
      'legacy.auth.codeVerification',
      'legacy.auth.generateQr',
      'legacy.auth.logout',
      'legacy.auth.qrcodeVerification',
    ]);
    expect(ids(endpoints.filter((e) => e.auth === 'none'))).toEqual(['apollo.auth.confirmEmail', ...legacyPublic]);
  });

  it('looks endpoints up by id', () => {
    expect(endpointById('apollo.jobs.start').path).toBe('/api/{tenantId}/jobs/{jobId}/start');
    expect(() => endpointById('apollo.nothing.here' as never)).toThrow(RangeError);
  });
});
