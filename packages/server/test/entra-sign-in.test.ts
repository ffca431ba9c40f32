/**
 * Sign-in with Microsoft Entra ID end to end over HTTP: the portal (openid-client as relying party)
 * against the Graph simulator as the identity platform (its sign-in page, code grant with PKCE,
 * signed ID tokens and JWKS). The ID tokens the simulator makes wrong on purpose (another tenant's,
 * another audience, expired, an earlier sign-in's nonce, a broken signature) are each refused with
 * their own code and a message in English and German; a replayed callback, an account of another
 * organisation and a user linked to another Entra account are refused too. A tenant id an
 * organisation sets is only claimed until a member's sign-in from it proves it (claims of others then
 * end; expired claims are not used; migration 24 keeps older bindings only where proved); changing
 * the sign-in settings asks for the password and a code or a recent sign-in with Microsoft, and is
 * mailed to the organisation's administrators.
 */

import { randomUUID } from 'node:crypto';
import { firstUserAddress, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type ErrorCode, errorMessage } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrations.js';
import type { MailMessage } from '../src/mail/mailer.js';
import { drainBackground } from '../src/modules/identity/background.js';
import {
  ADMIN,
  codeFor,
  DEMO_PASSWORD,
  openTestDatabase,
  organisationId,
  PARTNER,
  sessionToken,
  signIn,
  signInWithSetup,
  type TestServer,
  useTestServer,
} from './helpers.js';

const CONTOSO_TENANT = '3c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const OTHER_TENANT = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
/** The directory of an organisation that registers itself in the tests, and of a second one. */
const OWNER_TENANT = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const SECOND_TENANT = '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e';
const APP = { clientId: '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a', clientSecret: 'portal-sign-in-secret' };
const ADELE = firstUserAddress(CONTOSO_TENANT);
const ALEX = ADELE.replace('adele@', 'alex@');

const server: TestServer = useTestServer();
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [
      { tenantId: CONTOSO_TENANT, size: { users: 3 } },
      { tenantId: OTHER_TENANT, size: { users: 2 } },
      { tenantId: OWNER_TENANT, size: { users: 2 } },
      { tenantId: SECOND_TENANT, size: { users: 2 } },
    ],
    signInApps: [{ ...APP, redirectUris: [`${server.ctx.config.publicUrl}/signin/microsoft`] }],
  });
  server.ctx.config.entra = { ...APP, authority: sim.authorityHost };
  const db = server.ctx.db;
  const contoso = await organisationId(server, 'Contoso');
  const fabrikam = await organisationId(server, 'Fabrikam Partners');
  contosoId = contoso;
  await bindContoso();
  const [admin] = await db.query<{ password_hash: string }>('select password_hash from users where email = $1', [
    ADMIN,
  ]);
  // Adele is Contoso's; Alex, of the same Entra tenant, has a portal account in another organisation.
  for (const [email, organisation] of [
    [ADELE, contoso],
    [ALEX, fabrikam],
  ] as const) {
    await db.query(
      `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
       values (gen_random_uuid()::text, $1, $1, $2, 'admin', $3, true)`,
      [email, admin?.password_hash, organisation],
    );
  }
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  sim.state.idTokenFault = 'none';
  await server.ctx.db.query('update users set entra_object_id = null');
  await server.ctx.db.query(`update organisations set password_sign_in = true`);
  await bindContoso();
});

let contosoId = '';

/** Contoso signs in with Microsoft from its tenant, bound (as the operator binds one). */
async function bindContoso() {
  await server.ctx.db.query(
    `update organisations set entra_sign_in = true, entra_tenant_id = $2, entra_tenant_bound_at = $3,
       entra_tenant_bound_by = null, entra_tenant_proof = 'operator', entra_pending_tenant_id = null,
       entra_pending_since = null, entra_pending_expires_at = null, entra_pending_set_by = null
     where id = $1`,
    [contosoId, CONTOSO_TENANT, server.ctx.now()],
  );
}

const post = (url: string, body: unknown, token?: string) =>
  server.request({ method: 'POST', url, body, ...(token ? { token } : {}) });

/** Starts a sign-in for `email`; answers the authorization URL. */
async function start(email: string): Promise<URL> {
  const answer = await post('/api/auth/microsoft/start', { email });
  expect(answer.statusCode, answer.body).toBe(200);
  return new URL((answer.json() as { authorizationUrl: string }).authorizationUrl);
}

/** Signs in on the simulator's page as `login`; answers the code and state it returns. */
async function signInAt(url: URL, login: string): Promise<{ code: string; state: string }> {
  const page = await (await fetch(url)).text();
  const flow = /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow, login }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(`${server.ctx.config.publicUrl}/signin/microsoft`);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

const complete = (callback: { code: string; state: string }) => post('/api/auth/microsoft/complete', callback);

/** The refusal's code, and its messages in both languages (the SDK's catalogue). */
function refusedWith(answer: { statusCode: number; json(): unknown }, code: ErrorCode) {
  return refusedWithStatus(answer, 400, code);
}

function refusedWithStatus(answer: { statusCode: number; json(): unknown }, status: number, code: ErrorCode) {
  expect(answer.statusCode).toBe(status);
  const body = answer.json() as { code?: string; message?: string };
  expect(body.code).toBe(code);
  const english = errorMessage(body, 'en').message;
  const german = errorMessage(body, 'de').message;
  expect(english).not.toBe(german);
  expect(english.length).toBeGreaterThan(20);
  return { english, german };
}

describe('sign-in with Microsoft', () => {
  it("signs a user in through the organisation's tenant and links the Entra account", async () => {
    const started = Date.now();
    const url = await start(ADELE);
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authorityHost}/${CONTOSO_TENANT}/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: APP.clientId,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      login_hint: ADELE,
      redirect_uri: `${server.ctx.config.publicUrl}/signin/microsoft`,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const answer = await complete(await signInAt(url, ADELE));
    expect(answer.statusCode, answer.body).toBe(200);
    const { token, user } = answer.json() as { token: string; user: { email: string } };
    expect(user.email).toBe(ADELE);
    console.log(`sign-in with Microsoft through the simulator: ${Date.now() - started} ms`);
    const me = await server.request({ method: 'GET', url: '/api/auth/verify-user', token });
    expect(me.statusCode).toBe(200);
    const tenantUser = sim.state.tenant(CONTOSO_TENANT).users.find((u) => u.upn === ADELE);
    const [linked] = await server.ctx.db.query<{ entra_object_id: string }>(
      'select entra_object_id from users where email = $1',
      [ADELE],
    );
    expect(linked?.entra_object_id).toBe(tenantUser?.id);
    const activity = await server.request({ method: 'GET', url: '/api/auth/sessions/activity', token });
    expect((activity.json() as { items: { kind: string; method?: string }[] }).items[0]).toMatchObject({
      kind: 'signedIn',
      method: 'microsoft',
    });
  });

  it.each([
    ['otherTenant', 'entraOtherTenant'],
    ['wrongAudience', 'entraWrongAudience'],
    ['expired', 'entraExpired'],
    ['replayedNonce', 'entraReplayed'],
    ['tamperedSignature', 'entraBadSignature'],
  ] as const)('refuses an ID token made wrong by %s with %s, in English and German', async (fault, code) => {
    // An earlier, good sign-in, so that a replayed nonce has one to come from.
    await complete(await signInAt(await start(ADELE), ADELE));
    sim.state.idTokenFault = fault;
    const answer = await complete(await signInAt(await start(ADELE), ADELE));
    refusedWith(answer, code);
    const [audit] = await server.ctx.db.query<{ outcome: string; details: { code: string } }>(
      `select outcome, details from audit_log where action = 'auth.microsoft' order by seq desc limit 1`,
    );
    expect(audit).toMatchObject({ outcome: 'failure', details: { code } });
  });

  it('refuses a replayed callback: its state is used', async () => {
    const callback = await signInAt(await start(ADELE), ADELE);
    expect((await complete(callback)).statusCode).toBe(200);
    refusedWith(await complete(callback), 'entraReplayed');
    refusedWith(await complete({ code: callback.code, state: 'made-up-state' }), 'entraReplayed');
  });

  it('matches only within the organisation: an account of the same tenant in another organisation is refused', async () => {
    // Alex signs in at Contoso's tenant, where his portal account is Fabrikam's.
    refusedWith(await complete(await signInAt(await start(ADELE), ALEX)), 'entraNoAccount');
    const [alex] = await server.ctx.db.query<{ entra_object_id: string | null }>(
      'select entra_object_id from users where email = $1',
      [ALEX],
    );
    expect(alex?.entra_object_id).toBeNull();
  });

  it('refuses a user linked to another Entra account', async () => {
    await server.ctx.db.query(`update users set entra_object_id = 'another-object-id' where email = $1`, [ADELE]);
    refusedWith(await complete(await signInAt(await start(ADELE), ADELE)), 'entraNoAccount');
  });

  it('does not start for an organisation without it, nor tell an unknown address apart', async () => {
    const other = await post('/api/auth/microsoft/start', { email: PARTNER });
    const unknown = await post('/api/auth/microsoft/start', { email: 'nobody@nowhere.example' });
    refusedWith(other, 'entraNotAvailable');
    expect(unknown.json()).toMatchObject({
      code: 'entraNotAvailable',
      message: (other.json() as { message: string }).message,
    });
  });

  it('says whether the server offers it', async () => {
    const answer = await server.request({ method: 'GET', url: '/api/auth/sign-in-options' });
    expect(answer.json()).toEqual({ microsoft: true });
  });
});

const settings = (token: string) => server.request({ method: 'GET', url: '/api/auth/sign-in-settings', token });
const put = (token: string, body: object) =>
  server.request({ method: 'PUT', url: '/api/auth/sign-in-settings', token, body });

/** A member signed in with password and authenticator (set up at this sign-in). */
interface Member {
  email: string;
  token: string;
  key: string;
  recoveryCodes: string[];
  organisationId: string;
}

/** An organisation of its own, registered as anyone may (a trial), its administrator signed in. */
async function registered(email: string): Promise<Member> {
  const answer = await server.request({
    method: 'POST',
    url: '/apollo-beta/register',
    body: { email, password: DEMO_PASSWORD },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  // Confirming the address is another test's subject.
  const [row] = await server.ctx.db.query<{ organisation_id: string }>(
    'update users set email_confirmed = true where email = $1 returning organisation_id',
    [email],
  );
  const setup = await signInWithSetup(server, email);
  return { email, ...setup, organisationId: row?.organisation_id ?? '' };
}

/** The password and a code of the member's authenticator (of a time step not used before). */
function confirmation(member: Member) {
  server.clock.advance(30_000);
  return { oldPassword: DEMO_PASSWORD, twoFactorCode: codeFor(server, member.key) };
}

/** Signs in with Microsoft: started for `email`, signed in on the identity platform's page as `login`. */
async function microsoft(email: string, login = email) {
  return complete(await signInAt(await start(email), login));
}

interface TenantColumns {
  entra_sign_in: boolean;
  entra_tenant_id: string | null;
  entra_tenant_bound_by: string | null;
  entra_tenant_proof: string | null;
  entra_pending_tenant_id: string | null;
  password_sign_in: boolean;
}

async function tenantColumns(organisationId: string): Promise<TenantColumns | undefined> {
  const [row] = await server.ctx.db.query<TenantColumns>(
    `select entra_sign_in, entra_tenant_id, entra_tenant_bound_by, entra_tenant_proof, entra_pending_tenant_id,
            password_sign_in from organisations where id = $1`,
    [organisationId],
  );
  return row;
}

async function lastAudit(action: string) {
  const [row] = await server.ctx.db.query<{
    actor_email: string | null;
    organisation_id: string | null;
    outcome: string;
    target: string | null;
    details: Record<string, unknown>;
  }>(
    'select actor_email, organisation_id, outcome, target, details from audit_log where action = $1 order by seq desc limit 1',
    [action],
  );
  return row;
}

/** The mails sent while `work` ran, and the work's own answer (the mails go after the answer). */
async function mailsDuring<T>(work: () => Promise<T>): Promise<{ result: T; mails: MailMessage[] }> {
  const before = server.mails.length;
  const result = await work();
  await drainBackground(server.ctx);
  return { result, mails: server.mails.slice(before) };
}

const DAY = 24 * 3600_000;

describe("the organisation's sign-in settings", () => {
  it('turns password sign-in off only after the person has signed in with Microsoft, then refuses passwords', async () => {
    const adminToken = await sessionToken(server, ADMIN);
    const put = (body: unknown, token = adminToken) =>
      server.request({ method: 'PUT', url: '/api/auth/sign-in-settings', token, body });
    const read = await server.request({ method: 'GET', url: '/api/auth/sign-in-settings', token: adminToken });
    expect(read.json()).toMatchObject({
      microsoft: true,
      entraTenantId: CONTOSO_TENANT,
      password: true,
      entraTenant: { tenantId: CONTOSO_TENANT, state: 'bound', proof: 'operator', by: null, expiresAt: null },
      reauthentication: { needed: true, microsoftUntil: null, secondFactor: true },
    });
    const off = { microsoft: true, entraTenantId: CONTOSO_TENANT, password: false };
    expect((await put(off)).json()).toMatchObject({ code: 'passwordOffNeedsMicrosoft' });
    expect((await put({ microsoft: true, entraTenantId: null, password: true })).json()).toMatchObject({
      code: 'entraTenantRequired',
    });
    expect((await put({ microsoft: false, entraTenantId: null, password: false })).json()).toMatchObject({
      code: 'passwordOffNeedsMicrosoft',
    });
    const signedIn = await complete(await signInAt(await start(ADELE), ADELE));
    const adeleToken = (signedIn.json() as { token: string }).token;
    // A sign-in with Microsoft a moment ago confirms the change: no password, no code.
    const changed = await put(off, adeleToken);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject(off);

    const legacy = await post('/api/auth/signin', { email: ADMIN, password: DEMO_PASSWORD });
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json()).toMatchObject({ code: 'passwordSignInOff' });
    const apollo = await server.request({
      method: 'POST',
      url: '/apollo/login',
      body: { email: ADMIN, password: DEMO_PASSWORD },
    });
    expect(apollo.statusCode).toBe(401);
    expect(apollo.json()).toMatchObject({ detail: 'NotAllowed' });
    const audit = await lastAudit('organisation.signIn.update');
    expect(audit?.details).toMatchObject({ before: { password: true }, after: { password: false } });
  });

  it('refuses a tenant another organisation has proved, before asking who you are', async () => {
    const partnerToken = await sessionToken(server, PARTNER);
    const answer = await put(partnerToken, {
      microsoft: true,
      entraTenantId: CONTOSO_TENANT.toUpperCase(),
      password: true,
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ code: 'entraTenantTaken' });
  });
});

describe('binding a tenant needs proof of control', () => {
  it("lets a trial only claim the owner's tenant: the owner claims it too, proves it by signing in from it, and the claim ends", async () => {
    const squatter = await registered(`eve-${randomUUID().slice(0, 6)}@squatter.example`);
    const owner = await registered(firstUserAddress(OWNER_TENANT));
    const body = { microsoft: true, entraTenantId: OWNER_TENANT, password: true };
    const claimed = await put(squatter.token, { ...body, ...confirmation(squatter) });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const setAt = server.ctx.now();
    expect(claimed.json()).toMatchObject({
      entraTenantId: OWNER_TENANT,
      entraTenant: {
        tenantId: OWNER_TENANT,
        state: 'pending',
        since: setAt.toISOString(),
        expiresAt: new Date(setAt.getTime() + 7 * DAY).toISOString(),
        by: squatter.email,
        proof: null,
      },
    });
    expect((await tenantColumns(squatter.organisationId))?.entra_tenant_id).toBeNull();

    // The owner is not told the tenant is taken: a claim is not a binding.
    const ownerClaim = await put(owner.token, { ...body, ...confirmation(owner) });
    expect(ownerClaim.statusCode, ownerClaim.body).toBe(200);
    expect(ownerClaim.json()).toMatchObject({ entraTenant: { state: 'pending', by: owner.email } });

    // A member of the directory coming through the trial's claim is no member of the trial: nothing binds.
    refusedWith(await microsoft(squatter.email, owner.email), 'entraNoAccount');
    expect(await tenantColumns(squatter.organisationId)).toMatchObject({ entra_pending_tenant_id: OWNER_TENANT });
    expect(await tenantColumns(owner.organisationId)).toMatchObject({ entra_tenant_id: null });

    const proved = await microsoft(owner.email);
    expect(proved.statusCode, proved.body).toBe(200);
    expect((proved.json() as { user: { email: string } }).user.email).toBe(owner.email);
    expect(await tenantColumns(owner.organisationId)).toMatchObject({
      entra_tenant_id: OWNER_TENANT,
      entra_tenant_bound_by: owner.email,
      entra_tenant_proof: 'microsoftSignIn',
      entra_pending_tenant_id: null,
    });
    expect(await tenantColumns(squatter.organisationId)).toMatchObject({
      entra_tenant_id: null,
      entra_pending_tenant_id: null,
    });
    const bound = await lastAudit('organisation.entraTenant.bound');
    expect(bound).toMatchObject({
      actor_email: owner.email,
      organisation_id: owner.organisationId,
      target: OWNER_TENANT,
      outcome: 'success',
      details: { tenantId: OWNER_TENANT, proof: 'microsoftSignIn', pendingEnded: [squatter.organisationId] },
    });
    expect(await lastAudit('organisation.entraTenant.pendingEnded')).toMatchObject({
      organisation_id: squatter.organisationId,
      target: OWNER_TENANT,
    });
    const ownerToken = (proved.json() as { token: string }).token;
    expect((await settings(ownerToken)).json()).toMatchObject({
      entraTenant: { state: 'bound', since: server.ctx.now().toISOString(), by: owner.email, proof: 'microsoftSignIn' },
    });

    // The trial: no sign-in with Microsoft, nothing pending, and the tenant is now taken.
    refusedWith(await post('/api/auth/microsoft/start', { email: squatter.email }), 'entraNotAvailable');
    expect((await settings(squatter.token)).json()).toMatchObject({ entraTenantId: null, entraTenant: null });
    const again = await put(squatter.token, { ...body, ...confirmation(squatter) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'entraTenantTaken' });
  });

  it('is not proved by a sign-in whose ID token comes from another tenant', async () => {
    const member = await registered(firstUserAddress(SECOND_TENANT));
    const claimed = await put(member.token, {
      microsoft: true,
      entraTenantId: SECOND_TENANT,
      password: true,
      ...confirmation(member),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    sim.state.idTokenFault = 'otherTenant';
    refusedWith(await microsoft(member.email), 'entraOtherTenant');
    expect(await tenantColumns(member.organisationId)).toMatchObject({
      entra_tenant_id: null,
      entra_pending_tenant_id: SECOND_TENANT,
    });
    expect((await settings(member.token)).json()).toMatchObject({ entraTenant: { state: 'pending' } });
  });

  it('expires a claim not proved within 7 days: no sign-in with it, shown as expired, and set again to start anew', async () => {
    const member = await registered(`admin-${randomUUID().slice(0, 6)}@expiring.example`);
    // A directory of which the member has an account: the tenant's second user takes the member's address.
    const tenantUser = sim.state.tenant(OTHER_TENANT).users[1];
    if (!tenantUser) throw new Error('the simulated tenant has no second user');
    await server.ctx.db.query('update users set email = $2 where email = $1', [member.email, tenantUser.upn]);
    member.email = tenantUser.upn;
    const body = { microsoft: true, entraTenantId: OTHER_TENANT, password: true };
    expect((await put(member.token, { ...body, ...confirmation(member) })).statusCode).toBe(200);
    const setAt = server.ctx.now().getTime();

    // Started within the 7 days, finished after them: not a proof any more.
    server.clock.set(new Date(setAt + 7 * DAY - 2 * 60_000).toISOString());
    const url = await start(member.email);
    server.clock.advance(3 * 60_000);
    refusedWith(await complete(await signInAt(url, member.email)), 'entraNotAvailable');
    refusedWith(await post('/api/auth/microsoft/start', { email: member.email }), 'entraNotAvailable');
    // A week on, the member signs in again (a session lives 12 hours).
    member.token = await signIn(server, member.email, member.key);
    expect((await settings(member.token)).json()).toMatchObject({
      entraTenantId: OTHER_TENANT,
      entraTenant: { state: 'expired', expiresAt: new Date(setAt + 7 * DAY).toISOString() },
    });

    const restarted = await put(member.token, { ...body, ...confirmation(member) });
    expect(restarted.statusCode, restarted.body).toBe(200);
    expect(restarted.json()).toMatchObject({
      entraTenant: { state: 'pending', since: server.ctx.now().toISOString() },
    });
    const proved = await microsoft(member.email);
    expect(proved.statusCode, proved.body).toBe(200);
    expect(await tenantColumns(member.organisationId)).toMatchObject({ entra_tenant_id: OTHER_TENANT });
  });

  it('keeps password sign-in on while the tenant is only pending', async () => {
    // Adele has signed in with Microsoft; Contoso then sets another directory, not proved yet.
    const adeleToken = ((await microsoft(ADELE)).json() as { token: string }).token;
    const answer = await put(adeleToken, { microsoft: true, entraTenantId: OTHER_TENANT, password: false });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'passwordOffNeedsBoundTenant' });
    refusedWith(answer, 'passwordOffNeedsBoundTenant');
    expect(await tenantColumns(contosoId)).toMatchObject({
      entra_tenant_id: CONTOSO_TENANT,
      entra_pending_tenant_id: null,
      password_sign_in: true,
    });
  });
});

describe('migration 24: bindings made before proof was asked for', () => {
  it('keeps a binding bound only where a member has signed in with Microsoft from it; the others wait as pending', async () => {
    const { db, drop } = await openTestDatabase();
    try {
      await migrate(db, { through: 23 });
      const organisations = [
        ['org-proved', 'Proved', 'proved', CONTOSO_TENANT, false],
        ['org-unproved', 'Unproved', 'unproved', OTHER_TENANT, false],
        ['org-none', 'None', 'none', null, true],
      ] as const;
      for (const [id, name, abbr, tenant, password] of organisations) {
        await db.query(
          `insert into organisations (id, name, kind, license, abbr, entra_sign_in, entra_tenant_id, password_sign_in)
           values ($1, $2, 'customer', 'full', $3, $4, $5, $6)`,
          [id, name, abbr, tenant !== null, tenant, password],
        );
      }
      for (const [id, organisation, oid] of [
        ['u1', 'org-proved', 'entra-oid-1'],
        ['u2', 'org-proved', null],
        ['u3', 'org-unproved', null],
      ] as const) {
        await db.query(
          `insert into users (id, email, display_name, password_hash, role, organisation_id, entra_object_id)
           values ($1, $1 || '@example.com', $1, 'x', 'admin', $2, $3)`,
          [id, organisation, oid],
        );
      }
      const migratedAt = Date.now();
      expect(await migrate(db)).toContain(24);
      const rows = await db.query<
        TenantColumns & { id: string; entra_pending_since: Date | null; entra_pending_expires_at: Date | null }
      >(
        `select id, entra_sign_in, entra_tenant_id, entra_tenant_bound_by, entra_tenant_proof, entra_pending_tenant_id,
                entra_pending_since, entra_pending_expires_at, password_sign_in from organisations order by id`,
      );
      const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
      expect(byId['org-proved']).toMatchObject({
        entra_tenant_id: CONTOSO_TENANT,
        entra_tenant_proof: 'microsoftSignIn',
        entra_tenant_bound_by: 'u1@example.com',
        entra_pending_tenant_id: null,
        password_sign_in: false,
      });
      const unproved = byId['org-unproved'];
      expect(unproved).toMatchObject({
        entra_sign_in: true,
        entra_tenant_id: null,
        entra_tenant_proof: null,
        entra_pending_tenant_id: OTHER_TENANT,
        password_sign_in: true,
      });
      const since = new Date(unproved?.entra_pending_since ?? 0).getTime();
      expect(Math.abs(since - migratedAt)).toBeLessThan(60_000);
      expect(new Date(unproved?.entra_pending_expires_at ?? 0).getTime() - since).toBe(7 * DAY);
      expect(byId['org-none']).toMatchObject({ entra_tenant_id: null, entra_pending_tenant_id: null });
    } finally {
      await drop();
    }
  });
});

describe('organisation-wide sign-in changes ask again who you are', () => {
  const newTenant = () => randomUUID();

  it('refuses a change without the password and a code, changing nothing, auditing it and mailing nobody', async () => {
    const member = await registered(`admin-${randomUUID().slice(0, 6)}@reauth.example`);
    const tenant = newTenant();
    const { result, mails } = await mailsDuring(() =>
      put(member.token, { microsoft: true, entraTenantId: tenant, password: true }),
    );
    expect(result.statusCode).toBe(403);
    expect(result.json()).toMatchObject({ code: 'reauthenticationRequired' });
    const { english, german } = refusedWithStatus(result, 403, 'reauthenticationRequired');
    expect(english).toContain('password');
    expect(german).toContain('Passwort');
    // The password alone is not enough either.
    const passwordOnly = await put(member.token, {
      microsoft: true,
      entraTenantId: tenant,
      password: true,
      oldPassword: DEMO_PASSWORD,
    });
    expect(passwordOnly.json()).toMatchObject({ code: 'reauthenticationRequired' });
    expect(mails).toEqual([]);
    expect(await tenantColumns(member.organisationId)).toMatchObject({
      entra_sign_in: false,
      entra_pending_tenant_id: null,
    });
    expect(await lastAudit('organisation.signIn.update')).toMatchObject({
      actor_email: member.email,
      organisation_id: member.organisationId,
      outcome: 'failure',
      details: { reason: 'reauthenticationRequired' },
    });
    // Saving the settings as they are changes nothing and asks for nothing.
    const same = await put(member.token, { microsoft: false, entraTenantId: null, password: true });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('refuses a wrong password and a wrong code, each counted toward the lockout', async () => {
    const member = await registered(`admin-${randomUUID().slice(0, 6)}@reauth.example`);
    const change = { microsoft: true, entraTenantId: newTenant(), password: true };
    const failures = async () =>
      (
        await server.ctx.db.query<{ failed_attempts: number }>('select failed_attempts from users where email = $1', [
          member.email,
        ])
      )[0]?.failed_attempts;
    const { result: wrongPassword, mails } = await mailsDuring(() =>
      put(member.token, { ...change, ...confirmation(member), oldPassword: 'Not-the-passw0rd!' }),
    );
    refusedWithStatus(wrongPassword, 403, 'reauthenticationPasswordWrong');
    expect(await failures()).toBe(1);
    const wrongCode = await put(member.token, { ...change, oldPassword: DEMO_PASSWORD, twoFactorCode: '000000' });
    refusedWithStatus(wrongCode, 403, 'reauthenticationCodeWrong');
    expect(await failures()).toBe(2);
    const wrongRecovery = await put(member.token, {
      ...change,
      oldPassword: DEMO_PASSWORD,
      twoFactorRecoveryCode: 'AAAAA-AAAAA',
    });
    refusedWithStatus(wrongRecovery, 403, 'reauthenticationCodeWrong');
    expect(await failures()).toBe(3);
    expect(mails).toEqual([]);
    expect(await lastAudit('organisation.signIn.update')).toMatchObject({
      outcome: 'failure',
      details: { reason: 'reauthenticationCodeWrong' },
    });
    // Two more wrong codes lock the account: then even the right ones are refused.
    await put(member.token, { ...change, oldPassword: DEMO_PASSWORD, twoFactorCode: '000001' });
    await put(member.token, { ...change, oldPassword: DEMO_PASSWORD, twoFactorCode: '000002' });
    const locked = await put(member.token, { ...change, ...confirmation(member) });
    refusedWithStatus(locked, 403, 'accountLocked');
    expect(await tenantColumns(member.organisationId)).toMatchObject({ entra_pending_tenant_id: null });
  });

  it('accepts the password with a code, or with a recovery code (used up)', async () => {
    const member = await registered(`admin-${randomUUID().slice(0, 6)}@reauth.example`);
    const withCode = await put(member.token, {
      microsoft: true,
      entraTenantId: newTenant(),
      password: true,
      ...confirmation(member),
    });
    expect(withCode.statusCode, withCode.body).toBe(200);
    const recoveryCode = member.recoveryCodes[0] ?? '';
    const change = {
      microsoft: false,
      entraTenantId: null,
      password: true,
      oldPassword: DEMO_PASSWORD,
      twoFactorRecoveryCode: recoveryCode,
    };
    const withRecoveryCode = await put(member.token, change);
    expect(withRecoveryCode.statusCode, withRecoveryCode.body).toBe(200);
    expect(withRecoveryCode.json()).toMatchObject({ microsoft: false, entraTenantId: null, entraTenant: null });
    const reused = await put(member.token, { ...change, microsoft: true, entraTenantId: newTenant() });
    refusedWithStatus(reused, 403, 'reauthenticationCodeWrong');
  });

  it('takes a sign-in with Microsoft 5 minutes ago instead, but not one 11 minutes ago', async () => {
    const fresh = await microsoft(ADELE);
    const token = (fresh.json() as { token: string }).token;
    const signedInAt = server.ctx.now().getTime();
    expect((await settings(token)).json()).toMatchObject({
      reauthentication: { needed: false, microsoftUntil: new Date(signedInAt + 10 * 60_000).toISOString() },
    });
    server.clock.advance(5 * 60_000);
    const off = await put(token, { microsoft: true, entraTenantId: CONTOSO_TENANT, password: false });
    expect(off.statusCode, off.body).toBe(200);

    server.clock.advance(6 * 60_000);
    expect((await settings(token)).json()).toMatchObject({ reauthentication: { needed: true } });
    const on = await put(token, { microsoft: true, entraTenantId: CONTOSO_TENANT, password: true });
    refusedWithStatus(on, 403, 'reauthenticationRequired');
    expect(await tenantColumns(contosoId)).toMatchObject({ password_sign_in: false });
  });

  it("mails the organisation's administrators what changed, by whom, when and from where", async () => {
    const member = await registered(`admin-${randomUUID().slice(0, 6)}@mailed.example`);
    const colleague = `colleague-${randomUUID().slice(0, 6)}@mailed.example`;
    const unconfirmed = `new-${randomUUID().slice(0, 6)}@mailed.example`;
    for (const [email, confirmed] of [
      [colleague, true],
      [unconfirmed, false],
    ] as const) {
      await server.ctx.db.query(
        `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
         values (gen_random_uuid()::text, $1, $1, 'x', 'admin', $2, $3)`,
        [email, member.organisationId, confirmed],
      );
    }
    const tenant = newTenant();
    const { result, mails } = await mailsDuring(() =>
      put(member.token, { microsoft: true, entraTenantId: tenant, password: true, ...confirmation(member) }),
    );
    expect(result.statusCode, result.body).toBe(200);
    const at = server.ctx.now();
    expect(mails.map((mail) => mail.to).sort()).toEqual([colleague, member.email].sort());
    const [mail] = mails;
    const organisation = member.email.split('@')[1];
    expect(mail?.subject).toBe(`The sign-in settings of ${organisation} were changed`);
    const expiry = new Date(at.getTime() + 7 * DAY).toISOString().slice(0, 16).replace('T', ' ');
    expect(mail?.text).toContain(
      `${member.email} changed how ${organisation} signs in to the compliance portal on ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC, from the address 127.0.0.1:`,
    );
    expect(mail?.text).toContain('- Sign in with Microsoft: off → on');
    expect(mail?.text).toContain(
      `- Entra tenant: none → ${tenant} (pending: confirmed when a member signs in with Microsoft from this tenant by ${expiry} UTC)`,
    );
    expect(mail?.text).not.toContain('Password sign-in');
    expect(mail?.link).toBeUndefined();
  });
});
