import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, codeFor, DEMO_PASSWORD, signInWithSetup, type TestServer, useTestServer } from './helpers.js';

/** The apollo auth endpoints against shared/spec/apollo-identity-contract.md, status by status. */
const A = '/apollo-beta';

async function register(server: TestServer, password = 'Fresh-Passw0rd!') {
  const email = `u-${randomUUID().slice(0, 8)}@fresh.example`;
  const response = await server.request({ method: 'POST', url: `${A}/register`, body: { email, password } });
  return { email, response };
}

/** A registered account with a confirmed email and no authenticator yet. */
async function confirmedAccount(server: TestServer) {
  const { email } = await register(server);
  await server.ctx.db.query('update users set email_confirmed = true where email = $1', [email]);
  return { email };
}

describe('apollo identity (ASP.NET Core Identity wire contract)', () => {
  const server = useTestServer();
  /** The administrator's authenticator key. */
  let key = '';
  beforeAll(async () => {
    // Set up through the legacy flow first: one identity across both APIs.
    ({ key } = await signInWithSetup(server, ADMIN));
  });

  it('register answers 200 with an empty body, and ValidationProblem codes for bad input', async () => {
    const { email, response } = await register(server);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const duplicate = await server.request({
      method: 'POST',
      url: `${A}/register`,
      body: { email, password: 'Fresh-Passw0rd!' },
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.headers['content-type']).toContain('application/problem+json');
    expect(duplicate.json()).toMatchObject({ title: 'One or more validation errors occurred.', status: 400 });
    expect(Object.keys(duplicate.json().errors)).toEqual(['DuplicateUserName']);
    const weak = await server.request({
      method: 'POST',
      url: `${A}/register`,
      body: { email: 'x@fresh.example', password: 'abc' },
    });
    expect(Object.keys(weak.json().errors)).toEqual([
      'PasswordTooShort',
      'PasswordRequiresNonAlphanumeric',
      'PasswordRequiresDigit',
      'PasswordRequiresUpper',
    ]);
    const bad = await server.request({
      method: 'POST',
      url: `${A}/register`,
      body: { email: 'not-an-email', password: 'Fresh-Passw0rd!' },
    });
    expect(Object.keys(bad.json().errors)).toContain('InvalidEmail');
  });

  it('login answers 401 problem details with the contract detail values', async () => {
    const wrong = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: ADMIN, password: 'Wrong-Passw0rd!' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.json()).toMatchObject({ title: 'Unauthorized', status: 401, detail: 'Failed' });
    const unknown = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: 'nobody@nowhere.example', password: 'Wrong-Passw0rd!' },
    });
    expect(unknown.json().detail).toBe('Failed');
    // Without an authenticator set up, the portal does not let a password alone in.
    const { email } = await confirmedAccount(server);
    const notAllowed = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email, password: 'Fresh-Passw0rd!' },
    });
    expect(notAllowed.json().detail).toBe('NotAllowed');
  });

  it('asks for the second factor, takes a code once, and issues 1-hour tokens that refresh', async () => {
    const needs = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: ADMIN, password: DEMO_PASSWORD },
    });
    expect(needs.json().detail).toBe('RequiresTwoFactor');
    // A code of a later time step than any used before.
    server.clock.advance(30_000);
    const code = codeFor(server, key);
    const ok = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: ADMIN, password: DEMO_PASSWORD, twoFactorCode: code },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    const replay = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: ADMIN, password: DEMO_PASSWORD, twoFactorCode: code },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().detail).toBe('Failed');

    const info = await server.request({ method: 'GET', url: `${A}/manage/info`, token: ok.json().accessToken });
    expect(info.json()).toEqual({ email: ADMIN, isEmailConfirmed: true });
    server.clock.advance(3600_000 + 1000);
    const expired = await server.request({ method: 'GET', url: `${A}/manage/info`, token: ok.json().accessToken });
    expect(expired.statusCode).toBe(401);
    const refreshed = await server.request({
      method: 'POST',
      url: `${A}/refresh`,
      body: { refreshToken: ok.json().refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const bad = await server.request({ method: 'POST', url: `${A}/refresh`, body: { refreshToken: 'nonsense' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toBe('');
    expect(bad.headers['www-authenticate']).toBe('Bearer');
    server.clock.advance(14 * 86_400_000 + 1000);
    const stale = await server.request({
      method: 'POST',
      url: `${A}/refresh`,
      body: { refreshToken: refreshed.json().refreshToken },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('locks an account for 5 minutes at the fifth failure, answering "Lockedout"', async () => {
    const { email } = await register(server);
    const attempt = () =>
      server.request({ method: 'POST', url: `${A}/login`, body: { email, password: 'Wrong-Passw0rd!' } });
    for (let i = 1; i <= 4; i++) expect((await attempt()).json().detail).toBe('Failed');
    expect((await attempt()).json().detail).toBe('Lockedout');
    const right = () =>
      server.request({ method: 'POST', url: `${A}/login`, body: { email, password: 'Fresh-Passw0rd!' } });
    expect((await right()).json().detail).toBe('Lockedout');
    server.clock.advance(5 * 60_000 + 1000);
    expect((await right()).json().detail).not.toBe('Lockedout');
  });

  it('never reveals accounts on forgot password and resend, and refuses a bad reset code', async () => {
    for (const url of [`${A}/forgotPassword`, `${A}/resendConfirmationMail`]) {
      const known = await server.request({ method: 'POST', url, body: { email: ADMIN } });
      const unknown = await server.request({ method: 'POST', url, body: { email: 'ghost@nowhere.example' } });
      expect([known.statusCode, known.body]).toEqual([200, '']);
      expect([unknown.statusCode, unknown.body]).toEqual([200, '']);
    }
    const reset = await server.request({
      method: 'POST',
      url: `${A}/resetPassword`,
      body: { email: ADMIN, resetCode: 'bogus', newPassword: 'Other-Passw0rd!' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().errors).toEqual({ InvalidToken: ['Invalid token.'] });
    const confirm = await server.request({ method: 'GET', url: `${A}/confirmEmail?userId=${randomUUID()}&code=bogus` });
    expect([confirm.statusCode, confirm.body]).toEqual([401, '']);
  });

  it('needs a bearer token and the API key on /manage, and validates /manage/2fa and /manage/info', async () => {
    expect((await server.request({ method: 'GET', url: `${A}/manage/info` })).statusCode).toBe(401);
    server.clock.advance(60_000);
    const login = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: ADMIN, password: DEMO_PASSWORD, twoFactorCode: codeFor(server, key) },
    });
    const token = login.json().accessToken as string;
    const noKey = await server.request({ method: 'GET', url: `${A}/manage/info`, token, apiKey: null });
    expect(noKey.statusCode).toBe(401);
    const both = await server.request({
      method: 'POST',
      url: `${A}/manage/2fa`,
      token,
      body: {
        enable: true,
        twoFactorCode: '000000',
        resetSharedKey: true,
        resetRecoveryCodes: false,
        forgetMachine: false,
      },
    });
    expect(Object.keys(both.json().errors)).toEqual(['CannotResetSharedKeyAndEnable']);
    const badCode = await server.request({
      method: 'POST',
      url: `${A}/manage/2fa`,
      token,
      body: {
        enable: true,
        twoFactorCode: '000000',
        resetSharedKey: false,
        resetRecoveryCodes: false,
        forgetMachine: false,
      },
    });
    expect(Object.keys(badCode.json().errors)).toEqual(['InvalidTwoFactorCode']);
    // With 2FA on, new recovery codes need the password and a code again, not the bearer token alone.
    const bearerOnly = await server.request({
      method: 'POST',
      url: `${A}/manage/2fa`,
      token,
      body: { resetSharedKey: false, resetRecoveryCodes: true, forgetMachine: false },
    });
    expect(Object.keys(bearerOnly.json().errors)).toEqual(['OldPasswordRequired']);
    server.clock.advance(30_000);
    const codes = await server.request({
      method: 'POST',
      url: `${A}/manage/2fa`,
      token,
      body: {
        resetSharedKey: false,
        resetRecoveryCodes: true,
        forgetMachine: false,
        oldPassword: DEMO_PASSWORD,
        twoFactorCode: codeFor(server, key),
      },
    });
    expect(codes.json()).toMatchObject({ sharedKey: null, isTwoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(codes.json().recoveryCodes).toHaveLength(10);
    for (const c of codes.json().recoveryCodes as string[])
      expect(c).toMatch(/^[23456789BCDFGHJKMNPQRTVWXY]{5}-[23456789BCDFGHJKMNPQRTVWXY]{5}$/);
    const noOld = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token,
      body: { newPassword: 'Other-Passw0rd!' },
    });
    expect(Object.keys(noOld.json().errors)).toEqual(['OldPasswordRequired']);
    const mismatch = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token,
      body: { newPassword: 'Other-Passw0rd!', oldPassword: 'Not-The-Passw0rd!' },
    });
    expect(Object.keys(mismatch.json().errors)).toEqual(['PasswordMismatch']);
  });
});
