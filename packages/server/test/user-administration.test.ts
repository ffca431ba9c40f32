/**
 * User administration over HTTP: the users list with each user's state and last sign-in; inviting,
 * accepting an invitation and sending it again; deactivating (sessions end, sign-in refused in words),
 * reactivating and deleting, refused for oneself and for an organisation's last active administrator;
 * another organisation's users answered as unknown; every change audited.
 */
import type { PortalUser } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, codeFor, organisationId, PARTNER, sessionToken, type TestServer, useTestServer } from './helpers.js';

const PASSWORD = 'Invited-Passw0rd!';

/** The invitation token of the last mail to `to`. */
function invitationToken(server: TestServer, to: string): string {
  const mail = server.mails.filter((m) => m.to.toLowerCase() === to.toLowerCase()).at(-1);
  const link = mail?.link ?? '';
  expect(link).toMatch(/^http:\/\/portal\.test\/invitation\/[\w-]+$/);
  return link.split('/').at(-1) ?? '';
}

/** Accepts the last invitation of `to`, signs in and sets up the authenticator: a signed-in session. */
async function acceptAndSetUp(server: TestServer, to: string): Promise<string> {
  const accepted = await server.request({
    method: 'POST',
    url: `/api/auth/invitations/${invitationToken(server, to)}`,
    body: { password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  expect(accepted.json()).toEqual({ email: to.toLowerCase() });
  // The invitee signs in with the new password, which begins with the authenticator's setup.
  const signin = await server.request({
    method: 'POST',
    url: '/api/auth/signin',
    body: { email: to, password: PASSWORD },
  });
  expect(signin.statusCode, signin.body).toBe(200);
  const { token, twoFactor } = signin.json() as { token: string; twoFactor: string };
  expect(twoFactor).toBe('setup');
  const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token });
  const { key } = qr.json() as { key: string };
  const verified = await server.request({
    method: 'POST',
    url: '/api/auth/qrcode-verification',
    token,
    body: { code: codeFor(server, key) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  server.clock.advance(30_000);
  return (verified.json() as { token: string }).token;
}

describe('user administration', () => {
  const server = useTestServer();
  let admin = '';
  let partner = '';
  let contosoId = '';
  let northwindId = '';
  const legacy = (method: string, path: string, token: string, body?: unknown) =>
    server.request({ method, url: `/api${path}`, token, ...(body !== undefined ? { body } : {}) });
  const invite = async (token: string, email: string, organisation?: string) => {
    const created = await legacy('POST', '/admin/user_create', token, {
      email,
      displayName: email.split('@')[0],
      role: 'admin',
      ...(organisation ? { organisationId: organisation } : {}),
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as PortalUser;
  };
  const audited = (action: string, target: string) =>
    server.ctx.db.query<{ actor_email: string; organisation_id: string; details: Record<string, unknown> }>(
      'select actor_email, organisation_id, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  const listed = async (token: string, query = '') =>
    ((await legacy('GET', `/admin/users${query}`, token)).json() as { items: PortalUser[] }).items;

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
    contosoId = await organisationId(server, 'Contoso');
    northwindId = await organisationId(server, 'Northwind Traders');
  });

  it('invites a user, who accepts on the invitation page, sets up 2FA and becomes active', async () => {
    const user = await invite(admin, 'invitee@contoso.example');
    expect(user).toMatchObject({ status: 'invited', lastSignInAt: null, deactivatedAt: null });
    expect(user.invitedAt).toBe(new Date(server.clock.now).toISOString());
    const token = invitationToken(server, 'invitee@contoso.example');

    const page = await legacy('GET', `/auth/invitations/${token}`, '');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toEqual({
      email: 'invitee@contoso.example',
      displayName: 'invitee',
      organisationName: 'Contoso',
      expiresAt: new Date(server.clock.now + 7 * 24 * 3600_000).toISOString(),
    });
    // The password's rules and its repetition are checked before the link is used.
    const weak = await legacy('POST', `/auth/invitations/${token}`, '', {
      password: 'short',
      confirmPassword: 'short',
    });
    expect(weak.statusCode).toBe(400);
    const differ = await legacy('POST', `/auth/invitations/${token}`, '', {
      password: PASSWORD,
      confirmPassword: `${PASSWORD}x`,
    });
    expect(differ.json()).toEqual({ message: 'The passwords do not match.' });

    server.clock.advance(60_000);
    const session = await acceptAndSetUp(server, 'invitee@contoso.example');
    expect((await legacy('GET', '/auth/verify-user', session)).statusCode).toBe(200);
    const [row] = (await listed(admin, '?search=invitee')).filter((u) => u.userId === user.userId);
    expect(row).toMatchObject({ status: 'active', twoFactorEnabled: true });
    expect(row?.lastSignInAt).toBe(new Date(server.clock.now - 30_000).toISOString());
    expect(await audited('user.invitation.accept', user.userId)).toEqual([
      { actor_email: 'invitee@contoso.example', organisation_id: contosoId, details: {} },
    ]);

    // The link works once.
    const again = await legacy('GET', `/auth/invitations/${token}`, '');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'invitationInvalid' });
    const reuse = await legacy('POST', `/auth/invitations/${token}`, '', {
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(reuse.statusCode).toBe(404);
    expect(reuse.json()).toMatchObject({ code: 'invitationInvalid' });
  });

  it('sends an invitation again, voiding the earlier link; refused once accepted or while deactivated', async () => {
    const user = await invite(admin, 'resent@contoso.example');
    const first = invitationToken(server, 'resent@contoso.example');
    server.clock.advance(60_000);
    const resent = await legacy('POST', `/admin/users/${user.userId}/invitation`, admin, {});
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'invited', invitedAt: new Date(server.clock.now).toISOString() });
    const second = invitationToken(server, 'resent@contoso.example');
    expect(second).not.toBe(first);
    expect((await legacy('GET', `/auth/invitations/${first}`, '')).statusCode).toBe(404);
    expect((await legacy('GET', `/auth/invitations/${second}`, '')).statusCode).toBe(200);
    expect(await audited('user.invitation.resend', user.userId)).toEqual([
      { actor_email: ADMIN, organisation_id: contosoId, details: { email: 'resent@contoso.example' } },
    ]);

    // Deactivated: the link stops working, and sending it again is refused until reactivation.
    expect((await legacy('PUT', `/admin/users/${user.userId}/deactivation`, admin)).statusCode).toBe(200);
    expect((await legacy('GET', `/auth/invitations/${second}`, '')).statusCode).toBe(404);
    const whileDeactivated = await legacy('POST', `/admin/users/${user.userId}/invitation`, admin, {});
    expect(whileDeactivated.statusCode).toBe(409);
    expect(whileDeactivated.json()).toMatchObject({ code: 'userDeactivated' });
    expect((await legacy('DELETE', `/admin/users/${user.userId}/deactivation`, admin)).statusCode).toBe(200);
    expect((await legacy('POST', `/admin/users/${user.userId}/invitation`, admin, {})).statusCode).toBe(200);
    await acceptAndSetUp(server, 'resent@contoso.example');
    const accepted = await legacy('POST', `/admin/users/${user.userId}/invitation`, admin, {});
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toEqual({
      message: 'This user has accepted the invitation already.',
      code: 'invitationAccepted',
    });
  });

  it('deactivates a user: their sessions end, sign-in is refused in words, and reactivation lets them in', async () => {
    const user = await invite(admin, 'leaver@contoso.example');
    const session = await acceptAndSetUp(server, 'leaver@contoso.example');
    const deactivated = await legacy('PUT', `/admin/users/${user.userId}/deactivation`, admin);
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(deactivated.json()).toMatchObject({
      status: 'deactivated',
      deactivatedAt: new Date(server.clock.now).toISOString(),
    });
    expect((await legacy('GET', '/auth/verify-user', session)).statusCode).toBe(401);
    expect(await audited('user.deactivate', user.userId)).toEqual([
      {
        actor_email: ADMIN,
        organisation_id: contosoId,
        details: { email: 'leaver@contoso.example', sessionsEnded: 1 },
      },
    ]);

    // The right password is told the account is deactivated; a wrong one reads as any wrong password.
    const refused = await legacy('POST', '/auth/signin', '', { email: 'leaver@contoso.example', password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: 'This account has been deactivated. Ask an administrator of your organisation to reactivate it.',
      code: 'accountDeactivated',
    });
    const wrong = await legacy('POST', '/auth/signin', '', { email: 'leaver@contoso.example', password: 'Wrong-1aA!' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalidCredentials' });
    // Apollo answers as ASP.NET does for an account that may not sign in.
    const apollo = await server.request({
      method: 'POST',
      url: '/apollo-beta/login',
      body: { email: 'leaver@contoso.example', password: PASSWORD },
    });
    expect(apollo.statusCode).toBe(401);
    expect(apollo.json()).toMatchObject({ detail: 'NotAllowed' });
    expect((await listed(admin, '?status=deactivated')).map((u) => u.email)).toContain('leaver@contoso.example');
    expect((await listed(admin, '?status=active')).map((u) => u.email)).not.toContain('leaver@contoso.example');

    // Deactivating again changes nothing and records nothing.
    expect((await legacy('PUT', `/admin/users/${user.userId}/deactivation`, admin)).statusCode).toBe(200);
    expect(await audited('user.deactivate', user.userId)).toHaveLength(1);

    const reactivated = await legacy('DELETE', `/admin/users/${user.userId}/deactivation`, admin);
    expect(reactivated.json()).toMatchObject({ status: 'active', deactivatedAt: null });
    expect(await audited('user.reactivate', user.userId)).toHaveLength(1);
    const back = await legacy('POST', '/auth/signin', '', { email: 'leaver@contoso.example', password: PASSWORD });
    expect(back.statusCode).toBe(200);
  });

  it("refuses to deactivate or delete one's own account, and the organisation's last active administrator", async () => {
    const [own] = (await listed(admin, `?search=${encodeURIComponent(ADMIN)}`)).filter((u) => u.email === ADMIN);
    for (const [method, path] of [
      ['PUT', `/admin/users/${own?.userId}/deactivation`],
      ['DELETE', `/admin/users/${own?.userId}`],
    ] as const) {
      const response = await legacy(method, path, admin);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'You cannot deactivate or delete your own account.',
        code: 'ownAccount',
      });
    }

    // Northwind's only administrator, as its partner sees it.
    const only = await invite(partner, 'only@northwind.example', northwindId);
    // Still invited, they are no active administrator: removing them takes none away. Accepted, they are.
    await acceptAndSetUp(server, 'only@northwind.example');
    for (const [method, path] of [
      ['PUT', `/admin/users/${only.userId}/deactivation`],
      ['DELETE', `/admin/users/${only.userId}`],
    ] as const) {
      const response = await legacy(method, path, partner);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'lastAdministrator' });
    }
    const pending = await invite(partner, 'pending@northwind.example', northwindId);
    expect((await legacy('PUT', `/admin/users/${only.userId}/deactivation`, partner)).statusCode).toBe(409);
    await acceptAndSetUp(server, 'pending@northwind.example');
    expect((await legacy('PUT', `/admin/users/${only.userId}/deactivation`, partner)).statusCode).toBe(200);
    expect((await legacy('DELETE', `/admin/users/${pending.userId}`, partner)).statusCode).toBe(409);
    expect((await legacy('DELETE', `/admin/users/${only.userId}`, partner)).statusCode).toBe(200);
    expect(await audited('user.delete', only.userId)).toEqual([
      {
        actor_email: PARTNER,
        organisation_id: northwindId,
        details: { email: 'only@northwind.example', displayName: 'only' },
      },
    ]);
    const [gone] = await server.ctx.db.query('select id from users where id = $1', [only.userId]);
    expect(gone).toBeUndefined();
  });

  it("answers another organisation's user as unknown and changes nothing", async () => {
    const northwind = await invite(partner, 'guarded@northwind.example', northwindId);
    const before = await server.ctx.db.query('select * from users where id = $1', [northwind.userId]);
    const audits = await server.ctx.db.query('select count(*)::int as n from audit_log');
    for (const [method, path, body] of [
      ['PUT', `/admin/users/${northwind.userId}/deactivation`, undefined],
      ['DELETE', `/admin/users/${northwind.userId}/deactivation`, undefined],
      ['DELETE', `/admin/users/${northwind.userId}`, undefined],
      ['POST', `/admin/users/${northwind.userId}/invitation`, {}],
      ['DELETE', '/admin/users/no-such-user', undefined],
    ] as const) {
      const response = await legacy(method, path, admin, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toEqual({ message: 'User not found' });
    }
    expect(await server.ctx.db.query('select * from users where id = $1', [northwind.userId])).toEqual(before);
    expect(await server.ctx.db.query('select count(*)::int as n from audit_log')).toEqual(audits);
  });

  it('lists the state and last sign-in of each user, filtered by state and sorted by last sign-in', async () => {
    await invite(admin, 'waiting@contoso.example');
    const users = await listed(admin, '?pageSize=100&sort=lastSignInAt&order=desc');
    const signedIn = users.filter((u) => u.lastSignInAt !== null);
    // Newest first, and those who never signed in last.
    expect(signedIn.map((u) => u.lastSignInAt)).toEqual([...signedIn.map((u) => u.lastSignInAt)].sort().reverse());
    expect(users.slice(signedIn.length).every((u) => u.lastSignInAt === null)).toBe(true);
    const invited = await listed(admin, '?status=invited&pageSize=100');
    expect(invited.map((u) => u.email)).toEqual(['waiting@contoso.example']);
    expect(invited[0]).toMatchObject({ status: 'invited', lastSignInAt: null });
    expect(users.find((u) => u.email === ADMIN)).toMatchObject({ status: 'active', invitedAt: null });
  });
});
