import { ApiError, createClient, type PortalClient } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  API_KEY,
  codeFor,
  DEMO_PASSWORD,
  PARTNER,
  resetAccountsBeforeEach,
  signInWithSetup,
  useTestServer,
} from './helpers.js';

/** What a refused call rejects with, as an integrator reads it: the status and the code. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { status: error.status, code: error.code };
}

// Every refusal of signing in, in both APIs, through the SDK against the live server: each reaches the
// client with a code to decide by (the README tells integrators to), the apollo ones with ASP.NET's detail.
describe('sign-in refusals reach the SDK with a code', () => {
  const server = useTestServer();
  let origin = '';
  beforeAll(async () => {
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  resetAccountsBeforeEach(server, [ADMIN, PARTNER]);
  const client = (token?: string): PortalClient =>
    createClient({ origin, apiKey: API_KEY, maxRetries: 0, ...(token ? { token } : {}) });
  const login = (body: { email: string; password: string; twoFactorCode?: string }) =>
    refusal(client().apollo.auth.login({ body }));
  const signin = (email: string, password = DEMO_PASSWORD) =>
    client().legacy.auth.signin({ body: { email, password } });

  it('apollo /login: NotAllowed before the authenticator is set up, then RequiresTwoFactor, Failed and Lockedout', async () => {
    expect(await login({ email: ADMIN, password: DEMO_PASSWORD })).toEqual({ status: 401, code: 'signInNotAllowed' });
    const { key } = await signInWithSetup(server, ADMIN);
    expect(await login({ email: ADMIN, password: DEMO_PASSWORD })).toEqual({ status: 401, code: 'twoFactorRequired' });
    const failed = { status: 401, code: 'invalidCredentials' };
    expect(await login({ email: ADMIN, password: 'Wrong-Passw0rd!', twoFactorCode: codeFor(server, key) })).toEqual(
      failed,
    );
    expect(await login({ email: 'nobody@nowhere.example', password: DEMO_PASSWORD })).toEqual(failed);
    expect(await login({ email: ADMIN, password: DEMO_PASSWORD, twoFactorCode: '000000' })).toEqual(failed);
    // Five failures in a row lock the account; the fifth already answers Lockedout.
    for (let i = 0; i < 3; i++) await login({ email: ADMIN, password: 'Wrong-Passw0rd!' });
    expect(await login({ email: ADMIN, password: 'Wrong-Passw0rd!' })).toEqual({ status: 401, code: 'accountLocked' });
  });

  it('apollo /login: NotAllowed also for a deactivated account and an unconfirmed address', async () => {
    await signInWithSetup(server, PARTNER);
    await server.ctx.db.query('update users set deactivated_at = $2 where email = $1', [PARTNER, new Date()]);
    try {
      expect(await login({ email: PARTNER, password: DEMO_PASSWORD })).toEqual({
        status: 401,
        code: 'signInNotAllowed',
      });
      expect(await refusal(signin(PARTNER))).toEqual({ status: 403, code: 'accountDeactivated' });
    } finally {
      await server.ctx.db.query('update users set deactivated_at = null where email = $1', [PARTNER]);
    }
    await server.ctx.db.query('update users set email_confirmed = false where email = $1', [PARTNER]);
    try {
      expect(await login({ email: PARTNER, password: DEMO_PASSWORD })).toEqual({
        status: 401,
        code: 'signInNotAllowed',
      });
      expect(await refusal(signin(PARTNER))).toEqual({ status: 403, code: 'emailNotConfirmed' });
    } finally {
      await server.ctx.db.query('update users set email_confirmed = true where email = $1', [PARTNER]);
    }
  });

  it('legacy: the password, and the second step in and out of order', async () => {
    expect(await refusal(signin(ADMIN, 'Wrong-Passw0rd!'))).toEqual({ status: 401, code: 'invalidCredentials' });
    const first = await signin(ADMIN);
    expect(first.twoFactor).toBe('setup');
    const pending = client(first.token);
    expect(await refusal(pending.legacy.auth.codeVerification({ body: { code: '123456' } }))).toEqual({
      status: 400,
      code: 'twoFactorNotSetUp',
    });
    expect(await refusal(pending.legacy.auth.qrcodeVerification({ body: { code: '123456' } }))).toEqual({
      status: 400,
      code: 'authenticatorKeyMissing',
    });
    const { key } = await pending.legacy.auth.generateQr();
    expect(await refusal(pending.legacy.auth.qrcodeVerification({ body: { code: '000000' } }))).toEqual({
      status: 400,
      code: 'invalidVerificationCode',
    });
    const session = client(
      (await pending.legacy.auth.qrcodeVerification({ body: { code: codeFor(server, key) } })).token,
    );
    server.clock.advance(30_000);
    expect(await refusal(session.legacy.auth.generateQr())).toEqual({ status: 409, code: 'twoFactorAlreadySetUp' });
    expect(await refusal(session.legacy.auth.qrcodeVerification({ body: { code: codeFor(server, key) } }))).toEqual({
      status: 409,
      code: 'twoFactorAlreadySetUp',
    });
    expect(await refusal(session.legacy.auth.codeVerification({ body: { code: codeFor(server, key) } }))).toEqual({
      status: 400,
      code: 'alreadySignedIn',
    });
  });

  it('legacy: wrong codes until the account locks', async () => {
    const { key } = await signInWithSetup(server, ADMIN);
    const again = await signin(ADMIN);
    expect(again.twoFactor).toBe('verify');
    const pending = client(again.token);
    for (let i = 0; i < 4; i++) {
      expect(await refusal(pending.legacy.auth.codeVerification({ body: { code: '000000' } }))).toEqual({
        status: 400,
        code: 'invalidVerificationCode',
      });
    }
    expect(await refusal(pending.legacy.auth.codeVerification({ body: { code: '000000' } }))).toEqual({
      status: 400,
      code: 'loginVerificationFailed',
    });
    expect(await refusal(pending.legacy.auth.codeVerification({ body: { code: codeFor(server, key) } }))).toEqual({
      status: 400,
      code: 'loginVerificationFailed',
    });
    expect(await refusal(signin(ADMIN))).toEqual({ status: 401, code: 'accountLocked' });
  });

  it('both: an organisation that signs in with Microsoft only', async () => {
    await server.ctx.db.query(
      `update organisations set password_sign_in = false
        where id = (select organisation_id from users where email = $1)`,
      [PARTNER],
    );
    try {
      expect(await refusal(signin(PARTNER))).toEqual({ status: 403, code: 'passwordSignInOff' });
      expect(await login({ email: PARTNER, password: DEMO_PASSWORD })).toEqual({
        status: 401,
        code: 'signInNotAllowed',
      });
    } finally {
      await server.ctx.db.query(
        `update organisations set password_sign_in = true
          where id = (select organisation_id from users where email = $1)`,
        [PARTNER],
      );
    }
  });
});
