import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/database.js';
import { isUniqueViolation } from '../src/db/unique-violation.js';
import { errorHandler } from '../src/http/errors.js';
import { ADMIN, API_KEY, sessionToken, signInWithSetup, TENANTS, useTestServer } from './helpers.js';

/**
 * No page may frame the portal (X-Frame-Options DENY, as CSP's frame-ancestors 'none' says), and the
 * browser features it never uses are off; copying to the clipboard (recovery codes) stays its own.
 */
function expectFramingAndFeaturesOff(headers: Record<string, unknown>) {
  expect(headers['x-frame-options']).toBe('DENY');
  const policy = new Map(
    String(headers['permissions-policy'])
      .split(',')
      .map((directive) => directive.trim().split('=') as [string, string]),
  );
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi']) {
    expect(policy.get(feature), feature).toBe('()');
  }
  expect(policy.get('clipboard-write')).toBe('(self)');
}

describe('security headers, errors and unimplemented endpoints', () => {
  const server = useTestServer();

  it('sends the hardening headers on every answer', async () => {
    for (const url of ['/healthz', '/api/client', '/apollo-beta/api/Tenants', '/nowhere']) {
      const response = await server.request({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expectFramingAndFeaturesOff(response.headers);
    }
  });

  it('sends them on refusals too: a 401 before any route work, a validation error, an unknown path', async () => {
    for (const response of [
      await server.request({ method: 'GET', url: '/apollo-beta/api/Tenants', apiKey: 'wrong' }),
      await server.request({ method: 'POST', url: '/api/auth/signin', body: { email: 1 } }),
      await server.request({ method: 'GET', url: '/api/nowhere' }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expectFramingAndFeaturesOff(response.headers);
    }
  });

  it('names every answer with a request-id of its own, the traceId of its problem details', async () => {
    const ids = new Set<string>();
    for (const url of ['/healthz', '/api/client', '/apollo-beta/api/Tenants', '/nowhere', '/apollo-beta/nothing']) {
      const response = await server.request({ method: 'GET', url });
      const id = String(response.headers['request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
      if (url.startsWith('/apollo-beta') && response.body) {
        expect((response.json() as { traceId: string }).traceId).toBe(id);
      }
    }
    expect(ids.size).toBe(5);
    // A caller cannot choose the id the log records.
    const chosen = await server.app.inject({ method: 'GET', url: '/healthz', headers: { 'request-id': 'mine' } });
    expect(chosen.headers['request-id']).not.toBe('mine');
  });

  it('never lets API answers be cached', async () => {
    const response = await server.request({ method: 'GET', url: '/api/client' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('keeps CORS closed when no origin is configured', async () => {
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/signin',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers health checks', async () => {
    const response = await server.request({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 404 for unknown paths in the error shape of the API', async () => {
    const apollo = await server.request({ method: 'GET', url: '/apollo-beta/nothing' });
    expect(apollo.statusCode).toBe(404);
    const legacy = await server.request({ method: 'GET', url: '/api/nothing' });
    expect(legacy.json()).toEqual({ message: 'Resource not found' });
  });

  it('refuses a path that is not UTF-8, or a path parameter too long, in the API shape with a request id', async () => {
    const badUrl = await server.app.inject({ method: 'GET', url: '/apollo-beta/api/Tenants/%ED%A0%80' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.headers['content-type']).toContain('application/problem+json');
    expect(badUrl.json()).toMatchObject({ status: 400, traceId: badUrl.headers['request-id'] });
    const long = await server.app.inject({ method: 'GET', url: `/api/worker/check/${'x'.repeat(5000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ message: 'A path parameter is longer than the server accepts.' });
    expect(long.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('validates bodies against the contract with field errors', async () => {
    const { token } = await signInWithSetup(server, 'partner@fabrikam.example');
    const response = await server.request({
      method: 'POST',
      url: '/apollo-beta/api/Tenants',
      token,
      body: { tenantName: '', tenantId: 'nope' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const body = response.json() as { title: string; errors: Record<string, string[]> };
    expect(body.title).toBe('One or more validation errors occurred.');
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining(['body/tenantName', 'body/tenantId', 'body/clientSecret', 'body/applicationId']),
    );
    const tenants = await server.ctx.db.query('select 1 from tenants where tenant_name = $1', ['']);
    expect(tenants).toHaveLength(0);
  });

  it('refuses bodies over 1 MiB', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: 'a@b.c', password: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
  });

  it('gives the PWA its application key, whether sign-up is open and the support address, and nothing else', async () => {
    const response = await server.request({ method: 'GET', url: '/app-config.json' });
    expect(response.json()).toEqual({
      apiKey: API_KEY,
      environment: 'production',
      selfRegistration: 'open',
      supportEmail: 'support@portal.test',
    });
  });

  it('rolls a change back whole when part of it fails', async () => {
    const token = await sessionToken(server, ADMIN);
    const [org] = await server.ctx.db.query<{ id: string }>("select id from organisations where name = 'Contoso'");
    const original = server.ctx.audit;
    server.ctx.audit = async () => {
      throw new Error('audit store down');
    };
    try {
      const response = await server.request({
        method: 'POST',
        url: '/apollo-beta/api/Tenants',
        token,
        body: {
          tenantName: 'half-written.onmicrosoft.com',
          applicationId: '11111111-2222-4333-8444-555555555555',
          clientSecret: 'secret',
          tenantId: '99999999-2222-4333-8444-555555555555',
          objectId: '11111111-2222-4333-8444-555555555556',
          redirectUri: 'https://portal.example/auth/callback',
          organisationId: org?.id ?? '',
        },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ status: 500 });
      expect(response.body).not.toContain('audit store down');
    } finally {
      server.ctx.audit = original;
    }
    const rows = await server.ctx.db.query('select 1 from tenants where tenant_id = $1', [
      '99999999-2222-4333-8444-555555555555',
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('CORS when origins are listed', () => {
  const server = useTestServer({ corsOrigins: ['https://portal.example'] });

  it('allows the listed origin only', async () => {
    const allowed = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/signin',
      headers: { origin: 'https://portal.example', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://portal.example');
    const other = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/signin',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limits on auth routes', () => {
  const server = useTestServer({ authRateLimit: 3 });

  it('answers 429 past the limit per minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await server.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        body: { email: 'x@y.example' },
      });
      statuses.push(r.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await server.request({
      method: 'POST',
      url: '/apollo-beta/forgotPassword',
      body: { email: 'x@y.example' },
    });
    expect(limited.statusCode).toBe(200);
  });
});

describe('the built PWA', () => {
  const web = mkdtempSync(join(tmpdir(), 'portal-web-'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Portal</title>');
  writeFileSync(join(web, 'app.js'), 'console.log(1)');
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'assets', 'main-abc123.js'), 'console.log("plain")');
  writeFileSync(join(web, 'assets', 'main-abc123.js.br'), brotliCompressSync('console.log("plain")'));
  writeFileSync(join(web, 'assets', 'main-abc123.js.gz'), gzipSync('console.log("plain")'));
  const server = useTestServer({ webDir: web });

  it('is served at / with client routes falling back to index.html', async () => {
    const root = await server.request({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>Portal</title>');
    const asset = await server.request({ method: 'GET', url: '/app.js' });
    expect(asset.body).toBe('console.log(1)');
    const route = await server.request({ method: 'GET', url: '/backup-and-restore/dashboard' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toContain('text/html');
    const api = await server.request({ method: 'GET', url: '/api/unknown-endpoint' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Resource not found' });
  });

  it('sends the compressed copy the browser accepts, keeps hashed assets a year and the shell never', async () => {
    const br = await server.request({
      method: 'GET',
      url: '/assets/main-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("plain")');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await server.request({
      method: 'GET',
      url: '/assets/main-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log("plain")');
    const plain = await server.request({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("plain")');
    const shell = await server.request({ method: 'GET', url: '/reports' });
    expect(shell.headers['cache-control']).toBe('no-cache');
  });

  it('sends the framing and feature headers with the shell, its client routes and its assets', async () => {
    for (const url of ['/', '/reports', '/app.js', '/assets/main-abc123.js']) {
      const response = await server.request({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectFramingAndFeaturesOff(response.headers);
    }
  });
});

describe('bodies', () => {
  const server = useTestServer();

  it('accepts the JSON content type with an empty body, and refuses broken or poisoned JSON', async () => {
    const token = await sessionToken(server, ADMIN);
    const empty = await server.app.inject({
      method: 'POST',
      url: `/apollo-beta/api/Tenants/7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01/provision`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(202);
    const broken = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    const poisoned = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('unique violations', () => {
  const server = useTestServer();

  it('are told apart by SQLSTATE 23505 and the index each database names', async () => {
    const insert = (tx: Queryable, name: string) =>
      tx.query(
        `insert into locations (location_id, tenant_id, name, site_address, created_at)
         values (gen_random_uuid()::text, $1, $2, 'https://contoso.sharepoint.com/sites/u', now())`,
        [TENANTS.contoso, name],
      );
    const error = await server.ctx.db
      .transaction(async (tx) => {
        await insert(tx, 'Unique vault');
        await insert(tx, 'UNIQUE VAULT');
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'locations_name')).toBe(true);
    expect(isUniqueViolation(error, ['tenants_pkey', 'locations_name'])).toBe(true);
    expect(isUniqueViolation(error, 'tenants_pkey')).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key value violates unique constraint'))).toBe(false);
  });

  it('answers one that reached the error handler 409 Conflict in the API shape, not 500', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler);
    const violation = () => Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'some_index' });
    // The error's shape follows the endpoint a route serves (its config, as registerContract sets it).
    app.get('/apollo-beta/race', { config: { endpoint: 'apollo.tenants.create', api: 'apollo' } }, async () => {
      throw violation();
    });
    app.get('/api/race', { config: { endpoint: 'legacy.workers.partners', api: 'legacy' } }, async () => {
      throw violation();
    });
    app.get('/api/other', async () => {
      throw Object.assign(new Error('foreign key'), { code: '23503' });
    });
    const apollo = await app.inject({ method: 'GET', url: '/apollo-beta/race' });
    expect(apollo.statusCode).toBe(409);
    expect(apollo.json()).toMatchObject({ title: 'Conflict', status: 409 });
    const legacy = await app.inject({ method: 'GET', url: '/api/race' });
    expect(legacy.statusCode).toBe(409);
    expect(legacy.json()).toEqual({ message: 'Conflict' });
    expect((await app.inject({ method: 'GET', url: '/api/other' })).statusCode).toBe(500);
    await app.close();
  });
});
