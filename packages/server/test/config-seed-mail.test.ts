import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { passwordProblems } from '../src/crypto/passwords.js';
import { seedDemo, strongPassword } from '../src/demo/seed.js';
import { createMailer } from '../src/mail/mailer.js';
import { createTestServer } from './helpers.js';

describe('configuration', () => {
  it('uses the defaults and generates the API key and secret key once, readable only by the owner', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    const first = loadConfig({ PORTAL_DATA_DIR: dir });
    expect(first).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: dir,
      databaseUrl: undefined,
      corsOrigins: [],
    });
    expect(first.apiKey.length).toBeGreaterThanOrEqual(32);
    expect(first.secretKey).toHaveLength(32);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ PORTAL_DATA_DIR: dir });
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
  });

  it('reads the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    const config = loadConfig({
      PORTAL_DATA_DIR: dir,
      HOST: '0.0.0.0',
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@db/portal',
      PORTAL_API_KEY: 'k',
      PORTAL_SECRET_KEY: 'ab'.repeat(32),
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 9000, databaseUrl: 'postgres://u:p@db/portal', apiKey: 'k' });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.secretKey.toString('hex')).toBe('ab'.repeat(32));
    expect(existsSync(join(dir, 'api-key'))).toBe(false);
    expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_SECRET_KEY: 'short' })).toThrow(/32 bytes/);
    expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORT: 'http' })).toThrow(/PORT/);
    expect(config.blobStore).toBeUndefined();
  });

  it('outside demo mode, refuses a secret key that would sit in the data directory it protects, unless told to allow it', () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-config-key-'));
    const dir = join(root, 'data');
    const key = 'ab'.repeat(32);
    const production = { PORTAL_DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@db/portal' };
    // Neither variable: one message naming both, how to make a key, and the override; nothing is generated.
    for (const env of [production, { PORTAL_DATA_DIR: dir, PORTAL_DEMO: 'off' }]) {
      let message = '';
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      for (const part of [
        'PORTAL_SECRET_KEY ',
        'PORTAL_SECRET_KEY_FILE',
        'openssl rand -hex 32',
        'PORTAL_SECRET_KEY_IN_DATA_DIR=allow',
      ]) {
        expect(message).toContain(part);
      }
    }
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);

    // The value, or a file outside the data directory.
    expect(loadConfig({ ...production, PORTAL_SECRET_KEY: key }).secretKeyInDataDir).toBeUndefined();
    const outside = join(root, 'portal.key');
    writeFileSync(outside, `${key}\n`, { mode: 0o600 });
    const fromFile = loadConfig({ ...production, PORTAL_SECRET_KEY_FILE: outside });
    expect(fromFile.secretKey.toString('hex')).toBe(key);
    expect(fromFile.secretKeyInDataDir).toBeUndefined();
    expect(() => loadConfig({ ...production, PORTAL_SECRET_KEY: key, PORTAL_SECRET_KEY_FILE: outside })).toThrow(
      /not both/,
    );
    expect(() => loadConfig({ ...production, PORTAL_SECRET_KEY_FILE: join(root, 'none.key') })).toThrow(
      /cannot be read.*openssl rand -hex 32/,
    );
    // A key file inside the data directory is refused, also when a link leads there.
    mkdirSync(join(dir, 'keys'), { recursive: true });
    writeFileSync(join(dir, 'keys', 'portal.key'), key);
    symlinkSync(join(dir, 'keys'), join(root, 'keys-link'));
    for (const inside of [
      join(dir, 'keys', 'portal.key'),
      join(root, 'keys-link', 'portal.key'),
      join(dir, 'new.key'),
    ]) {
      expect(() => loadConfig({ ...production, PORTAL_SECRET_KEY_FILE: inside }), inside).toThrow(
        /inside the data directory.*PORTAL_SECRET_KEY_IN_DATA_DIR=allow/,
      );
    }

    // Told explicitly: as before, the key generated once into the data directory, and marked for the warning.
    const allowed = loadConfig({ ...production, PORTAL_SECRET_KEY_IN_DATA_DIR: 'allow' });
    expect(allowed.secretKeyInDataDir).toBe(true);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toBe(allowed.secretKey.toString('hex'));
    expect(
      loadConfig({
        ...production,
        PORTAL_SECRET_KEY_IN_DATA_DIR: 'allow',
        PORTAL_SECRET_KEY_FILE: join(dir, 'keys', 'portal.key'),
      }).secretKeyInDataDir,
    ).toBe(true);
    expect(() => loadConfig({ ...production, PORTAL_SECRET_KEY_IN_DATA_DIR: 'yes' })).toThrow(/"allow" or unset/);
    // Demo mode keeps its key in the data directory without being told.
    expect(loadConfig({ PORTAL_DATA_DIR: dir }).secretKey.equals(allowed.secretKey)).toBe(true);
  });

  it('reads the blob store: an Azure container URL with its key, or a clear error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    const url = 'https://portalstore.blob.core.windows.net/backups';
    expect(
      loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_BLOB_STORE: url, PORTAL_BLOB_STORE_KEY: 'a2V5' }).blobStore,
    ).toEqual({
      url,
      accountKey: 'a2V5',
    });
    for (const wrong of ['s3://bucket', 'portalstore', 'https://portalstore.blob.core.windows.net/']) {
      expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_BLOB_STORE: wrong })).toThrow(
        /PORTAL_BLOB_STORE must be a container URL/,
      );
    }
  });
});

describe('the demo world', () => {
  it('is created on an empty database only, with the organisations, tenants, workers and locations', async () => {
    const server = await createTestServer();
    try {
      const orgs = await server.ctx.db.query<{ name: string; kind: string; license: string; partner: string | null }>(
        `select o.name, o.kind, o.license, p.name as partner from organisations o left join organisations p on p.id = o.partner_id order by o.name`,
      );
      expect(orgs).toEqual([
        { name: 'Contoso', kind: 'customer', license: 'full', partner: null },
        { name: 'Fabrikam Partners', kind: 'partner', license: 'full', partner: null },
        { name: 'Northwind Traders', kind: 'customer', license: 'full', partner: 'Fabrikam Partners' },
        { name: 'Tailspin Toys', kind: 'customer', license: 'trial', partner: 'Fabrikam Partners' },
        { name: 'Woodgrove Bank', kind: 'customer', license: 'full', partner: 'Fabrikam Partners' },
      ]);
      const [counts] = await server.ctx.db.query<{
        tenants: number;
        workers: number;
        locations: number;
        users: number;
      }>(
        `select (select count(*)::int from tenants) as tenants, (select count(*)::int from workers) as workers,
                (select count(*)::int from locations) as locations, (select count(*)::int from users) as users`,
      );
      expect(counts).toEqual({ tenants: 4, workers: 5, locations: 8, users: 2 });
      const users = await server.ctx.db.query<{ email: string; totp_enabled: boolean }>(
        'select email, totp_enabled from users order by email',
      );
      expect(users).toEqual([
        { email: 'admin@contoso.example', totp_enabled: false },
        { email: 'partner@fabrikam.example', totp_enabled: false },
      ]);
      expect(await seedDemo(server.ctx)).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('generates strong demo passwords when none is configured', () => {
    const passwords = new Set(Array.from({ length: 20 }, strongPassword));
    expect(passwords.size).toBe(20);
    for (const p of passwords) expect(passwordProblems(p)).toEqual([]);
  });
});

describe('mail without SMTP', () => {
  it('writes each mail as an .eml file into the outbox and logs its link in demo mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-mail-'));
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Portal <no-reply@portal.test>',
      dataDir: dir,
      log,
      logLinks: true,
    });
    await mailer.send({
      to: 'a@b.example',
      subject: 'Reset your password',
      text: 'Link: http://x/reset-password/abc',
      link: 'http://x/reset-password/abc',
    });
    const files = readdirSync(join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(dir, 'outbox', files[0] ?? ''), 'utf8');
    expect(eml).toContain('To: a@b.example');
    expect(eml).toContain('Subject: Reset your password');
    expect(eml).toContain('http://x/reset-password/abc');
    expect(lines.join('')).toContain('"link":"http://x/reset-password/abc"');
  });
});
