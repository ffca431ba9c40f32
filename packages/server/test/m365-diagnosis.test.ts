/**
 * A failure of Microsoft 365 told by its cause (src/m365/diagnosis.ts), through the connection test
 * and the screens that read Microsoft 365 live: the simulator's refusals on purpose (the token
 * endpoint's AADSTS codes, consent withdrawn or cut, throttling, an outage), and this side's own
 * network faults (a name that does not resolve, a closed port, a TLS server whose certificate is not
 * trusted), each at the token endpoint and at Graph. Every answer carries the cause as its code with
 * Microsoft's details, and is checked against the published OpenAPI document.
 */
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ALL_APPLICATION_PERMISSIONS,
  loadOrCreateTls,
  type RunningSimulator,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import {
  type ConnectionTestResult,
  errorTexts,
  type Microsoft365Failure,
  type Microsoft365FailureCode,
} from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { diagnose, TenantSecretError } from '../src/m365/diagnosis.js';
import { GraphError } from '../src/m365/graph-api.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { ADMIN, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';
import { OpenApiAnswers } from './openapi-answers.js';

const tenantId = TENANTS.contoso;
const UNRESOLVABLE = 'https://portal-test.invalid';

/** A port of 127.0.0.1 that nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('a failure of Microsoft 365, by cause', () => {
  const server = useTestServer();
  const answers = new OpenApiAnswers();
  let sim: RunningSimulator;
  let untrusted: Server;
  let untrustedUrl = '';
  let refusedUrl = '';
  let admin = '';
  let locationId = '';
  let worker = '';

  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId, size: { users: 3, sites: 1, teams: 1 } }] });
    // A TLS server whose certificate chains to a CA of its own, which this process does not trust.
    const tls = await loadOrCreateTls(mkdtempSync(join(tmpdir(), 'portal-untrusted-tls-')));
    untrusted = createHttpsServer({ cert: tls.certificate, key: tls.privateKey }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
    const address = untrusted.address();
    untrustedUrl = `https://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    refusedUrl = `https://127.0.0.1:${await closedPort()}`;
    admin = await sessionToken(server, ADMIN);
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 order by name limit 1',
      [tenantId],
    );
    locationId = location?.location_id ?? '';
    worker = await workerIp(server, 'Contoso');
  });
  afterAll(async () => {
    await sim?.close();
    await new Promise((resolve) => untrusted?.close(resolve));
    expect(answers.problems).toEqual([]);
    console.log(answers.summary('Microsoft 365 failures'));
  });
  beforeEach(async () => {
    sim.state.setTokenFault(tenantId, 'none');
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    sim.state.setThrottle(0);
    await point(sim.authorityHost, sim.graphBaseUrl);
    // Nothing found before: a failed read of Microsoft 365 is the answer, not what was stored.
    await server.ctx.db.query('delete from discovered_sources where tenant_id = $1', [tenantId]);
  });

  const point = (authority: string, graph: string) =>
    server.ctx.db.query('update tenants set authority_url = $2, graph_base_url = $3 where tenant_id = $1', [
      tenantId,
      authority,
      graph,
    ]);
  const checked = async (method: string, url: string, body?: unknown) => {
    const response = await server.request({ method, url, token: admin, ...(body ? { body } : {}) });
    answers.check({
      method,
      path: url.split('?')[0] ?? url,
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
      body: response.rawPayload,
    });
    return response;
  };
  const connectionTest = async (): Promise<ConnectionTestResult> => {
    const response = await checked('POST', '/apollo-beta/test-onedrive-connection', { tenantId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  /** A failed connection test: its cause with Microsoft's details, its English text the cause's. */
  const failedTest = async (code: Microsoft365FailureCode): Promise<Microsoft365Failure> => {
    const result = await connectionTest();
    expect(result.ok, JSON.stringify(result)).toBe(false);
    expect(result.failure?.code, JSON.stringify(result.failure)).toBe(code);
    expect(result.message).toBe(errorTexts[code]());
    return result.failure as Microsoft365Failure;
  };

  it('names each refusal of the token endpoint by its AADSTS code, with the ids support needs', async () => {
    const cases = [
      ['invalidClientSecret', 'm365SecretWrong', 'AADSTS7000215', 401, 'invalid_client'],
      ['expiredClientSecret', 'm365SecretExpired', 'AADSTS7000222', 401, 'invalid_client'],
      ['unknownApplication', 'm365ApplicationUnknown', 'AADSTS700016', 400, 'unauthorized_client'],
      ['unknownTenant', 'm365TenantUnknown', 'AADSTS90002', 400, 'invalid_tenant'],
      ['consentRequired', 'm365ConsentMissing', 'AADSTS65001', 400, 'invalid_grant'],
    ] as const;
    for (const [fault, code, aadsts, status, error] of cases) {
      sim.state.setTokenFault(tenantId, fault);
      const failure = await failedTest(code);
      expect(failure, fault).toMatchObject({
        aadsts,
        status,
        error,
        host: new URL(sim.url).host,
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        traceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        timestamp: expect.any(String),
        // MSAL sends a client-request-id; the identity platform echoes it and names its own request.
        clientRequestId: expect.any(String),
      });
      expect(failure.requestId).toBe(failure.traceId);
      expect(failure.message).toMatch(new RegExp(`^${aadsts}: `));
      expect(failure.message).not.toMatch(/Trace ID/);
    }
    const [audit] = await server.ctx.db.query<{ outcome: string; details: { code?: string } }>(
      "select outcome, details from audit_log where action = 'tenant.connectionTest' order by seq desc limit 1",
    );
    expect(audit).toMatchObject({ outcome: 'failure', details: { code: 'm365ConsentMissing' } });
  });

  it('tells consent not given from a permission missing, naming the permission and who needs it', async () => {
    sim.state.setConsent(tenantId, []);
    const none = await failedTest('m365ConsentMissing');
    expect(none).toMatchObject({ status: 403, error: 'Authorization_RequestDenied', requestId: expect.any(String) });
    expect(none.clientRequestId).toBe(none.requestId);

    sim.state.setConsent(
      tenantId,
      ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'User.Read.All'),
    );
    const cut = await failedTest('m365PermissionMissing');
    // The connection test's own permission, with every area needing it.
    expect(cut.missingPermissions).toEqual([
      { permission: 'User.Read.All', areas: ['backup', 'mailArchive', 'userSync', 'connectionTest'] },
    ]);
  });

  it('says when Microsoft 365 throttles (with Retry-After) and when it fails on its side', async () => {
    sim.state.setThrottle(1, 30, { status: 429, paths: '^/v1.0/users' });
    const throttled = await failedTest('m365Throttled');
    expect(throttled).toMatchObject({ status: 429, retryAfter: 30, error: 'TooManyRequests' });
    sim.state.setThrottle(1, 5, { status: 503, paths: '^/v1.0/users' });
    expect(await failedTest('m365Outage')).toMatchObject({ status: 503, error: 'serviceNotAvailable' });
  });

  it('tells a name that does not resolve, a closed port and an untrusted certificate apart, at either end', async () => {
    const cases = [
      [UNRESOLVABLE, 'm365HostNotFound', 'ENOTFOUND', 'portal-test.invalid'],
      [refusedUrl, 'm365Unreachable', 'ECONNREFUSED', new URL(refusedUrl).host],
      [untrustedUrl, 'm365TlsFailed', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', new URL(untrustedUrl).host],
    ] as const;
    for (const [origin, code, error, host] of cases) {
      // The identity platform out of reach: no token.
      await point(origin, sim.graphBaseUrl);
      const token = await failedTest(code);
      expect(token, `token at ${origin}`).toMatchObject({ error, host });
      expect(token.status).toBeUndefined();
      // A token, and Graph out of reach.
      await point(sim.authorityHost, `${origin}/v1.0`);
      expect(await failedTest(code), `Graph at ${origin}`).toMatchObject({ error, host });
    }
  });

  it('answers a screen that reads Microsoft 365 live with 502, the cause as its code and its details', async () => {
    sim.state.setTokenFault(tenantId, 'expiredClientSecret');
    const discovery = await checked(
      'GET',
      `/apollo-beta/api/${tenantId}/discovery/${locationId}/users?application=onedrive`,
    );
    expect(discovery.statusCode).toBe(502);
    expect(discovery.json()).toMatchObject({
      status: 502,
      code: 'm365SecretExpired',
      message: errorTexts.m365SecretExpired(),
      microsoft365: { code: 'm365SecretExpired', aadsts: 'AADSTS7000222', status: 401 },
      traceId: expect.any(String),
    });
    // The legacy shape: the Teams archive's list of teams.
    const teams = await checked('GET', `/api/teams?workerIp=${encodeURIComponent(worker)}`);
    expect(teams.statusCode).toBe(502);
    expect(teams.json()).toMatchObject({ code: 'm365SecretExpired', microsoft365: { aadsts: 'AADSTS7000222' } });
    // The Teams archive's dashboard says the cause, not that Teams is not set up.
    const statistics = await checked('GET', `/api/teams-archive/statistics?workerIp=${encodeURIComponent(worker)}`);
    expect(statistics.statusCode).toBe(502);
    expect(statistics.json()).toMatchObject({ code: 'm365SecretExpired' });

    // A permission missing is named among those of the area that asked: mailboxes for the mail archive.
    sim.state.setTokenFault(tenantId, 'none');
    sim.state.setConsent(
      tenantId,
      ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'User.Read.All'),
    );
    const mailboxes = await checked(
      'GET',
      `/apollo-beta/api/${tenantId}/discovery/${locationId}/users?application=exchange`,
    );
    expect(mailboxes.statusCode).toBe(502);
    expect(mailboxes.json().microsoft365).toMatchObject({
      code: 'm365PermissionMissing',
      missingPermissions: [{ permission: 'User.Read.All', areas: expect.arrayContaining(['mailArchive']) }],
    });

    // Only the permission of the call that failed: listing teams needs GroupMember.Read.All.
    sim.state.setConsent(tenantId, ['User.Read.All', 'Sites.Read.All']);
    // Another address of the same authority: a new client, as the data plane keeps a token (and the
    // roles it was issued with) for up to an hour.
    await point(`${sim.authorityHost}/`, sim.graphBaseUrl);
    const teamList = await checked(
      'GET',
      `/apollo-beta/api/${tenantId}/discovery/${locationId}/users?application=teams`,
    );
    expect(teamList.json().microsoft365).toMatchObject({
      code: 'm365PermissionMissing',
      missingPermissions: [
        { permission: 'GroupMember.Read.All', areas: ['backup', 'mailArchive', 'teamsArchive', 'cleanup'] },
      ],
    });

    // The data-management dashboard's storage analysis: the cause, not a storage location.
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    await point(sim.authorityHost, `${refusedUrl}/v1.0`);
    const dashboard = await checked('GET', `/apollo-beta/api/${tenantId}/dashboard/sharepoint-data-management`);
    expect(dashboard.statusCode).toBe(502);
    expect(dashboard.json()).toMatchObject({ code: 'm365Unreachable', microsoft365: { error: 'ECONNREFUSED' } });

    // User synchronisation keeps its own text, with the cause beside it.
    await point(UNRESOLVABLE, sim.graphBaseUrl);
    const sync = await checked('POST', '/apollo-beta/sync-user-config', { tenantId });
    expect(sync.statusCode).toBe(502);
    expect(sync.json()).toMatchObject({
      message: 'Failures to synchronize users',
      detail: errorTexts.m365HostNotFound(),
      code: 'm365HostNotFound',
      microsoft365: { code: 'm365HostNotFound', host: 'portal-test.invalid' },
    });
  });

  it('refuses access to an item Microsoft 365 keeps from an app that holds the permissions', async () => {
    const model = sim.state.tenant(tenantId);
    const drive = [...model.drives.values()].find((d) => [...d.items.values()].some((i) => i.kind === 'file'));
    const item = [...(drive?.items.values() ?? [])].find((i) => i.kind === 'file');
    if (!drive || !item) throw new Error('the simulated tenant has no file');
    item.forbidden = true;
    try {
      const graph = createGraphApi({
        directoryId: tenantId,
        clientId: 'app',
        clientSecret: 'secret',
        authorityHost: sim.authorityHost,
        graphBaseUrl: sim.graphBaseUrl,
      });
      const refused = await graph.item(drive.id, item.id).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(GraphError);
      expect(diagnose(refused, 'cleanup')).toMatchObject({
        code: 'm365AccessDenied',
        status: 403,
        error: 'accessDenied',
      });
    } finally {
      item.forbidden = false;
    }
  });

  it('names a tenant without a client secret, or with one the server cannot open', async () => {
    const [row] = await server.ctx.db.query<{ client_secret_enc: string }>(
      'select client_secret_enc from tenants where tenant_id = $1',
      [tenantId],
    );
    try {
      await server.ctx.db.query('update tenants set client_secret_enc = null where tenant_id = $1', [tenantId]);
      expect(await failedTest('m365SecretMissing')).toEqual({ code: 'm365SecretMissing' });
      await server.ctx.db.query("update tenants set client_secret_enc = 'not-sealed' where tenant_id = $1", [tenantId]);
      expect(await failedTest('m365SecretUnreadable')).toEqual({ code: 'm365SecretUnreadable' });
    } finally {
      await server.ctx.db.query('update tenants set client_secret_enc = $2 where tenant_id = $1', [
        tenantId,
        row?.client_secret_enc,
      ]);
    }
  });
});

describe('the classification', () => {
  const networkError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

  it('reads the network code through fetch, a GraphError and a happy-eyeballs AggregateError', () => {
    expect(diagnose(new TypeError('fetch failed', { cause: networkError('EAI_AGAIN') }))).toEqual({
      code: 'm365HostNotFound',
      error: 'EAI_AGAIN',
      message: 'fetch failed',
    });
    const both = Object.assign(new AggregateError([networkError('ECONNREFUSED'), networkError('ECONNREFUSED')]), {
      code: 'ECONNREFUSED',
    });
    expect(diagnose(new GraphError(503, 'networkError', 'x', undefined, {}, { cause: both })).code).toBe(
      'm365Unreachable',
    );
    expect(diagnose(networkError('UND_ERR_CONNECT_TIMEOUT')).code).toBe('m365Unreachable');
    expect(diagnose(networkError('CERT_HAS_EXPIRED')).code).toBe('m365TlsFailed');
    expect(diagnose(networkError('ERR_TLS_CERT_ALTNAME_INVALID')).code).toBe('m365TlsFailed');
    expect(diagnose(new Error('something else'))).toEqual({ code: 'm365Failed', message: 'something else' });
  });

  it('puts a known AADSTS code first, then the status, then any other AADSTS code', () => {
    const token = (status: number, aadsts: string) =>
      new GraphError(status, 'invalid_request', 'refused', status === 429 ? 12 : undefined, { aadsts });
    expect(diagnose(token(400, 'AADSTS900023')).code).toBe('m365TenantUnknown');
    expect(diagnose(token(503, 'AADSTS90033')).code).toBe('m365Outage');
    expect(diagnose(token(429, 'AADSTS50196'))).toMatchObject({ code: 'm365Throttled', retryAfter: 12 });
    expect(diagnose(token(400, 'AADSTS50011')).code).toBe('m365TokenRefused');
    expect(diagnose(new GraphError(401, 'InvalidAuthenticationToken', 'expired')).code).toBe('m365Failed');
    expect(diagnose(new GraphError(500, 'generalException', 'boom')).code).toBe('m365Outage');
  });

  it('names a refused permission only with the token’s roles, among the area’s', () => {
    const refused = (roles?: string[]) =>
      new GraphError(403, 'Forbidden', 'Missing role permissions', undefined, roles ? { roles } : {});
    expect(diagnose(refused([]), 'teamsArchive').code).toBe('m365ConsentMissing');
    expect(diagnose(refused(), 'teamsArchive').code).toBe('m365AccessDenied');
    const teams = diagnose(refused(['User.Read.All', 'Group.Read.All']), 'chats');
    expect(teams).toMatchObject({
      code: 'm365PermissionMissing',
      missingPermissions: [{ permission: 'Chat.Read.All', areas: ['chats'] }],
    });
    expect(diagnose(refused(['Group.Read.All', 'Chat.Read.All']), 'teamsArchive').code).toBe('m365AccessDenied');
    expect(diagnose(new TenantSecretError('missing'))).toEqual({ code: 'm365SecretMissing' });
  });
});
