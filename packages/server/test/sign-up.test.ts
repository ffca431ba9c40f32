/**
 * Signing up and confirming the address: PORTAL_SELF_REGISTRATION (open, closed, first) on apollo
 * /register and /app-config.json, and the mailed link's page (legacy POST /auth/confirm-email), which
 * says whether the link confirmed, found the address confirmed already, expired, was used or is not
 * valid, while apollo GET /confirmEmail keeps its contract answers.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrations.js';
import { drainBackground } from '../src/modules/identity/background.js';
import { ADMIN, API_KEY, codeFor, openTestDatabase, type TestServer, testContext, useTestServer } from './helpers.js';

const A = '/apollo-beta';
const PASSWORD = 'Fresh-Passw0rd!';
const newAddress = () => `u-${randomUUID().slice(0, 8)}@fresh.example`;

const register = (server: Pick<TestServer, 'request'>, email: string, password = PASSWORD) =>
  server.request({ method: 'POST', url: `${A}/register`, body: { email, password } });

const appConfig = async (server: Pick<TestServer, 'request'>) =>
  (await server.request({ method: 'GET', url: '/app-config.json' })).json() as { selfRegistration: string };

/** The confirmation link last mailed to `email` (mails leave after the answer). */
async function linkMailedTo(server: TestServer, email: string): Promise<URL> {
  await drainBackground(server.ctx);
  const mail = server.mails.filter((m) => m.to === email).at(-1);
  if (!mail?.link) throw new Error(`no link mailed to ${email}`);
  return new URL(mail.link);
}

/** Opens the link as the portal's page does. */
const confirmThroughPage = (server: TestServer, link: URL, change: Record<string, string> = {}) =>
  server.request({
    method: 'POST',
    url: '/api/auth/confirm-email',
    body: { ...Object.fromEntries(link.searchParams), ...change },
  });

/** Opens the link as an integrator does: its parameters to apollo's GET /confirmEmail. */
const confirmThroughApollo = (server: TestServer, link: URL) =>
  server.request({ method: 'GET', url: `${A}/confirmEmail${link.search}` });

const signInStatus = async (server: TestServer, email: string) =>
  (await server.request({ method: 'POST', url: '/api/auth/signin', body: { email, password: PASSWORD } })).statusCode;

describe('PORTAL_SELF_REGISTRATION', () => {
  it('is open in demo mode and first outside it by default; open, closed or first when set; anything else stops the start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-signup-config-'));
    const real = { PORTAL_DATA_DIR: dataDir, PORTAL_DEMO: 'off', PORTAL_SECRET_KEY: '07'.repeat(32) };
    expect(loadConfig({ PORTAL_DATA_DIR: dataDir }).selfRegistration).toBe('open');
    expect(loadConfig(real).selfRegistration).toBe('first');
    expect(loadConfig({ ...real, DATABASE_URL: 'postgres://x@127.0.0.1/y', PORTAL_DEMO: '' }).selfRegistration).toBe(
      'first',
    );
    for (const value of ['open', 'closed', 'first'] as const) {
      expect(loadConfig({ ...real, PORTAL_SELF_REGISTRATION: value }).selfRegistration).toBe(value);
      expect(loadConfig({ PORTAL_DATA_DIR: dataDir, PORTAL_SELF_REGISTRATION: value }).selfRegistration).toBe(value);
    }
    expect(() => loadConfig({ ...real, PORTAL_SELF_REGISTRATION: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...real, PORTAL_SELF_REGISTRATION: 'yes' })).toThrow(/open, closed or first/);
  });

  describe('closed', () => {
    const server = useTestServer({ selfRegistration: 'closed' });

    it('refuses every registration alike with the validation problem RegistrationClosed, storing and mailing nothing', async () => {
      const mailsBefore = server.mails.length;
      const [usersBefore] = await server.ctx.db.query<{ n: number }>('select count(*)::int as n from users');
      const answers = await Promise.all([
        register(server, newAddress()),
        // A taken address and a bad body are not looked at: no DuplicateUserName, no InvalidEmail.
        register(server, ADMIN),
        register(server, 'not-an-email', 'weak'),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(400);
        expect(answer.headers['content-type']).toContain('application/problem+json');
        const { traceId: _traceId, ...body } = answer.json() as Record<string, unknown>;
        expect(body).toEqual({
          type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
          title: 'One or more validation errors occurred.',
          status: 400,
          errors: {
            RegistrationClosed: [
              "Sign-up is closed on this portal. Ask your organisation's administrator or the portal's operator for an account.",
            ],
          },
          code: 'registrationClosed',
        });
      }
      await drainBackground(server.ctx);
      const [usersAfter] = await server.ctx.db.query<{ n: number }>('select count(*)::int as n from users');
      expect(usersAfter?.n).toBe(usersBefore?.n);
      expect(server.mails.length).toBe(mailsBefore);
    });

    it('tells the PWA that sign-up is closed, and whom to write to', async () => {
      const response = await server.request({ method: 'GET', url: '/app-config.json' });
      expect(response.json()).toEqual({
        apiKey: API_KEY,
        environment: 'production',
        selfRegistration: 'closed',
        supportEmail: 'support@portal.test',
      });
    });
  });

  describe('first, on an empty portal', () => {
    let server: Pick<TestServer, 'request' | 'ctx'> & { close(): Promise<void> };
    beforeAll(async () => {
      // No demo world: the database a portal started with PORTAL_DEMO=off begins with.
      const { db, drop } = await openTestDatabase();
      await migrate(db);
      const { ctx } = testContext(db, { selfRegistration: 'first' });
      const app = await buildApp(ctx);
      await app.ready();
      server = {
        ctx,
        request: ({ method, url, body }) =>
          app.inject({
            method: method as 'GET',
            url,
            headers: url.startsWith('/apollo') ? { 'x-api-key': API_KEY } : {},
            ...(body !== undefined ? { payload: body as object } : {}),
          }),
        async close() {
          await app.close();
          await drop();
        },
      };
    });
    afterAll(() => server?.close());

    it('is open until the first organisation signs up, then closed: of eight sign-ups at once one gets in', async () => {
      expect((await appConfig(server)).selfRegistration).toBe('open');
      const addresses = Array.from({ length: 8 }, newAddress);
      const answers = await Promise.all(addresses.map((email) => register(server, email)));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      for (const answer of answers.filter((a) => a.statusCode !== 200)) {
        expect(Object.keys(answer.json().errors)).toEqual(['RegistrationClosed']);
      }
      const organisations = await server.ctx.db.query<{ kind: string; license: string; users: number }>(
        'select o.kind, o.license, (select count(*)::int from users u where u.organisation_id = o.id) as users from organisations o',
      );
      expect(organisations).toEqual([{ kind: 'customer', license: 'trial', users: 1 }]);
      const [first] = await server.ctx.db.query<{ email: string; role: string }>('select email, role from users');
      expect(first).toEqual({ email: addresses[statuses.indexOf(200)], role: 'admin' });

      expect((await appConfig(server)).selfRegistration).toBe('closed');
      expect((await register(server, newAddress())).json().code).toBe('registrationClosed');
    });
  });
});

describe('the confirmation link', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-signup-')) });

  async function registered() {
    const email = newAddress();
    expect((await register(server, email)).statusCode).toBe(200);
    return { email, link: await linkMailedTo(server, email) };
  }

  const auditCount = async (email: string, action: string) => {
    const [row] = await server.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from audit_log where actor_email = $1 and action = $2',
      [email, action],
    );
    return row?.n ?? 0;
  };

  it("points at the portal's page with the user and the code, and says what to do", async () => {
    const { email, link } = await registered();
    expect(`${link.origin}${link.pathname}`).toBe('http://portal.test/confirm-email');
    expect([...link.searchParams.keys()]).toEqual(['userId', 'code']);
    const mail = server.mails.filter((m) => m.to === email).at(-1);
    expect(mail?.subject).toBe('Confirm your email');
    expect(mail?.text).toContain(link.href);
    expect(mail?.text).toContain('The link works once, for 24 hours.');
  });

  it('confirms once, then answers "already confirmed" from the page and 401 from apollo; sign-in waits for it', async () => {
    const { email, link } = await registered();
    const refused = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email, password: PASSWORD },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: 'The email address has not been confirmed yet.',
      code: 'emailNotConfirmed',
    });

    const first = await confirmThroughPage(server, link);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ outcome: 'confirmed', email, emailChanged: false });
    expect(await signInStatus(server, email)).toBe(200);

    const again = await confirmThroughPage(server, link);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ outcome: 'alreadyConfirmed', email, emailChanged: false });
    // Apollo keeps the contract: a used code is 401 with an empty body.
    const apollo = await confirmThroughApollo(server, link);
    expect(apollo.statusCode).toBe(401);
    expect(apollo.body).toBe('');
    // Audited once: opening it again changes nothing.
    expect(await auditCount(email, 'auth.email.confirm')).toBe(1);
  });

  it('confirmed through apollo first (200 text), reads "already confirmed" on the page', async () => {
    const { email, link } = await registered();
    const apollo = await confirmThroughApollo(server, link);
    expect(apollo.statusCode).toBe(200);
    expect(apollo.body).toBe('Thank you for confirming your email.');
    expect((await confirmThroughPage(server, link)).json()).toEqual({
      outcome: 'alreadyConfirmed',
      email,
      emailChanged: false,
    });
  });

  it('expires after a day; a new mail confirms, and the expired link then reads "already confirmed"', async () => {
    const { email, link } = await registered();
    server.clock.advance(24 * 3600_000 + 1000);
    const expired = await confirmThroughPage(server, link);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ message: 'This confirmation link has expired.', code: 'confirmationLinkExpired' });
    expect((await confirmThroughApollo(server, link)).statusCode).toBe(401);

    const resent = await server.request({ method: 'POST', url: `${A}/resendConfirmationMail`, body: { email } });
    expect(resent.statusCode).toBe(200);
    const fresh = await linkMailedTo(server, email);
    expect(fresh.href).not.toBe(link.href);
    expect((await confirmThroughPage(server, fresh)).json().outcome).toBe('confirmed');
    expect((await confirmThroughPage(server, link)).json().outcome).toBe('alreadyConfirmed');
  });

  it('a link replaced by a password reset reads "used" while the address is unconfirmed; a new mail confirms', async () => {
    const { email, link } = await registered();
    await server.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email } });
    await drainBackground(server.ctx);
    const resetLink = server.mails.filter((m) => m.to === email).at(-1)?.link ?? '';
    const token = resetLink.replace('http://portal.test/reset-password/', '');
    const reset = await server.request({
      method: 'POST',
      url: `/api/auth/reset-password/${token}`,
      body: { password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);

    const used = await confirmThroughPage(server, link);
    expect(used.statusCode).toBe(400);
    expect(used.json().code).toBe('confirmationLinkUsed');
    expect(await signInStatus(server, email)).toBe(403);
    await server.request({ method: 'POST', url: `${A}/resendConfirmationMail`, body: { email } });
    expect((await confirmThroughPage(server, await linkMailedTo(server, email))).json().outcome).toBe('confirmed');
    expect((await confirmThroughPage(server, link)).json().outcome).toBe('alreadyConfirmed');
  });

  it('reads "not valid" alike for a wrong code, another user, an unknown user and an address not the link\'s', async () => {
    const { link } = await registered();
    const other = await registered();
    const code = link.searchParams.get('code') ?? '';
    const answers = await Promise.all([
      confirmThroughPage(server, link, { code: `${code.slice(0, -2)}AA` }),
      confirmThroughPage(server, link, { code: 'bm90IGEgY29kZQ' }),
      confirmThroughPage(server, link, { userId: other.link.searchParams.get('userId') ?? '' }),
      confirmThroughPage(server, link, { userId: randomUUID() }),
      confirmThroughPage(server, link, { changedEmail: 'someone@else.example' }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        message: 'This confirmation link is not valid.',
        code: 'confirmationLinkInvalid',
      });
    }
    // None of them used the real link up.
    expect((await confirmThroughPage(server, link)).json().outcome).toBe('confirmed');
  });

  it('confirms an email change (its link names the new address), then reads it as already confirmed', async () => {
    const { email, link } = await registered();
    await confirmThroughPage(server, link);
    const signin = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email, password: PASSWORD },
    });
    const pending = signin.json().token as string;
    const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: pending });
    const { key } = qr.json() as { key: string };
    const setup = await server.request({
      method: 'POST',
      url: '/api/auth/qrcode-verification',
      token: pending,
      body: { code: codeFor(server, key) },
    });
    server.clock.advance(30_000);
    const newEmail = `moved-${email}`;
    const asked = await server.request({
      method: 'POST',
      url: `${A}/manage/info`,
      token: setup.json().token,
      body: { newEmail, oldPassword: PASSWORD, twoFactorCode: codeFor(server, key) },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const change = await linkMailedTo(server, newEmail);
    expect(change.pathname).toBe('/confirm-email');
    expect(change.searchParams.get('changedEmail')).toBe(newEmail);
    expect((await confirmThroughPage(server, change)).json()).toEqual({
      outcome: 'confirmed',
      email: newEmail,
      emailChanged: true,
    });
    expect((await confirmThroughPage(server, change)).json()).toEqual({
      outcome: 'alreadyConfirmed',
      email: newEmail,
      emailChanged: true,
    });
  });
});
