import { type RunningSimulator, startSimulator, type TenantSize } from '@compliance-portal/m365-simulator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp } from '../src/app.js';
import { appendAudit } from '../src/audit/audit-log.js';
import { type Config, MICROSOFT_CLOUD } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { base32Decode } from '../src/crypto/base32.js';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { totp } from '../src/crypto/totp.js';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openScratchDatabase } from '../src/db/scratch.js';
import { seedDemo } from '../src/demo/seed.js';
import { HttpError } from '../src/errors.js';
import type { JobEngine } from '../src/jobs/engine.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { createMailer, type MailMessage } from '../src/mail/mailer.js';
import type { User } from '../src/modules/identity/users.js';
import { findUserByEmail } from '../src/modules/identity/users-repository.js';
import { findTenant, type TenantRecord } from '../src/modules/tenants/repository.js';
import { databaseTemplate, type TemplateKind } from './database-templates.js';

export const DEMO_PASSWORD = 'Demo-Passw0rd!';
export const API_KEY = 'test-api-key-0123456789';
/** The tests' PORTAL_SECRET_KEY (tenant and location secrets are sealed with it). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);
export const ADMIN = 'admin@contoso.example';

/** A plain-text mail from Adele to Alex, as MIME (`extra`: header lines to add). */
export const mime = (subject: string, body: string, extra = '') =>
  new TextEncoder().encode(
    [
      'From: Adele Vance <adele@contoso.example>',
      'To: Alex Wilber <alex@contoso.example>',
      `Subject: ${subject}`,
      'Date: Mon, 02 Nov 2026 09:15:00 +0100',
      'MIME-Version: 1.0',
      extra,
      '',
      body,
    ]
      .filter((line, i) => line !== '' || i > 4)
      .join('\r\n'),
  );
export const PARTNER = 'partner@fabrikam.example';
export const TENANTS = {
  contoso: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01',
  northwind: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a02',
  tailspin: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a03',
  woodgrove: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a04',
} as const;

function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir: '/nonexistent-test-data-dir',
    databaseUrl: undefined,
    apiKey: API_KEY,
    secretKey: TEST_SECRET_KEY,
    demoPassword: DEMO_PASSWORD,
    demoClientSecret: undefined,
    smtpUrl: undefined,
    mailFrom: 'test@portal.test',
    supportEmail: 'support@portal.test',
    supportPhone: '+49 30 555 0100',
    publicUrl: 'http://portal.test',
    corsOrigins: [],
    webDir: '/nonexistent-web-dir',
    sourceMaps: false,
    logLevel: 'silent',
    authRateLimit: 10_000,
    workerConcurrency: 2,
    notifications: false,
    demo: false,
    demoHistory: false,
    demoClients: 3,
    m365SimulatorSize: {},
    m365SimulatorPort: 0,
    selfRegistration: 'open',
    issuer: 'Compliance Portal',
    m365Cloud: MICROSOFT_CLOUD,
    ...overrides,
  };
}

/**
 * A database for one test file: in-memory PGlite, or a fresh database on the PostgreSQL server of
 * TEST_DATABASE_URL (dropped afterwards), so the same suite runs on both. Empty, or a copy of the
 * migrated template (database-templates.ts).
 */
export function openTestDatabase(kind: TemplateKind = 'empty'): Promise<{ db: Database; drop: () => Promise<void> }> {
  return openScratchDatabase(process.env.TEST_DATABASE_URL, 'portal_test', databaseTemplate(kind));
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  mails: MailMessage[];
  clock: { now: number; advance(ms: number): void; set(iso: string): void };
  request(options: {
    method: string;
    url: string;
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    apiKey?: string | null;
  }): Promise<LightMyRequestResponse>;
}

/**
 * A context on `db` as the tests have it: the test configuration, a fake clock at 2026-11-02 08:00
 * UTC, a mail catcher (or, with `smtpUrl`, the server's own mailer sending there, every mail also
 * kept in `mails`), the secret key of TEST_SECRET_KEY, and audit written to `db`.
 */
export function testContext(db: Database, overrides: Partial<Config> = {}) {
  const clock = {
    now: Date.parse('2026-11-02T08:00:00.000Z'),
    advance(ms: number) {
      clock.now += ms;
    },
    set(iso: string) {
      clock.now = Date.parse(iso);
    },
  };
  const now = () => new Date(clock.now);
  const mails: MailMessage[] = [];
  const config = testConfig(overrides);
  const log = pino({ level: 'silent' });
  const smtp = config.smtpUrl
    ? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log })
    : undefined;
  const ctx: AppContext = {
    config,
    db,
    log,
    now,
    secrets: createSecretBox(TEST_SECRET_KEY),
    mailer: {
      async send(message) {
        await smtp?.send(message);
        mails.push(message);
      },
    },
    audit: async (event, tx) => {
      if (tx) await appendAudit(tx, event, now());
      else await db.transaction((t) => appendAudit(t, event, now()));
    },
  };
  return { ctx, clock, mails };
}

/** Builds the app on a migrated, seeded database with a fake clock and a mail catcher. */
export async function createTestServer(
  overrides: Partial<Config> = {},
): Promise<TestServer & { close(): Promise<void> }> {
  // A copy of the migrated template; migrate() finds nothing left to do (or everything, without one).
  const { db, drop } = await openTestDatabase('migrated');
  await migrate(db);
  const { ctx, clock, mails } = testContext(db, overrides);
  await seedDemo(ctx);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    mails,
    clock,
    request({ method, url, token, body, headers, apiKey }) {
      const apollo = url.startsWith('/apollo');
      return app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(apollo && apiKey !== null ? { 'x-api-key': apiKey ?? API_KEY } : {}),
          ...(token ? { authorization: apollo ? `Bearer ${token}` : token } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

/** One server per test file. */
export function useTestServer(overrides: Partial<Config> = {}) {
  const holder = {} as TestServer & { close(): Promise<void> };
  beforeAll(async () => {
    Object.assign(holder, await createTestServer(overrides));
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return holder;
}

/**
 * Before each test, puts these accounts back as they were when the server was made: the same
 * password, no authenticator and no recovery codes, no failed attempts and no lockout. For tests that
 * each need such an account (a first sign-in, a lockout, a password reset) whatever ran before them.
 */
export function resetAccountsBeforeEach(server: TestServer, emails: readonly string[]) {
  const passwords = new Map<string, string>();
  beforeAll(async () => {
    const rows = await server.ctx.db.query<{ email: string; password_hash: string }>(
      'select email, password_hash from users where email = any($1)',
      [[...emails]],
    );
    for (const row of rows) passwords.set(row.email, row.password_hash);
  });
  beforeEach(async () => {
    for (const [email, passwordHash] of passwords) {
      await server.ctx.db.query(
        `update users set password_hash = $2, totp_secret = null, totp_enabled = false, totp_last_step = 0,
                failed_attempts = 0, lockout_until = null where email = $1`,
        [email, passwordHash],
      );
      await server.ctx.db.query('delete from recovery_codes where user_id in (select id from users where email = $1)', [
        email,
      ]);
    }
  });
}

/** The code an authenticator app shows for a key at the server's clock, optionally some steps later. */
export function codeFor(server: TestServer, key: string, stepOffset = 0): string {
  return totp(base32Decode(key), server.clock.now + stepOffset * 30_000);
}

export interface SignedIn {
  token: string;
  key: string;
  recoveryCodes: string[];
}

/** First sign-in of a user without 2FA: password, QR setup, confirmation code. */
export async function signInWithSetup(server: TestServer, email: string, password = DEMO_PASSWORD): Promise<SignedIn> {
  const signin = await server.request({ method: 'POST', url: '/api/auth/signin', body: { email, password } });
  if (signin.statusCode !== 200) throw new Error(`signin ${signin.statusCode} ${signin.body}`);
  const { token: signinToken, twoFactor } = signin.json() as { token: string; twoFactor: string };
  if (twoFactor !== 'setup') throw new Error(`expected setup, got ${twoFactor}`);
  const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: signinToken });
  const { key } = qr.json() as { key: string };
  const verify = await server.request({
    method: 'POST',
    url: '/api/auth/qrcode-verification',
    token: signinToken,
    body: { code: codeFor(server, key) },
  });
  if (verify.statusCode !== 200) throw new Error(`qrcode-verification ${verify.statusCode} ${verify.body}`);
  const body = verify.json() as { token: string; recoveryCodes: string[] };
  // The code's time step is used now; later sign-ins need a later one.
  server.clock.advance(30_000);
  return { token: body.token, key, recoveryCodes: body.recoveryCodes };
}

/** Sign-in of a user with 2FA: password, then a fresh code. */
export async function signIn(
  server: TestServer,
  email: string,
  key: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const signin = await server.request({ method: 'POST', url: '/api/auth/signin', body: { email, password } });
  const { token } = signin.json() as { token: string };
  const verify = await server.request({
    method: 'POST',
    url: '/api/auth/code-verification',
    token,
    body: { code: codeFor(server, key) },
  });
  if (verify.statusCode !== 200) throw new Error(`code-verification ${verify.statusCode} ${verify.body}`);
  server.clock.advance(30_000);
  return (verify.json() as { token: string }).token;
}

/** A seeded user, for tests that call services directly. */
export async function seededUser(server: TestServer, email: string): Promise<User> {
  const user = await findUserByEmail(server.ctx.db, email);
  if (!user) throw new Error(`seed data missing: the user ${email}`);
  return user;
}

/** A seeded tenant, for tests that call services directly. */
export async function seededTenant(server: TestServer, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(server.ctx.db, tenantId);
  if (!tenant) throw new Error(`seed data missing: the tenant ${tenantId}`);
  return tenant;
}

/**
 * The status and text of the HttpError `work` fails with; with `withErrors`, its field errors too
 * (when it has them).
 */
export async function refusal(
  work: Promise<unknown>,
  { withErrors = false } = {},
): Promise<{ status: number; message: string; errors?: unknown }> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return {
    status: error.status,
    message: error.message,
    ...(withErrors && error.extras.errors ? { errors: error.extras.errors } : {}),
  };
}

export async function organisationId(server: TestServer, name: string): Promise<string> {
  const [row] = await server.ctx.db.query<{ id: string }>('select id from organisations where name = $1', [name]);
  if (!row) throw new Error(`no organisation ${name}`);
  return row.id;
}

export async function workerIp(server: TestServer, organisationName: string): Promise<string> {
  const [row] = await server.ctx.db.query<{ worker_ip: string }>(
    'select w.worker_ip from workers w join organisations o on o.id = w.organisation_id where o.name = $1',
    [organisationName],
  );
  if (!row) throw new Error(`no worker for ${organisationName}`);
  return row.worker_ip;
}

/** A session for a user whether or not 2FA is set up yet (the key is read back from the database). */
export async function sessionToken(server: TestServer, email: string, password = DEMO_PASSWORD): Promise<string> {
  const [row] = await server.ctx.db.query<{ totp_enabled: boolean; totp_secret: string | null }>(
    'select totp_enabled, totp_secret from users where email = $1',
    [email],
  );
  if (!row?.totp_enabled || !row.totp_secret) return (await signInWithSetup(server, email, password)).token;
  return signIn(server, email, server.ctx.secrets.open(row.totp_secret), password);
}

/**
 * Records accounts, sites or teams as discovered in a tenant's Microsoft 365 just now, as a discovery
 * read would, so that jobs may name them without a Graph to read them from.
 */
export async function discovered(
  server: TestServer,
  tenantId: string,
  application: 'onedrive' | 'sharepoint' | 'teams' | 'exchange',
  sourceIds: readonly string[],
): Promise<void> {
  for (const sourceId of sourceIds) {
    await server.ctx.db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, $2, $3, $4, $3, $5, $6) on conflict (tenant_id, application, source_id) do update set seen_at = $6`,
      [
        tenantId,
        application,
        sourceId,
        { onedrive: 'user', sharepoint: 'site', teams: 'team', exchange: 'mailbox' }[application],
        sourceId.includes('@') ? sourceId : null,
        server.ctx.now(),
      ],
    );
  }
}

/**
 * A simulated Microsoft 365 tenant for `tenantId` (the Graph-compatible simulator, started here), with
 * the tenant's Graph and sign-in addresses pointed at it; close it after the test.
 */
export async function simulatedTenant(
  server: TestServer,
  tenantId: string,
  size: Partial<TenantSize>,
  pageSize?: number,
): Promise<RunningSimulator> {
  const sim = await startSimulator({ tenants: [{ tenantId, size }], ...(pageSize ? { pageSize } : {}) });
  await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
    tenantId,
    sim.graphBaseUrl,
    sim.authorityHost,
  ]);
  return sim;
}

/**
 * The body of a job restoring one backed-up OneDrive file of `sourceJobId` (the snapshot a day ahead:
 * every run so far), to `target`: as a download, in place, or into another account.
 */
export function fileRestore(
  name: string,
  sourceJobId: string,
  file: { source_id: string; item_id: string } | undefined,
  target: { target: 'download' | 'original' } | { target: 'other'; targetId: string },
) {
  return {
    name,
    type: 'restore' as const,
    application: 'onedrive' as const,
    sources: [file?.source_id ?? ''],
    restore: {
      sourceJobId,
      snapshot: new Date(Date.now() + 86_400_000).toISOString(),
      sourceId: file?.source_id ?? '',
      nodeIds: [file?.item_id ?? ''],
      conflictPolicy: 'keepBoth' as const,
      ...target,
    },
  };
}

/** Jobs through the apollo API as `token`: created, then started and run by `engine` to the end. */
export function jobsApi(server: TestServer, tenantId: string, token: () => string) {
  return {
    async create(body: object): Promise<{ jobId: string }> {
      const response = await server.request({
        method: 'POST',
        url: `/apollo-beta/api/${tenantId}/jobs`,
        token: token(),
        body,
      });
      if (response.statusCode !== 200) throw new Error(`create ${response.statusCode} ${response.body}`);
      return response.json() as { jobId: string };
    },
    /** Starts the job, runs the engine until idle: the outcomes and the job's newest run. */
    async start(jobId: string, engine: JobEngine) {
      await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token: token() });
      const outcomes = await engine.runUntilIdle();
      const [run] = await server.ctx.db.query<Record<string, unknown>>(
        'select * from job_runs where job_id = $1 order by seq desc limit 1',
        [jobId],
      );
      return { outcomes, run: run ?? {} };
    },
  };
}

/** A Graph client of the simulated tenant, to read what a job left there (a restore) as any app may. */
export function simulatorGraph(sim: RunningSimulator, tenantId: string) {
  return createGraphApi({
    directoryId: tenantId,
    clientId: 'reader',
    clientSecret: 'x',
    authorityHost: sim.authorityHost,
    graphBaseUrl: sim.graphBaseUrl,
  });
}
