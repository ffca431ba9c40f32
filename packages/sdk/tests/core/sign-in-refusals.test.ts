import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  errorMessage,
  errorTexts,
  type LoginFailureDetail,
  loginFailureCodes,
  NotFoundError,
  secondStepTexts,
} from '../../src/index.js';
import { ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const client = createClient({ origin: ORIGIN, apiKey: 'key', token: 'signin-token', maxRetries: 0 });
const LOGIN = `${ORIGIN}/apollo-beta/login`;
const credentials = { body: { email: 'a@contoso.example', password: 'Passw0rd!' } };

/** ASP.NET Core Identity's refusal of a sign-in: 401 problem details naming the result, no `code`. */
const aspNetRefusal = (detail: string) =>
  HttpResponse.json(
    { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2', title: 'Unauthorized', status: 401, detail },
    { status: 401, headers: { 'Content-Type': 'application/problem+json' } },
  );
/** A legacy refusal as a server without codes sends it: `{ message }` only. */
const legacyRefusal = (status: number, message: string) => HttpResponse.json({ message }, { status });

async function refusedWith(call: () => Promise<unknown>): Promise<ApiError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('apollo /login: every refusal has a code, from its detail', () => {
  const rows: [LoginFailureDetail, string][] = [
    ['Failed', 'invalidCredentials'],
    ['Lockedout', 'accountLocked'],
    ['NotAllowed', 'signInNotAllowed'],
    ['RequiresTwoFactor', 'twoFactorRequired'],
  ];
  it.each(rows)('%s gives %s, with its message in both languages', async (detail, code) => {
    server.use(http.post(LOGIN, () => aspNetRefusal(detail)));
    const error = await refusedWith(() => client.apollo.auth.login(credentials));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe(code);
    // Section 8 reads the message, then the title: "Unauthorized" (issue 45; the detail came first
    // before). The wire's own word stays on `detail`; the code picks the text a person reads.
    expect(error.message).toBe('Unauthorized');
    expect(error.detail).toBe(detail);
    expect(error.messageKey).toBe(code);
    expect(errorMessage(error).message).not.toBe(errorMessage(401).message);
    expect(errorMessage(error, 'de').message).not.toBe(errorMessage(401, 'de').message);
  });

  it('covers every detail of the contract', () => {
    expect(Object.keys(loginFailureCodes).sort()).toEqual(rows.map(([detail]) => detail).sort());
  });

  it('keeps a code the body names, and leaves other details and other endpoints alone', async () => {
    server.use(
      http.post(LOGIN, () =>
        HttpResponse.json(
          { title: 'Unauthorized', status: 401, detail: 'NotAllowed', code: 'passwordSignInOff' },
          {
            status: 401,
          },
        ),
      ),
    );
    expect((await refusedWith(() => client.apollo.auth.login(credentials))).code).toBe('passwordSignInOff');
    server.use(http.post(LOGIN, () => aspNetRefusal('Something else')));
    expect((await refusedWith(() => client.apollo.auth.login(credentials))).code).toBeUndefined();
    // The same words from another endpoint are not a sign-in's refusal.
    server.use(http.get(`${ORIGIN}/apollo-beta/api/Tenants`, () => aspNetRefusal('Failed')));
    expect((await refusedWith(() => client.apollo.tenants.list())).code).toBeUndefined();
  });
});

describe('legacy sign-in: every refusal has a code, also from a server that sends only a text', () => {
  it.each([
    ['invalidCredentials', 401],
    ['invalidVerificationCode', 400],
    ['loginVerificationFailed', 400],
  ] as const)('%s from its text', async (code, status) => {
    server.use(http.post(`${ORIGIN}/api/auth/code-verification`, () => legacyRefusal(status, errorTexts[code]())));
    const error = await refusedWith(() => client.legacy.auth.codeVerification({ body: { code: '123456' } }));
    expect(error.code).toBe(code);
    expect(error.messageKey).toBe(code);
  });

  it('userDoesNotExist from the session check', async () => {
    server.use(http.get(`${ORIGIN}/api/auth/verify-user`, () => legacyRefusal(404, errorTexts.userDoesNotExist())));
    const error = await refusedWith(() => client.legacy.auth.verifyUser());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('userDoesNotExist');
  });

  it('the second step called out of order', async () => {
    server.use(
      http.get(`${ORIGIN}/api/auth/generateQR`, () => legacyRefusal(409, secondStepTexts.twoFactorAlreadySetUp)),
      http.post(`${ORIGIN}/api/auth/qrcode-verification`, () =>
        legacyRefusal(400, secondStepTexts.authenticatorKeyMissing),
      ),
      http.post(`${ORIGIN}/api/auth/code-verification`, () => legacyRefusal(400, secondStepTexts.twoFactorNotSetUp)),
    );
    const again = await refusedWith(() => client.legacy.auth.generateQr());
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.code).toBe('twoFactorAlreadySetUp');
    const early = await refusedWith(() => client.legacy.auth.qrcodeVerification({ body: { code: '123456' } }));
    expect(early).toBeInstanceOf(BadRequestError);
    expect(early.code).toBe('authenticatorKeyMissing');
    const notYet = await refusedWith(() => client.legacy.auth.codeVerification({ body: { code: '123456' } }));
    expect(notYet.code).toBe('twoFactorNotSetUp');
    server.use(
      http.post(`${ORIGIN}/api/auth/code-verification`, () => legacyRefusal(400, secondStepTexts.alreadySignedIn)),
    );
    expect((await refusedWith(() => client.legacy.auth.codeVerification({ body: { code: '1' } }))).code).toBe(
      'alreadySignedIn',
    );
    for (const code of Object.keys(secondStepTexts) as (keyof typeof secondStepTexts)[]) {
      expect(errorMessage({ code }).key).toBe(code);
      expect(errorMessage({ code }, 'de').message).not.toBe(errorMessage({ code }, 'en').message);
    }
  });

  it('a sign-in text from another area is not a sign-in refusal', async () => {
    server.use(http.get(`${ORIGIN}/api/client`, () => legacyRefusal(400, secondStepTexts.alreadySignedIn)));
    expect((await refusedWith(() => client.legacy.workers.client())).code).toBeUndefined();
  });
});
