import { beforeEach, describe, expect, it } from 'vitest';
import { drainBackground } from '../src/modules/identity/background.js';
import {
  ADMIN,
  codeFor,
  DEMO_PASSWORD,
  PARTNER,
  resetAccountsBeforeEach,
  sessionToken,
  signIn,
  signInWithSetup,
  useTestServer,
} from './helpers.js';

const RECOVERY = /^[23456789BCDFGHJKMNPQRTVWXY]{5}-[23456789BCDFGHJKMNPQRTVWXY]{5}$/;

describe('legacy sign-in with QR setup, codes and recovery codes', () => {
  const server = useTestServer();
  // Each test starts from the seeded accounts: no authenticator yet, no failed attempts.
  resetAccountsBeforeEach(server, [ADMIN, PARTNER]);

  it('refuses a wrong password and an unknown email with the same message', async () => {
    const wrong = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: ADMIN, password: 'Wrong-pass1!' },
    });
    const unknown = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: 'nobody@contoso.example', password: 'Wrong-pass1!' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid credentials.', code: 'invalidCredentials' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: 'Invalid credentials.', code: 'invalidCredentials' });
  });

  it('answers field errors for a malformed body', async () => {
    const response = await server.request({ method: 'POST', url: '/api/auth/signin', body: { email: 'not-an-email' } });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe('Invalid request');
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['body/email', 'body/password']));
  });

  it('sets up the authenticator on the first sign-in and shows 10 recovery codes once', async () => {
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: ADMIN, password: DEMO_PASSWORD },
    });
    expect(signin.statusCode).toBe(200);
    const started = signin.json() as { token: string; twoFactor: string; user: { email: string; role: string } };
    expect(started.twoFactor).toBe('setup');
    expect(started.user).toMatchObject({ email: ADMIN, role: 'admin' });

    // The sign-in token is not a session.
    const early = await server.request({ method: 'GET', url: '/api/client', token: started.token });
    expect(early.statusCode).toBe(401);

    const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: started.token });
    expect(qr.statusCode).toBe(200);
    const { otpauthUri, key: shown } = qr.json() as { otpauthUri: string; key: string };
    expect(shown).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Compliance%20Portal:admin%40contoso.example?secret=${shown}&issuer=Compliance%20Portal&digits=6`,
    );

    const wrong = await server.request({
      method: 'POST',
      url: '/api/auth/qrcode-verification',
      token: started.token,
      body: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Invalid verification code.', code: 'invalidVerificationCode' });

    const ok = await server.request({
      method: 'POST',
      url: '/api/auth/qrcode-verification',
      token: started.token,
      body: { code: codeFor(server, shown) },
    });
    expect(ok.statusCode).toBe(200);
    const session = ok.json() as { token: string; recoveryCodes: string[]; user: { email: string } };
    expect(session.recoveryCodes).toHaveLength(10);
    for (const code of session.recoveryCodes) expect(code).toMatch(RECOVERY);
    expect(session.user.email).toBe(ADMIN);
    server.clock.advance(30_000);

    const client = await server.request({ method: 'GET', url: '/api/client', token: session.token });
    expect(client.statusCode).toBe(200);
    const verify = await server.request({ method: 'GET', url: '/api/auth/verify-user', token: session.token });
    expect(verify.json()).toEqual({
      token: session.token,
      user: expect.objectContaining({ email: ADMIN, role: 'admin' }),
    });
    // The sign-in token was used up by the setup.
    const reuse = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: started.token });
    expect(reuse.statusCode).toBe(401);
  });

  describe('once the administrator has set up the authenticator', () => {
    let key = '';
    let recoveryCodes: string[] = [];
    beforeEach(async () => {
      ({ key, recoveryCodes } = await signInWithSetup(server, ADMIN));
    });

    it('asks for a code on later sign-ins, accepts each code once and never lets a password replace the authenticator', async () => {
      const signin = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: ADMIN, password: DEMO_PASSWORD },
      });
      const { token, twoFactor } = signin.json() as { token: string; twoFactor: string };
      expect(twoFactor).toBe('verify');
      const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token });
      expect(qr.statusCode).toBe(409);

      const code = codeFor(server, key);
      const first = await server.request({ method: 'POST', url: '/api/auth/code-verification', token, body: { code } });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ requiresTwoFactorSetup: false, user: { email: ADMIN } });

      // Replay: the same code in the same window, through a second password sign-in.
      const again = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: ADMIN, password: DEMO_PASSWORD },
      });
      const replay = await server.request({
        method: 'POST',
        url: '/api/auth/code-verification',
        token: (again.json() as { token: string }).token,
        body: { code },
      });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ message: 'Invalid verification code.', code: 'invalidVerificationCode' });
      // An older step is refused too once a newer one was used.
      const older = await server.request({
        method: 'POST',
        url: '/api/auth/code-verification',
        token: (again.json() as { token: string }).token,
        body: { code: codeFor(server, key, -1) },
      });
      expect(older.statusCode).toBe(400);
      server.clock.advance(30_000);
      const next = await server.request({
        method: 'POST',
        url: '/api/auth/code-verification',
        token: (again.json() as { token: string }).token,
        body: { code: codeFor(server, key) },
      });
      expect(next.statusCode).toBe(200);
      server.clock.advance(30_000);
    });

    it('signs in with a recovery code once and resets 2FA so that it is set up again', async () => {
      const signin = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: ADMIN, password: DEMO_PASSWORD },
      });
      const { token } = signin.json() as { token: string };
      const recovery = await server.request({
        method: 'POST',
        url: '/api/auth/code-verification',
        token,
        body: { recoveryCode: (recoveryCodes[0] ?? '').toLowerCase() },
      });
      expect(recovery.statusCode).toBe(200);
      const session = recovery.json() as { token: string; requiresTwoFactorSetup: boolean };
      expect(session.requiresTwoFactorSetup).toBe(true);
      const client = await server.request({ method: 'GET', url: '/api/client', token: session.token });
      expect(client.statusCode).toBe(200);

      const [row] = await server.ctx.db.query<{ totp_enabled: boolean; totp_secret: string | null }>(
        'select totp_enabled, totp_secret from users where email = $1',
        [ADMIN],
      );
      expect(row).toEqual({ totp_enabled: false, totp_secret: null });
      const codes = await server.ctx.db.query(
        'select 1 from recovery_codes r join users u on u.id = r.user_id where u.email = $1',
        [ADMIN],
      );
      expect(codes).toHaveLength(0);

      const next = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: ADMIN, password: DEMO_PASSWORD },
      });
      expect((next.json() as { twoFactor: string }).twoFactor).toBe('setup');
      const reused = await server.request({
        method: 'POST',
        url: '/api/auth/qrcode-verification',
        token: (next.json() as { token: string }).token,
        body: { code: '123456' },
      });
      expect(reused.statusCode).toBe(400);
    });
  });

  it('takes each recovery code once', async () => {
    const { key: partnerKey, recoveryCodes: codes } = await signInWithSetup(server, PARTNER);
    expect(partnerKey).toMatch(/^[A-Z2-7]{32}$/);
    const first = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: DEMO_PASSWORD },
    });
    const used = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: (first.json() as { token: string }).token,
      body: { recoveryCode: codes[3] },
    });
    expect(used.statusCode).toBe(200);
    // The recovery reset 2FA; set it up again, then the same recovery code is gone.
    const { key: fresh, recoveryCodes: freshCodes } = await signInWithSetup(server, PARTNER);
    expect(freshCodes).not.toContain(codes[3]);
    const second = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: DEMO_PASSWORD },
    });
    const again = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: (second.json() as { token: string }).token,
      body: { recoveryCode: codes[3] },
    });
    expect(again.statusCode).toBe(400);
    expect(await signIn(server, PARTNER, fresh)).toBeTruthy();
  });
});

describe('legacy lockout, logout and password reset', () => {
  const server = useTestServer();
  // Each test starts from the seeded accounts: their password, no authenticator, no lockout.
  resetAccountsBeforeEach(server, [ADMIN, PARTNER]);

  it('locks the account after 5 failures for 5 minutes', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: PARTNER, password: `Wrong-${i}aA!` },
      });
      expect(r.json()).toEqual({ message: 'Invalid credentials.', code: 'invalidCredentials' });
    }
    const fifth = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: 'Wrong-5aA!' },
    });
    expect(fifth.statusCode).toBe(401);
    expect((fifth.json() as { message: string }).message).toMatch(/locked/);
    expect(fifth.json()).toMatchObject({ code: 'accountLocked' });
    const right = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: DEMO_PASSWORD },
    });
    expect((right.json() as { message: string }).message).toMatch(/locked/);
    server.clock.advance(5 * 60_000 + 1000);
    const after = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: DEMO_PASSWORD },
    });
    expect(after.statusCode).toBe(200);
  });

  it('counts wrong codes toward the lockout', async () => {
    const { key } = await signInWithSetup(server, ADMIN);
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: ADMIN, password: DEMO_PASSWORD },
    });
    const { token } = signin.json() as { token: string };
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await server.request({
        method: 'POST',
        url: '/api/auth/code-verification',
        token,
        body: { code: '000000' },
      });
      answers.push((r.json() as { message: string }).message);
    }
    expect(answers.slice(0, 4)).toEqual(Array(4).fill('Invalid verification code.'));
    expect(answers[4]).toBe('Login verification failed!');
    const right = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token,
      body: { code: codeFor(server, key) },
    });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ message: 'Login verification failed!', code: 'loginVerificationFailed' });
    server.clock.advance(5 * 60_000 + 1000);
  });

  it('revokes the session at logout', async () => {
    const token = await sessionToken(server, ADMIN);
    expect((await server.request({ method: 'GET', url: '/api/client', token })).statusCode).toBe(200);
    const logout = await server.request({ method: 'POST', url: '/api/auth/logout', token, body: {} });
    expect(logout.statusCode).toBe(200);
    expect(logout.body).toBe('');
    expect((await server.request({ method: 'GET', url: '/api/client', token })).statusCode).toBe(401);
    expect((await server.request({ method: 'GET', url: '/apollo-beta/api/Tenants', token })).statusCode).toBe(401);
  });

  it('sends a reset link without revealing accounts, and the link resets the password once', async () => {
    const before = server.mails.length;
    const unknown = await server.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: 'nobody@x.example' },
    });
    const known = await server.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: PARTNER } });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    // The mail leaves after the answer, so that a real account does not answer later than an unknown one.
    await drainBackground(server.ctx);
    expect(server.mails.length).toBe(before + 1);
    const mail = server.mails.at(-1);
    expect(mail?.to).toBe(PARTNER);
    const token = mail?.link?.replace('http://portal.test/reset-password/', '') ?? '';
    expect(token.length).toBeGreaterThan(20);

    const mismatch = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: 'New-Passw0rd!', confirmPassword: 'New-Passw0rd?' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ message: 'The passwords do not match.' });
    const weak = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: 'newpassword', confirmPassword: 'newpassword' },
    });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys((weak.json() as { errors: object }).errors)).toEqual([
      'PasswordRequiresNonAlphanumeric',
      'PasswordRequiresDigit',
      'PasswordRequiresUpper',
    ]);
    const bad = await server.request({
      method: 'POST',
      url: '/api/auth/reset-password/not-a-real-token',
      body: { password: 'New-Passw0rd!', confirmPassword: 'New-Passw0rd!' },
    });
    expect(bad.json()).toEqual({ message: 'The reset link is invalid or has expired.' });

    const ok = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: 'New-Passw0rd!', confirmPassword: 'New-Passw0rd!' },
    });
    expect(ok.statusCode).toBe(200);
    const twice = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: 'Other-Passw0rd!', confirmPassword: 'Other-Passw0rd!' },
    });
    expect(twice.statusCode).toBe(400);
    const old = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: DEMO_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: PARTNER, password: 'New-Passw0rd!' },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('expires reset links after a day', async () => {
    await server.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: PARTNER } });
    await drainBackground(server.ctx);
    const token = server.mails.at(-1)?.link?.split('/').at(-1) ?? '';
    server.clock.advance(24 * 3600_000 + 1000);
    const late = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: 'Late-Passw0rd!', confirmPassword: 'Late-Passw0rd!' },
    });
    expect(late.statusCode).toBe(400);
  });
});
