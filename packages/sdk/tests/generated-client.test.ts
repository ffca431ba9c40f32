/**
 * The OpenAPI document as a generator uses it: types generated from openapi.json with
 * openapi-typescript's CLI, a small program calling the portal through openapi-fetch with one base URL
 * (the origin), type-checked with `tsc --noEmit --strict` (the workspace's TypeScript), then run
 * against a live portal (the built server in demo mode). It signs in through legacy (password, the
 * authenticator's setup, one legacy GET), then through apollo /login with the authenticator's code,
 * lists the tenants with the key and the token (also under staging's /apollo, rewritten by a
 * middleware), refreshes, and is refused: no key (problem details), no token and a refresh token that
 * is none (an empty body with the Bearer challenge), no legacy session ({message}).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoPortal } from '../scripts/demo-portal.mjs';

const run = promisify(execFile);
const sdkRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
// The generator, the client library the program imports, and the workspace's TypeScript.
const generatorDir = dirname(require.resolve('openapi-typescript/package.json'));
const fetchDir = dirname(require.resolve('openapi-fetch/package.json'));
const typescriptDir = dirname(require.resolve('typescript/package.json'));
const ADMIN = 'admin@contoso.example';

/**
 * openapi-typescript builds its output with the TypeScript compiler API, which TypeScript 7's native
 * compiler does not offer: its `import 'typescript'` is pointed at TypeScript 6 (the typescript-6
 * alias) in the generator's process, as scripts/docs.mjs does for TypeDoc.
 */
function typescript6Loader(): string {
  const typescript6 = pathToFileURL(require.resolve('typescript-6')).href;
  const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'typescript') return { url: ${JSON.stringify(typescript6)}, format: 'commonjs', shortCircuit: true };
  return next(specifier, context);
}`;
  const registration = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  return `data:text/javascript,${encodeURIComponent(registration)}`;
}

/** The integrator's program: every call through the generated types, every answer read as they type it. */
const PROGRAM = `import createClient from 'openapi-fetch';
import { apiKey, email, origin, password } from './config.js';
import type { components, paths } from './schema.js';

type ProblemDetails = components['schemas']['ProblemDetails'];

/** RFC 6238: the six-digit code of a base32 key at a 30-second step, as an authenticator app shows it. */
async function totp(base32Key: string, step: number): Promise<string> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Key.replace(/[\\s=]/g, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = new Uint8Array((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = new DataView(new ArrayBuffer(8));
  counter.setBigUint64(0, BigInt(step));
  const hmac = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const digest = new DataView(await crypto.subtle.sign('HMAC', hmac, counter.buffer));
  const offset = digest.getUint8(digest.byteLength - 1) & 0x0f;
  return String((digest.getUint32(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

function fail(what: string, response: Response, error: unknown): never {
  throw new Error(\`\${what}: \${response.status} \${JSON.stringify(error)}\`);
}

// One client, one base URL: the portal's origin. Every path is the document's, in full.
const client = createClient<paths>({ baseUrl: origin });
const key = { 'X-Api-Key': apiKey };

// Legacy: password, then the authenticator's setup (the demo account has none yet), then one GET.
const signin = await client.POST('/api/auth/signin', { body: { email, password } });
if (!signin.data) fail('signin', signin.response, signin.error);
const twoFactor: 'setup' | 'verify' = signin.data.twoFactor;
const pending = { Authorization: signin.data.token };
const qr = await client.GET('/api/auth/generateQR', { headers: pending });
if (!qr.data) fail('generateQR', qr.response, qr.error);
const secret: string = qr.data.key;
// Each 30-second step's code is taken once: the setup takes the previous step's, apollo's sign-in this one's.
const step = Math.floor(Date.now() / 30_000);
const setup = await client.POST('/api/auth/qrcode-verification', {
  headers: pending,
  body: { code: await totp(secret, step - 1) },
});
if (!setup.data) fail('qrcode-verification', setup.response, setup.error);
const recoveryCodes: string[] = setup.data.recoveryCodes;
const me = await client.GET('/api/auth/verify-user', { headers: { Authorization: setup.data.token } });
if (!me.data) fail('verify-user', me.response, me.error);
const role: 'admin' | 'partner' | 'operator' = me.data.user.role;

// Apollo: /login with the authenticator's code, then the tenants with the key and the bearer token.
const login = await client.POST('/apollo-beta/login', {
  headers: key,
  body: { email, password, twoFactorCode: await totp(secret, step) },
});
if (!login.data) fail('login', login.response, login.error);
const tokenType: 'Bearer' = login.data.tokenType;
const signedIn = { ...key, Authorization: \`Bearer \${login.data.accessToken}\` };
const tenants = await client.GET('/apollo-beta/api/Tenants', { headers: signedIn });
if (!tenants.data) fail('tenants', tenants.response, tenants.error);
const tenantIds: string[] = tenants.data.map((tenant) => tenant.tenantId);

// Staging serves the same operations under /apollo: one middleware rewrites the prefix.
const staging = createClient<paths>({ baseUrl: origin });
staging.use({
  onRequest({ request }) {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\\/apollo-beta\\//, '/apollo/');
    return new Request(url, request);
  },
});
const stagingTenants = await staging.GET('/apollo-beta/api/Tenants', { headers: signedIn });
if (!stagingTenants.data) fail('staging tenants', stagingTenants.response, stagingTenants.error);

const refreshed = await client.POST('/apollo-beta/refresh', {
  headers: key,
  body: { refreshToken: login.data.refreshToken },
});
if (!refreshed.data) fail('refresh', refreshed.response, refreshed.error);
const expiresIn: number = refreshed.data.expiresIn;

// Refusals: no key is refused with problem details ...
const keyless = await client.GET('/apollo-beta/api/Tenants');
const problem: ProblemDetails | undefined = keyless.error;
// ... no user token, and a refresh token that is none, with an empty body and the Bearer challenge ...
const tokenless = await client.GET('/apollo-beta/api/Tenants', { headers: key });
const badRefresh = await client.POST('/apollo-beta/refresh', {
  headers: key,
  body: { refreshToken: 'not-a-refresh-token' },
});
// ... and legacy without a session in its own shape.
const sessionless = await client.GET('/api/auth/verify-user');
const legacyMessage: string | undefined = sessionless.error?.message;

const empty = (response: Response, error: unknown) => ({
  status: response.status,
  challenge: response.headers.get('WWW-Authenticate'),
  length: response.headers.get('Content-Length'),
  error: error === undefined ? 'none' : 'some',
});
console.log(
  JSON.stringify({
    twoFactor,
    recoveryCodes: recoveryCodes.length,
    legacyUser: me.data.user.email,
    role,
    tokenType,
    tenantIds,
    stagingTenantIds: stagingTenants.data.map((tenant) => tenant.tenantId),
    refreshed: { expiresIn, newToken: refreshed.data.accessToken !== login.data.accessToken },
    keyless: {
      status: keyless.response.status,
      type: keyless.response.headers.get('Content-Type'),
      title: problem?.title,
      problemStatus: problem?.status,
      traceId: typeof problem?.traceId,
    },
    tokenless: empty(tokenless.response, tokenless.error),
    badRefresh: empty(badRefresh.response, badRefresh.error),
    sessionless: { status: sessionless.response.status, message: typeof legacyMessage },
  }),
);

/** Never called: what the generated types refuse, checked by the compiler alone. */
export async function refusedByTheTypes(): Promise<void> {
  // @ts-expect-error apollo's paths are written in full: /api/Tenants alone is legacy's, and has no GET.
  await client.GET('/api/Tenants');
  // @ts-expect-error the login's body needs the password.
  await client.POST('/apollo-beta/login', { body: { email } });
  const answer = await client.GET('/apollo-beta/api/Tenants', { headers: signedIn });
  // @ts-expect-error a tenant has no member the document does not name.
  answer.data?.[0]?.secret;
}
`;

interface Outcome {
  twoFactor: string;
  recoveryCodes: number;
  legacyUser: string;
  role: string;
  tokenType: string;
  tenantIds: string[];
  stagingTenantIds: string[];
  refreshed: { expiresIn: number; newToken: boolean };
  keyless: { status: number; type: string | null; title?: string; problemStatus?: number; traceId: string };
  tokenless: { status: number; challenge: string | null; length: string | null; error: string };
  badRefresh: { status: number; challenge: string | null; length: string | null; error: string };
  sessionless: { status: number; message: string };
}

describe('a client generated from the OpenAPI document (openapi-typescript, openapi-fetch)', () => {
  let portal: Awaited<ReturnType<typeof startDemoPortal>> | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'portal-generated-client-'));
  const timings: string[] = [];
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await work();
    timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };

  beforeAll(async () => {
    portal = await timed('portal started', () => startDemoPortal('portal-sdk-generated-'));
  }, 120_000);
  afterAll(async () => {
    await portal?.stop();
    rmSync(dir, { recursive: true, force: true });
    console.log(`generated client: ${timings.join(', ')}`);
  });

  it('compiles strictly with one base URL and calls the live portal as the types say', async () => {
    if (!portal) throw new Error('no portal');
    const cli = join(generatorDir, 'bin', 'cli.js');
    await timed('types generated', () =>
      run(process.execPath, [
        '--import',
        typescript6Loader(),
        cli,
        join(sdkRoot, 'openapi.json'),
        '-o',
        join(dir, 'schema.ts'),
      ]),
    );
    // The program's own project: ESM, openapi-fetch as its one dependency, the portal in its config.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(realpathSync(fetchDir), join(dir, 'node_modules', 'openapi-fetch'), 'dir');
    const config = { origin: portal.url, apiKey: portal.apiKey, email: ADMIN, password: portal.password };
    writeFileSync(
      join(dir, 'config.ts'),
      Object.entries(config)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};\n`)
        .join(''),
    );
    writeFileSync(join(dir, 'client.ts'), PROGRAM);

    const tsc = join(typescriptDir, 'bin', 'tsc');
    const options = ['--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const checked = await timed('type-checked', () =>
      run(process.execPath, [tsc, '--noEmit', ...options, '--lib', 'es2022,dom', 'client.ts'], { cwd: dir }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      ),
    );
    expect(checked).toBe('');

    // Types erased as any build would (esbuild), then run as an integrator runs it.
    for (const name of ['client', 'config']) {
      const source = readFileSync(join(dir, `${name}.ts`), 'utf8');
      const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'es2022' });
      writeFileSync(join(dir, `${name}.js`), code);
    }
    const { stdout } = await timed('ran', () => run(process.execPath, ['client.js'], { cwd: dir }));
    const outcome = JSON.parse(stdout) as Outcome;

    expect(outcome.twoFactor).toBe('setup');
    expect(outcome.recoveryCodes).toBe(10);
    expect(outcome.legacyUser).toBe(ADMIN);
    expect(outcome.role).toBe('admin');
    expect(outcome.tokenType).toBe('Bearer');
    expect(outcome.tenantIds.length).toBeGreaterThan(0);
    for (const id of outcome.tenantIds) expect(id).toMatch(/^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i);
    expect(outcome.stagingTenantIds).toEqual(outcome.tenantIds);
    expect(outcome.refreshed).toEqual({ expiresIn: 3600, newToken: true });
    expect(outcome.keyless).toEqual({
      status: 401,
      type: expect.stringMatching(/^application\/problem\+json/),
      title: 'Unauthorized',
      problemStatus: 401,
      traceId: 'string',
    });
    // ASP.NET's bearer challenge: openapi-fetch gives no error body, the status and header say it all.
    const challenge = { status: 401, challenge: 'Bearer', length: '0', error: 'none' };
    expect(outcome.tokenless).toEqual(challenge);
    expect(outcome.badRefresh).toEqual(challenge);
    expect(outcome.sessionless).toEqual({ status: 401, message: 'string' });
  }, 120_000);
});
