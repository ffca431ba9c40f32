import { randomUUID } from 'node:crypto';
import type { RevokeOthersResponse, SignInActivity, SignInEvent } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { drainBackground } from '../src/modules/identity/background.js';
import { codeFor, signInWithSetup, useTestServer } from './helpers.js';

/**
 * Account self-service as the portal's account page does it, with the portal's own session token:
 * the password, the email address and the authenticator through apollo's /manage/info and
 * /manage/2fa, and the account's sign-in activity and "sign out every other session" through
 * /api/auth/sessions/*. Every change is audited; a password change, an authenticator reset and
 * signing the others out end every other session and keep the one that asked.
 */
const A = '/apollo-beta';
const PASSWORD = 'Account-Passw0rd!';

interface Account {
  id: string;
  email: string;
  password: string;
  key: string;
  recoveryCodes: string[];
  /** The portal session of the QR setup. */
  token: string;
}

const server = useTestServer();

/** A confirmed account with its authenticator set up through the portal's QR setup. */
async function account(): Promise<Account> {
  const email = `self-${randomUUID().slice(0, 8)}@service.example`;
  const registered = await server.request({
    method: 'POST',
    url: `${A}/register`,
    body: { email, password: PASSWORD },
  });
  expect(registered.statusCode, registered.body).toBe(200);
  await server.ctx.db.query('update users set email_confirmed = true where email = $1', [email]);
  const [row] = await server.ctx.db.query<{ id: string }>('select id from users where email = $1', [email]);
  const setup = await signInWithSetup(server, email, PASSWORD);
  return { id: row?.id ?? '', email, password: PASSWORD, ...setup };
}

/** A code of a later time step than any used before. */
function nextCode(acct: Pick<Account, 'key'>): string {
  server.clock.advance(30_000);
  return codeFor(server, acct.key);
}

/** Another portal session of the account: password, then a code. */
async function portalSession(acct: Account, password = acct.password): Promise<string> {
  const signin = await server.request({
    method: 'POST',
    url: '/api/auth/signin',
    body: { email: acct.email, password },
  });
  expect(signin.statusCode, signin.body).toBe(200);
  const verify = await server.request({
    method: 'POST',
    url: '/api/auth/code-verification',
    token: signin.json().token,
    body: { code: nextCode(acct) },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  return verify.json().token as string;
}

async function apolloSession(acct: Account): Promise<{ accessToken: string; refreshToken: string }> {
  const login = await server.request({
    method: 'POST',
    url: `${A}/login`,
    body: { email: acct.email, password: acct.password, twoFactorCode: nextCode(acct) },
  });
  expect(login.statusCode, login.body).toBe(200);
  return login.json();
}

/** Whether a portal (legacy) token still signs in. */
const portalAlive = async (token: string) =>
  (await server.request({ method: 'GET', url: '/api/auth/verify-user', token })).statusCode === 200;
const apolloAlive = async (token: string) =>
  (await server.request({ method: 'GET', url: `${A}/manage/info`, token })).statusCode === 200;
const refreshes = async (refreshToken: string) =>
  (await server.request({ method: 'POST', url: `${A}/refresh`, body: { refreshToken } })).statusCode === 200;

const activity = async (token: string, query = '') => {
  const response = await server.request({ method: 'GET', url: `/api/auth/sessions/activity${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SignInActivity;
};
const revokeOthers = (token: string, body: unknown = {}) =>
  server.request({ method: 'POST', url: '/api/auth/sessions/revoke-others', token, body });
const manageInfo = (token: string, body: Record<string, unknown>) =>
  server.request({ method: 'POST', url: `${A}/manage/info`, token, body });
const twoFactor = (token: string, body: Record<string, unknown>) =>
  server.request({
    method: 'POST',
    url: `${A}/manage/2fa`,
    token,
    body: { resetSharedKey: false, resetRecoveryCodes: false, forgetMachine: false, ...body },
  });
const errorCodes = (response: { json(): unknown }) =>
  Object.keys((response.json() as { errors?: object }).errors ?? {});

async function auditOf(acct: Account, action: string) {
  return server.ctx.db.query<{ outcome: string; details: Record<string, unknown>; actor_user_id: string | null }>(
    'select outcome, details, actor_user_id from audit_log where actor_email = $1 and action = $2 order by seq',
    [acct.email, action],
  );
}

const kinds = (events: SignInEvent[]) => events.map((e) => `${e.api} ${e.kind}${e.method ? ` ${e.method}` : ''}`);

describe('sign-in activity', () => {
  it("lists the account's own sign-ins and failed attempts on both APIs, newest first, with the address", async () => {
    const acct = await account();
    const wrongPassword = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: 'Wrong-Passw0rd!' },
    });
    expect(wrongPassword.statusCode).toBe(401);
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: acct.password },
    });
    const wrongCode = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: signin.json().token,
      body: { code: '000000' },
    });
    expect(wrongCode.statusCode).toBe(400);
    const apolloWrongPassword = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: acct.email, password: 'Wrong-Passw0rd!', twoFactorCode: '000000' },
    });
    expect(apolloWrongPassword.statusCode).toBe(401);
    const apolloWrongCode = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: acct.email, password: acct.password, twoFactorCode: '000000' },
    });
    expect(apolloWrongCode.statusCode).toBe(401);
    await apolloSession(acct);
    const token = await portalSession(acct);

    const seen = await activity(token);
    expect(kinds(seen.items)).toEqual([
      'legacy signedIn authenticator',
      'legacy passwordAccepted',
      'apollo signedIn authenticator',
      'apollo codeRefused',
      'apollo passwordRefused',
      'legacy codeRefused',
      'legacy passwordAccepted',
      'legacy passwordRefused',
      'legacy signedIn setup',
      'legacy passwordAccepted',
    ]);
    expect(seen.items.map((e) => e.outcome)).toEqual([
      'success',
      'success',
      'success',
      'failure',
      'failure',
      'failure',
      'success',
      'failure',
      'success',
      'success',
    ]);
    expect(seen.items.every((e) => e.ip === '127.0.0.1')).toBe(true);
    expect(seen.items[0]?.at).toBe(new Date(server.clock.now).toISOString());
    expect(seen).toMatchObject({ total: 10, page: 1, pageSize: 20 });
    // Two sessions were signed in besides this one: the QR setup's and the apollo sign-in.
    expect(seen.otherSessions).toBe(2);

    const second = await activity(token, '?page=2&pageSize=4');
    expect(kinds(second.items)).toEqual(kinds(seen.items.slice(4, 8)));
    expect(second).toMatchObject({ total: 10, page: 2, pageSize: 4 });
  });

  it("never shows another account's events, nor attempts on an unknown address", async () => {
    const mine = await account();
    const theirs = await account();
    await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: theirs.email, password: 'Wrong-Passw0rd!' },
    });
    await portalSession(theirs);
    await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: `nobody-${mine.email}`, password: 'Wrong-Passw0rd!' },
    });
    const seen = await activity(mine.token);
    expect(kinds(seen.items)).toEqual(['legacy signedIn setup', 'legacy passwordAccepted']);
    expect(seen.otherSessions).toBe(0);
    const [theirCount] = await server.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from audit_log where actor_user_id = $1',
      [theirs.id],
    );
    expect(theirCount?.n).toBeGreaterThan(2);
  });

  it('asks for a signed-in session, and refuses pages beyond its bounds', async () => {
    const none = await server.request({ method: 'GET', url: '/api/auth/sessions/activity' });
    expect(none.statusCode).toBe(401);
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: (await account()).email, password: PASSWORD },
    });
    // The token between password and code is no session.
    const pending = await server.request({
      method: 'GET',
      url: '/api/auth/sessions/activity',
      token: signin.json().token,
    });
    expect(pending.statusCode).toBe(401);
    const acct = await account();
    const tooLarge = await server.request({
      method: 'GET',
      url: '/api/auth/sessions/activity?pageSize=101',
      token: acct.token,
    });
    expect(tooLarge.statusCode).toBe(400);
  });
});

describe('signing out every other session', () => {
  it('ends the portal and apollo sessions of the account but the one asking, audited, and no other account', async () => {
    const acct = await account();
    const current = await portalSession(acct);
    const apollo = await apolloSession(acct);
    const bystander = await account();
    const pendingSignin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: acct.password },
    });
    expect((await activity(current)).otherSessions).toBe(2);

    const answer = await revokeOthers(current);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ revoked: 2 } satisfies RevokeOthersResponse);

    expect(await portalAlive(current)).toBe(true);
    expect(await portalAlive(acct.token)).toBe(false);
    expect(await apolloAlive(apollo.accessToken)).toBe(false);
    expect(await refreshes(apollo.refreshToken)).toBe(false);
    // A sign-in half done (password given, code not yet) cannot be finished any more.
    const finish = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: pendingSignin.json().token,
      body: { code: nextCode(acct) },
    });
    expect(finish.statusCode).toBe(401);
    expect(await portalAlive(bystander.token)).toBe(true);
    expect((await activity(current)).otherSessions).toBe(0);

    const audit = await auditOf(acct, 'auth.sessions.revokeOthers');
    expect(audit).toEqual([{ outcome: 'success', details: { revoked: 2 }, actor_user_id: acct.id }]);
    // Again, with nothing left to end and no body at all.
    const again = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { authorization: current },
    });
    expect([again.statusCode, again.json()]).toEqual([200, { revoked: 0 }]);
  });

  it('keeps the whole family of an apollo session that asks, refresh token included', async () => {
    const acct = await account();
    const apollo = await apolloSession(acct);
    const answer = await server.request({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      token: apollo.accessToken,
      body: {},
    });
    expect(answer.json()).toEqual({ revoked: 1 });
    expect(await portalAlive(acct.token)).toBe(false);
    expect(await apolloAlive(apollo.accessToken)).toBe(true);
    expect(await refreshes(apollo.refreshToken)).toBe(true);
  });

  it('refuses a caller without a session', async () => {
    expect((await revokeOthers('not-a-token')).statusCode).toBe(401);
  });
});

describe('changing the password with the portal session', () => {
  it('needs the current password and a new one under the rules; refusals are audited and change nothing', async () => {
    const acct = await account();
    const other = await portalSession(acct);
    expect(errorCodes(await manageInfo(acct.token, { newPassword: 'Next-Passw0rd!' }))).toEqual([
      'OldPasswordRequired',
    ]);
    const wrong = await manageInfo(acct.token, { oldPassword: 'Wrong-Passw0rd!', newPassword: 'Next-Passw0rd!' });
    expect(wrong.statusCode).toBe(400);
    expect(errorCodes(wrong)).toEqual(['PasswordMismatch']);
    const weak = await manageInfo(acct.token, { oldPassword: acct.password, newPassword: 'short' });
    expect(errorCodes(weak)).toEqual([
      'PasswordTooShort',
      'PasswordRequiresNonAlphanumeric',
      'PasswordRequiresDigit',
      'PasswordRequiresUpper',
    ]);
    expect(await portalAlive(acct.token)).toBe(true);
    expect(await portalAlive(other)).toBe(true);
    expect((await auditOf(acct, 'auth.password.change')).map((e) => e.details.reason)).toEqual([
      'OldPasswordRequired',
      'PasswordMismatch',
    ]);
  });

  it('keeps the session that changed it, ends every other, and the old password is refused from then on', async () => {
    const acct = await account();
    const other = await portalSession(acct);
    const apollo = await apolloSession(acct);
    const changed = await manageInfo(acct.token, { oldPassword: acct.password, newPassword: 'Changed-Passw0rd!' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ email: acct.email, isEmailConfirmed: true });

    expect(await portalAlive(acct.token)).toBe(true);
    expect(await portalAlive(other)).toBe(false);
    expect(await apolloAlive(apollo.accessToken)).toBe(false);
    expect(await refreshes(apollo.refreshToken)).toBe(false);
    const old = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: acct.password },
    });
    expect(old.statusCode).toBe(401);
    expect(await portalAlive(await portalSession(acct, 'Changed-Passw0rd!'))).toBe(true);
    expect(await auditOf(acct, 'auth.password.change')).toEqual([
      { outcome: 'success', details: {}, actor_user_id: acct.id },
    ]);
    expect(kinds((await activity(acct.token)).items).slice(0, 3)).toEqual([
      'legacy signedIn authenticator',
      'legacy passwordAccepted',
      'legacy passwordRefused',
    ]);
  });
});

describe('resetting the authenticator with the portal session', () => {
  it('needs the password and a current code; a wrong one is refused, audited and counted', async () => {
    const acct = await account();
    expect(errorCodes(await twoFactor(acct.token, { resetSharedKey: true }))).toEqual(['OldPasswordRequired']);
    expect(errorCodes(await twoFactor(acct.token, { resetSharedKey: true, oldPassword: 'Wrong-Passw0rd!' }))).toEqual([
      'PasswordMismatch',
    ]);
    expect(
      errorCodes(
        await twoFactor(acct.token, { resetSharedKey: true, oldPassword: acct.password, twoFactorCode: '000000' }),
      ),
    ).toEqual(['InvalidTwoFactorCode']);
    const [row] = await server.ctx.db.query<{ totp_enabled: boolean; failed_attempts: number }>(
      'select totp_enabled, failed_attempts from users where id = $1',
      [acct.id],
    );
    expect(row).toEqual({ totp_enabled: true, failed_attempts: 2 });
    expect((await auditOf(acct, 'auth.2fa.change')).map((e) => e.details.reason)).toEqual([
      'OldPasswordRequired',
      'PasswordMismatch',
      'InvalidTwoFactorCode',
    ]);
  });

  it('ends every other session, keeps this one, and the portal QR setup enrols a new authenticator', async () => {
    const acct = await account();
    const other = await portalSession(acct);
    const apollo = await apolloSession(acct);
    const reset = await twoFactor(acct.token, {
      resetSharedKey: true,
      oldPassword: acct.password,
      twoFactorCode: nextCode(acct),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ isTwoFactorEnabled: false });
    expect(await portalAlive(acct.token)).toBe(true);
    expect(await portalAlive(other)).toBe(false);
    expect(await apolloAlive(apollo.accessToken)).toBe(false);
    expect(await auditOf(acct, 'auth.2fa.change')).toEqual([
      {
        outcome: 'success',
        details: { enabled: false, resetSharedKey: true, resetRecoveryCodes: false, otherSessionsEnded: true },
        actor_user_id: acct.id,
      },
    ]);

    // The QR setup again, with the session that reset it.
    const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: acct.token });
    expect(qr.statusCode, qr.body).toBe(200);
    const key = qr.json().key as string;
    expect(key).not.toBe(acct.key);
    const confirmed = await server.request({
      method: 'POST',
      url: '/api/auth/qrcode-verification',
      token: acct.token,
      body: { code: nextCode({ key }) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const renewed = confirmed.json() as { token: string; recoveryCodes: string[] };
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(await portalAlive(renewed.token)).toBe(true);
    // The old authenticator signs in no more; the new one does.
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: acct.password },
    });
    expect(signin.json().twoFactor).toBe('verify');
    const oldCode = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: signin.json().token,
      body: { code: nextCode(acct) },
    });
    expect(oldCode.statusCode).toBe(400);
    const newCode = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: signin.json().token,
      body: { code: nextCode({ key }) },
    });
    expect(newCode.statusCode, newCode.body).toBe(200);
  });

  it('takes a recovery code instead of a code, once', async () => {
    const acct = await account();
    const body = { resetSharedKey: true, oldPassword: acct.password, twoFactorRecoveryCode: acct.recoveryCodes[3] };
    const reset = await twoFactor(acct.token, body);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().isTwoFactorEnabled).toBe(false);
  });
});

describe('new recovery codes with the portal session', () => {
  it('need the password and a current code, are answered once, and replace the old ones', async () => {
    const acct = await account();
    const other = await portalSession(acct);
    expect(
      errorCodes(
        await twoFactor(acct.token, { resetRecoveryCodes: true, oldPassword: acct.password, twoFactorCode: '123456' }),
      ),
    ).toEqual(['InvalidTwoFactorCode']);
    const made = await twoFactor(acct.token, {
      resetRecoveryCodes: true,
      oldPassword: acct.password,
      twoFactorCode: nextCode(acct),
    });
    expect(made.statusCode, made.body).toBe(200);
    const codes = made.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => acct.recoveryCodes.includes(c))).toBe(false);
    const read = await twoFactor(acct.token, {});
    expect(read.json()).toMatchObject({ isTwoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(read.json().recoveryCodes).toBeUndefined();
    // New codes end no session (as in ASP.NET): nothing that signs in changed.
    expect(await portalAlive(other)).toBe(true);

    const signin = async () =>
      (
        await server.request({
          method: 'POST',
          url: '/api/auth/signin',
          body: { email: acct.email, password: acct.password },
        })
      ).json().token as string;
    const withOld = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: await signin(),
      body: { recoveryCode: acct.recoveryCodes[0] },
    });
    expect(withOld.statusCode).toBe(400);
    const withNew = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: await signin(),
      body: { recoveryCode: codes[0] },
    });
    expect(withNew.statusCode, withNew.body).toBe(200);
    const audit = await auditOf(acct, 'auth.2fa.change');
    expect(audit.map((e) => e.details.reason ?? e.outcome)).toEqual(['InvalidTwoFactorCode', 'success']);
    expect(audit[1]?.details).toEqual({ enabled: true, resetSharedKey: false, resetRecoveryCodes: true });
  });
});

describe('changing the email address with the portal session', () => {
  it('mails a link to the new address and a notice to the old one; opening the link ends every session', async () => {
    const acct = await account();
    const newEmail = `moved-${acct.email}`;
    expect(
      errorCodes(await manageInfo(acct.token, { newEmail, oldPassword: acct.password, twoFactorCode: '000000' })),
    ).toEqual(['InvalidTwoFactorCode']);
    const before = server.mails.length;
    const asked = await manageInfo(acct.token, { newEmail, oldPassword: acct.password, twoFactorCode: nextCode(acct) });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ email: acct.email, isEmailConfirmed: true });
    await drainBackground(server.ctx);
    const sent = server.mails.slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual([acct.email, newEmail].sort());
    const link = new URL(sent.find((m) => m.to === newEmail)?.link ?? '');
    // Until the link is opened the address stays, and so does the session.
    expect(await portalAlive(acct.token)).toBe(true);
    // The link opens the portal's page, which confirms through the legacy call.
    expect(link.pathname).toBe('/confirm-email');
    expect(link.searchParams.get('changedEmail')).toBe(newEmail);
    const opened = await server.request({
      method: 'POST',
      url: '/api/auth/confirm-email',
      body: Object.fromEntries(link.searchParams),
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ outcome: 'confirmed', email: newEmail, emailChanged: true });
    expect(await portalAlive(acct.token)).toBe(false);
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: newEmail, password: acct.password },
    });
    expect(signin.statusCode).toBe(200);
    expect(signin.json().user.email).toBe(newEmail);
    expect((await auditOf(acct, 'auth.email.change.request')).map((e) => e.details.reason ?? e.outcome)).toEqual([
      'InvalidTwoFactorCode',
      'success',
    ]);
  });
});
