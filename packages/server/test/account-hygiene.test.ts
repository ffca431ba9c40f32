import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer, type MailMessage } from '../src/mail/mailer.js';
import { drainBackground } from '../src/modules/identity/background.js';
import { codeFor, signInWithSetup, type TestServer, useTestServer } from './helpers.js';

/**
 * Account hygiene, as ASP.NET Core Identity's security stamp gives it: a password or email change
 * ends what was issued before it, refresh tokens are rotated within one family, sensitive changes
 * need the user again, and the password reset mail does not reveal accounts by its timing.
 */
const A = '/apollo-beta';
const PASSWORD = 'Fresh-Passw0rd!';

interface Account {
  email: string;
  password: string;
  key: string;
  recoveryCodes: string[];
  /** The legacy session of the QR setup. */
  legacyToken: string;
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** A confirmed account with its authenticator set up (through the portal's QR setup). */
async function account(server: TestServer): Promise<Account> {
  const email = `u-${randomUUID().slice(0, 8)}@hygiene.example`;
  const registered = await server.request({
    method: 'POST',
    url: `${A}/register`,
    body: { email, password: PASSWORD },
  });
  expect(registered.statusCode).toBe(200);
  await server.ctx.db.query('update users set email_confirmed = true where email = $1', [email]);
  const setup = await signInWithSetup(server, email, PASSWORD);
  return { email, password: PASSWORD, key: setup.key, recoveryCodes: setup.recoveryCodes, legacyToken: setup.token };
}

/** A code of a later time step than any used before. */
function nextCode(server: TestServer, acct: Account): string {
  server.clock.advance(30_000);
  return codeFor(server, acct.key);
}

async function login(server: TestServer, acct: Account): Promise<Tokens> {
  const response = await server.request({
    method: 'POST',
    url: `${A}/login`,
    body: { email: acct.email, password: acct.password, twoFactorCode: nextCode(server, acct) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Tokens;
}

const info = (server: TestServer, token: string) =>
  server.request({ method: 'GET', url: `${A}/manage/info`, token }).then((r) => r.statusCode);
const legacyClient = (server: TestServer, token: string) =>
  server.request({ method: 'GET', url: '/api/client', token }).then((r) => r.statusCode);
const refresh = (server: TestServer, refreshToken: string) =>
  server.request({ method: 'POST', url: `${A}/refresh`, body: { refreshToken } });
const twoFactor = (server: TestServer, token: string, body: Record<string, unknown>) =>
  server.request({
    method: 'POST',
    url: `${A}/manage/2fa`,
    token,
    body: { resetSharedKey: false, resetRecoveryCodes: false, forgetMachine: false, ...body },
  });
const errorCodes = (response: { json(): unknown }) =>
  Object.keys((response.json() as { errors?: object }).errors ?? {});

async function mailsAfter(server: TestServer, run: () => Promise<unknown>): Promise<MailMessage[]> {
  const before = server.mails.length;
  await run();
  await drainBackground(server.ctx);
  return server.mails.slice(before);
}

async function apolloResetCode(server: TestServer, email: string): Promise<string> {
  const [mail] = await mailsAfter(server, () =>
    server.request({ method: 'POST', url: `${A}/forgotPassword`, body: { email } }),
  );
  expect(mail?.to).toBe(email);
  return mail?.text.split(': ').at(-1)?.trim() ?? '';
}

async function legacyResetToken(server: TestServer, email: string): Promise<string> {
  const [mail] = await mailsAfter(server, () =>
    server.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email } }),
  );
  expect(mail?.to).toBe(email);
  return mail?.link?.split('/').at(-1) ?? '';
}

/** Asks for an email change (with everything the hardened server asks for) and returns the mailed link. */
async function emailChangeLink(server: TestServer, acct: Account, token: string, newEmail: string) {
  const mails = await mailsAfter(server, async () => {
    const response = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token,
      body: { newEmail, oldPassword: acct.password, twoFactorCode: nextCode(server, acct) },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  const link = mails.find((m) => m.to === newEmail)?.link ?? '';
  expect(link).toContain('/confirm-email?');
  return new URL(link);
}

/** Opens a confirmation link as an integrator does: its parameters to apollo's GET /confirmEmail. */
const openLink = (server: TestServer, link: URL) =>
  server.request({ method: 'GET', url: `${A}/confirmEmail${link.search}` });

// One server for the file: every test works on accounts of its own.
const server = useTestServer();

describe('a password or email change invalidates what was issued before it', () => {
  it('apollo: a reset code used makes the other reset and confirmation codes and every session useless', async () => {
    const acct = await account(server);
    const tokens = await login(server, acct);
    const confirmLink = await emailChangeLink(server, acct, tokens.accessToken, `new-${acct.email}`);
    const first = await apolloResetCode(server, acct.email);
    const second = await apolloResetCode(server, acct.email);
    expect(first).not.toBe(second);

    const reset = (resetCode: string, newPassword: string) =>
      server.request({
        method: 'POST',
        url: `${A}/resetPassword`,
        body: { email: acct.email, resetCode, newPassword },
      });
    expect((await reset(second, 'Second-Passw0rd!')).statusCode).toBe(200);
    const stale = await reset(first, 'First-Passw0rd!');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errors).toEqual({ InvalidToken: ['Invalid token.'] });
    expect((await openLink(server, confirmLink)).statusCode).toBe(401);

    expect(await info(server, tokens.accessToken)).toBe(401);
    expect((await refresh(server, tokens.refreshToken)).statusCode).toBe(401);
    expect(await legacyClient(server, acct.legacyToken)).toBe(401);
  });

  it('legacy: a reset link used makes the other links and every session useless', async () => {
    const acct = await account(server);
    const tokens = await login(server, acct);
    const first = await legacyResetToken(server, acct.email);
    const second = await legacyResetToken(server, acct.email);
    const reset = (token: string, password: string) =>
      server.request({
        method: 'POST',
        url: `/api/auth/reset-password/${token}`,
        body: { password, confirmPassword: password },
      });
    expect((await reset(second, 'Second-Passw0rd!')).statusCode).toBe(200);
    const stale = await reset(first, 'First-Passw0rd!');
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ message: 'The reset link is invalid or has expired.' });

    expect(await legacyClient(server, acct.legacyToken)).toBe(401);
    expect(await info(server, tokens.accessToken)).toBe(401);
    expect((await refresh(server, tokens.refreshToken)).statusCode).toBe(401);
  });

  it("a password change through /manage/info keeps only the changer's session and voids every code", async () => {
    const acct = await account(server);
    const acting = await login(server, acct);
    const other = await login(server, acct);
    const resetCode = await apolloResetCode(server, acct.email);
    const confirmLink = await emailChangeLink(server, acct, acting.accessToken, `new-${acct.email}`);

    const changed = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token: acting.accessToken,
      body: { oldPassword: acct.password, newPassword: 'Changed-Passw0rd!' },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    expect(await info(server, acting.accessToken)).toBe(200);
    expect((await refresh(server, acting.refreshToken)).statusCode).toBe(200);
    expect(await info(server, other.accessToken)).toBe(401);
    expect((await refresh(server, other.refreshToken)).statusCode).toBe(401);
    expect(await legacyClient(server, acct.legacyToken)).toBe(401);

    const reset = await server.request({
      method: 'POST',
      url: `${A}/resetPassword`,
      body: { email: acct.email, resetCode, newPassword: 'Reset-Passw0rd!' },
    });
    expect(reset.statusCode).toBe(400);
    expect((await openLink(server, confirmLink)).statusCode).toBe(401);
  });

  it('a confirmed email change ends every session and voids the reset codes', async () => {
    const acct = await account(server);
    const tokens = await login(server, acct);
    const resetCode = await apolloResetCode(server, acct.email);
    const newEmail = `moved-${acct.email}`;
    const link = await emailChangeLink(server, acct, tokens.accessToken, newEmail);
    const confirmed = await openLink(server, link);
    expect(confirmed.statusCode).toBe(200);

    expect(await info(server, tokens.accessToken)).toBe(401);
    expect((await refresh(server, tokens.refreshToken)).statusCode).toBe(401);
    expect(await legacyClient(server, acct.legacyToken)).toBe(401);
    const reset = await server.request({
      method: 'POST',
      url: `${A}/resetPassword`,
      body: { email: newEmail, resetCode, newPassword: 'Reset-Passw0rd!' },
    });
    expect(reset.statusCode).toBe(400);
    const audit = await server.ctx.db.query<{ action: string }>(
      "select action from audit_log where actor_email = $1 and action = 'auth.email.change'",
      [newEmail],
    );
    expect(audit).toHaveLength(1);
  });
});

describe('refresh token families and logout', () => {
  it('revokes the whole family when a rotated refresh token is replayed', async () => {
    const acct = await account(server);
    const first = await login(server, acct);
    const rotated = await refresh(server, first.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json() as Tokens;

    const replay = await refresh(server, first.refreshToken);
    expect([replay.statusCode, replay.body]).toEqual([401, '']);
    expect(await info(server, second.accessToken)).toBe(401);
    expect((await refresh(server, second.refreshToken)).statusCode).toBe(401);
    const [audit] = await server.ctx.db.query<{ outcome: string; details: { reason: string } }>(
      "select outcome, details from audit_log where actor_email = $1 and action = 'auth.refresh'",
      [acct.email],
    );
    expect(audit).toEqual({ outcome: 'failure', details: { reason: 'replayed' } });
  });

  it('keeps the family across a refresh, so a logout with an apollo token ends the earlier access token too', async () => {
    const acct = await account(server);
    const first = await login(server, acct);
    const second = (await refresh(server, first.refreshToken)).json() as Tokens;
    const unrelated = await login(server, acct);

    // The legacy logout takes an apollo access token: apollo itself has no logout call.
    const logout = await server.request({
      method: 'POST',
      url: '/api/auth/logout',
      token: second.accessToken,
      body: {},
    });
    expect(logout.statusCode, logout.body).toBe(200);
    expect(await info(server, first.accessToken)).toBe(401);
    expect(await info(server, second.accessToken)).toBe(401);
    expect((await refresh(server, second.refreshToken)).statusCode).toBe(401);
    expect(await info(server, unrelated.accessToken)).toBe(200);
  });

  it('logs out on POST /api/auth/logout without a body, or with an empty JSON one', async () => {
    const acct = await account(server);
    const bare = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: acct.legacyToken },
    });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(await legacyClient(server, acct.legacyToken)).toBe(401);

    const { accessToken } = await login(server, acct);
    const empty = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: accessToken, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(await info(server, accessToken)).toBe(401);
  });
});

describe('sensitive changes need the user again', () => {
  it('never answers the key of an enrolled authenticator', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    const read = await twoFactor(server, accessToken, {});
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ isTwoFactorEnabled: true, sharedKey: null, recoveryCodesLeft: 10 });
    expect(read.body).not.toContain(acct.key);
  });

  it('asks for the password and a code before new recovery codes, and consumes the code', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    const ask = (extra: Record<string, unknown>) =>
      twoFactor(server, accessToken, { resetRecoveryCodes: true, ...extra });

    expect(errorCodes(await ask({}))).toEqual(['OldPasswordRequired']);
    expect(errorCodes(await ask({ oldPassword: 'Wrong-Passw0rd!', twoFactorCode: '000000' }))).toEqual([
      'PasswordMismatch',
    ]);
    expect(errorCodes(await ask({ oldPassword: acct.password }))).toEqual(['RequiresTwoFactor']);
    const failures = async () =>
      (
        await server.ctx.db.query<{ failed_attempts: number }>('select failed_attempts from users where email = $1', [
          acct.email,
        ])
      )[0]?.failed_attempts;
    const before = await failures();
    const wrong = await ask({ oldPassword: acct.password, twoFactorCode: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(errorCodes(wrong)).toEqual(['InvalidTwoFactorCode']);
    expect(await failures()).toBe((before ?? 0) + 1);

    const code = nextCode(server, acct);
    const ok = await ask({ oldPassword: acct.password, twoFactorCode: code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ isTwoFactorEnabled: true, sharedKey: null, recoveryCodesLeft: 10 });
    const fresh = ok.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(acct.recoveryCodes[0]);
    expect(errorCodes(await ask({ oldPassword: acct.password, twoFactorCode: code }))).toEqual([
      'InvalidTwoFactorCode',
    ]);
    // A recovery code of the new set is as good as a code, once.
    const byRecovery = await ask({ oldPassword: acct.password, twoFactorRecoveryCode: fresh[0] });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    expect(errorCodes(await ask({ oldPassword: acct.password, twoFactorRecoveryCode: fresh[0] }))).toEqual([
      'InvalidTwoFactorCode',
    ]);
    const audit = await server.ctx.db.query<{ outcome: string; details: { reason?: string } }>(
      "select outcome, details from audit_log where actor_email = $1 and action = 'auth.2fa.change' order by seq",
      [acct.email],
    );
    expect(audit.map((e) => e.details.reason ?? e.outcome)).toEqual([
      'OldPasswordRequired',
      'PasswordMismatch',
      'RequiresTwoFactor',
      'InvalidTwoFactorCode',
      'success',
      'InvalidTwoFactorCode',
      'success',
      'InvalidTwoFactorCode',
    ]);
  });

  it('asks for the password and a code before a key reset, which shows the new key until a code of it enables 2FA', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    expect(errorCodes(await twoFactor(server, accessToken, { resetSharedKey: true }))).toEqual(['OldPasswordRequired']);
    expect(
      errorCodes(await twoFactor(server, accessToken, { resetSharedKey: true, oldPassword: acct.password })),
    ).toEqual(['RequiresTwoFactor']);
    const reset = await twoFactor(server, accessToken, {
      resetSharedKey: true,
      oldPassword: acct.password,
      twoFactorCode: nextCode(server, acct),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const newKey = reset.json().sharedKey as string;
    expect(newKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(newKey).not.toBe(acct.key);
    expect(reset.json().isTwoFactorEnabled).toBe(false);

    server.clock.advance(30_000);
    const enabled = await twoFactor(server, accessToken, { enable: true, twoFactorCode: codeFor(server, newKey) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ isTwoFactorEnabled: true, sharedKey: null });
  });

  it('asks for the password and a code before turning 2FA off', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    expect(errorCodes(await twoFactor(server, accessToken, { enable: false }))).toEqual(['OldPasswordRequired']);
    expect(errorCodes(await twoFactor(server, accessToken, { enable: false, oldPassword: acct.password }))).toEqual([
      'RequiresTwoFactor',
    ]);
    const [still] = await server.ctx.db.query<{ totp_enabled: boolean }>(
      'select totp_enabled from users where email = $1',
      [acct.email],
    );
    expect(still?.totp_enabled).toBe(true);
    const off = await twoFactor(server, accessToken, {
      enable: false,
      oldPassword: acct.password,
      twoFactorRecoveryCode: acct.recoveryCodes[1],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().isTwoFactorEnabled).toBe(false);
  });

  it('asks for the password and a code before an email change, and tells the old address', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    const newEmail = `next-${acct.email}`;
    const change = (extra: Record<string, unknown>) =>
      server.request({ method: 'POST', url: `${A}/manage/info`, token: accessToken, body: { newEmail, ...extra } });

    const before = server.mails.length;
    expect(errorCodes(await change({}))).toEqual(['OldPasswordRequired']);
    expect(errorCodes(await change({ oldPassword: 'Wrong-Passw0rd!' }))).toEqual(['PasswordMismatch']);
    expect(errorCodes(await change({ oldPassword: acct.password }))).toEqual(['RequiresTwoFactor']);
    expect(errorCodes(await change({ oldPassword: acct.password, twoFactorCode: '000000' }))).toEqual([
      'InvalidTwoFactorCode',
    ]);
    expect(server.mails.length).toBe(before);

    const ok = await change({ oldPassword: acct.password, twoFactorCode: nextCode(server, acct) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ email: acct.email, isEmailConfirmed: true });
    const sent = server.mails.slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual([acct.email, newEmail].sort());
    const notice = sent.find((m) => m.to === acct.email);
    expect(notice?.subject).toBe('Your email address is being changed');
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).not.toMatch(/https?:/);
    expect(notice?.link).toBeUndefined();
    const audit = await server.ctx.db.query<{ outcome: string; details: Record<string, string> }>(
      "select outcome, details from audit_log where actor_email = $1 and action = 'auth.email.change.request' order by seq",
      [acct.email],
    );
    expect(audit.map((e) => e.details.reason ?? e.outcome)).toEqual([
      'OldPasswordRequired',
      'PasswordMismatch',
      'RequiresTwoFactor',
      'InvalidTwoFactorCode',
      'success',
    ]);
    expect(audit.at(-1)?.details).toEqual({ newEmail });
  });

  it('does not clear the failure count on a right password while 2FA is on: five wrong codes lock the account', async () => {
    const acct = await account(server);
    const { accessToken } = await login(server, acct);
    const details: string[] = [];
    for (let i = 0; i < 3; i++) {
      const attempt = await server.request({
        method: 'POST',
        url: `${A}/login`,
        body: { email: acct.email, password: acct.password, twoFactorCode: '000000' },
      });
      details.push(attempt.json().detail);
    }
    // The step-up of a sensitive change counts toward the same lockout.
    for (let i = 0; i < 2; i++) {
      const change = await twoFactor(server, accessToken, {
        resetRecoveryCodes: true,
        oldPassword: acct.password,
        twoFactorCode: '000000',
      });
      details.push(errorCodes(change)[0] ?? '');
    }
    expect(details).toEqual(['Failed', 'Failed', 'Failed', 'InvalidTwoFactorCode', 'InvalidTwoFactorCode']);
    const right = await server.request({
      method: 'POST',
      url: `${A}/login`,
      body: { email: acct.email, password: acct.password, twoFactorCode: nextCode(server, acct) },
    });
    expect(right.json().detail).toBe('Lockedout');
    const locked = await twoFactor(server, accessToken, {
      resetRecoveryCodes: true,
      oldPassword: acct.password,
      twoFactorCode: nextCode(server, acct),
    });
    expect(errorCodes(locked)).toEqual(['Lockedout']);
  });

  it('lets an account without 2FA change its email with the password alone', async () => {
    const acct = await account(server);
    // The portal's recovery-code sign-in resets 2FA: such a session has a second factor no more.
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: acct.email, password: acct.password },
    });
    const recovered = await server.request({
      method: 'POST',
      url: '/api/auth/code-verification',
      token: signin.json().token,
      body: { recoveryCode: acct.recoveryCodes[0] },
    });
    expect(recovered.json().requiresTwoFactorSetup).toBe(true);
    const token = recovered.json().token as string;
    const newEmail = `solo-${acct.email}`;
    const noPassword = await server.request({ method: 'POST', url: `${A}/manage/info`, token, body: { newEmail } });
    expect(errorCodes(noPassword)).toEqual(['OldPasswordRequired']);
    const ok = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token,
      body: { newEmail, oldPassword: acct.password },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('password reset mail', () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

  it('answers a known and an unknown address in comparable time, on both APIs', async () => {
    const acct = await account(server);
    const mailer = server.ctx.mailer;
    server.ctx.mailer = {
      async send(message) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await mailer.send(message);
      },
    };
    try {
      for (const url of [`${A}/forgotPassword`, '/api/auth/forgot-password']) {
        const known: number[] = [];
        const unknown: number[] = [];
        for (let i = 0; i < 5; i++) {
          for (const [email, times] of [
            [acct.email, known],
            [`ghost-${i}@nowhere.example`, unknown],
          ] as const) {
            const started = performance.now();
            const response = await server.request({ method: 'POST', url, body: { email } });
            times.push(performance.now() - started);
            expect(response.statusCode).toBe(200);
            await drainBackground(server.ctx);
          }
        }
        expect(median(known) - median(unknown), `${url}: ${known} vs ${unknown}`).toBeLessThan(150);
      }
      const sent = server.mails.filter((m) => m.to === acct.email && m.subject === 'Reset your password');
      expect(sent).toHaveLength(10);
      const audited = await server.ctx.db.query(
        "select 1 from audit_log where actor_email = $1 and action = 'auth.password.forgot'",
        [acct.email],
      );
      expect(audited).toHaveLength(10);
    } finally {
      server.ctx.mailer = mailer;
    }
  });

  it('answers 200 when the mail cannot be sent, and logs the failure', async () => {
    const acct = await account(server);
    const { mailer, log } = server.ctx;
    const lines: string[] = [];
    server.ctx.log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    server.ctx.mailer = {
      async send() {
        throw new Error('SMTP refused');
      },
    };
    try {
      for (const url of [`${A}/forgotPassword`, '/api/auth/forgot-password']) {
        const response = await server.request({ method: 'POST', url, body: { email: acct.email } });
        expect(response.statusCode).toBe(200);
      }
      await drainBackground(server.ctx);
    } finally {
      server.ctx.mailer = mailer;
      server.ctx.log = log;
    }
    const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'background task failed');
    expect(failures).toHaveLength(2);
    expect(failures[0].err.message).toBe('SMTP refused');
  });
});

describe('the outbox mailer', () => {
  async function logged(logLinks: boolean | undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'portal-mail-'));
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Portal <no-reply@portal.test>',
      dataDir: dir,
      log,
      ...(logLinks === undefined ? {} : { logLinks }),
    });
    await mailer.send({
      to: 'a@b.example',
      subject: 'Reset your password',
      text: 'Link: http://x/reset-password/secret-token',
      link: 'http://x/reset-password/secret-token',
    });
    expect(readdirSync(join(dir, 'outbox'))).toHaveLength(1);
    return lines.join('');
  }

  it('logs mailed links only in demo mode', async () => {
    expect(await logged(true)).toContain('"link":"http://x/reset-password/secret-token"');
    for (const off of [false, undefined]) {
      const lines = await logged(off);
      expect(lines).toContain('mail written to outbox');
      expect(lines).not.toContain('secret-token');
    }
  });
});
