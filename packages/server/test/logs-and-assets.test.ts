/**
 * What the server gives away without being asked: request logs keep no one-time codes or reset
 * tokens, and the PWA's source maps are not served unless configured.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createLogger, redactUrl } from '../src/log.js';
import { API_KEY, createTestServer } from './helpers.js';

describe('request logs', () => {
  it('redact codes, tokens and reset links in logged URLs', () => {
    expect(redactUrl('/apollo-beta/confirmEmail?userId=u1&code=c2VjcmV0&changedEmail=a%40b.example')).toBe(
      '/apollo-beta/confirmEmail?userId=u1&code=[redacted]&changedEmail=a%40b.example',
    );
    expect(redactUrl('/api/auth/reset-password/0123456789abcdef')).toBe('/api/auth/reset-password/[redacted]');
    expect(redactUrl('/api/auth/invitations/0123456789abcdef')).toBe('/api/auth/invitations/[redacted]');
    // The PWA's pages the links open carry the same tokens.
    expect(redactUrl('/invitation/0123456789abcdef')).toBe('/invitation/[redacted]');
    expect(redactUrl('/reset-password/0123456789abcdef?x=1')).toBe('/reset-password/[redacted]?x=1');
    expect(redactUrl('/api/admin/users/u1/invitation')).toBe('/api/admin/users/u1/invitation');
    expect(redactUrl('/x?Token=a&REFRESHTOKEN=b&page=2')).toBe('/x?Token=[redacted]&REFRESHTOKEN=[redacted]&page=2');
    expect(redactUrl('/apollo-beta/api/Tenants')).toBe('/apollo-beta/api/Tenants');
  });

  it('of the running app hold no confirmation code or reset token', async () => {
    const server = await createTestServer();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ ...server.ctx, log: createLogger('info', sink) });
    try {
      await app.inject({
        method: 'GET',
        url: '/apollo-beta/confirmEmail?userId=someone&code=VERY-SECRET-CODE',
        headers: { 'x-api-key': API_KEY },
      });
      // The mailed link opens the portal's page: its request is logged too.
      await app.inject({ method: 'GET', url: '/confirm-email?userId=someone&code=VERY-SECRET-PAGE-CODE' });
      await app.inject({
        method: 'POST',
        url: '/api/auth/reset-password/VERY-SECRET-TOKEN',
        headers: { 'content-type': 'application/json' },
        payload: { password: 'New-Passw0rd!', confirmPassword: 'New-Passw0rd!' },
      });
      const log = lines.join('');
      expect(log).toContain('confirmEmail?userId=someone&code=[redacted]');
      expect(log).toContain('/confirm-email?userId=someone&code=[redacted]');
      expect(log).toContain('/api/auth/reset-password/[redacted]');
      expect(log).not.toContain('VERY-SECRET');
    } finally {
      await app.close();
      await server.close();
    }
  });
});

describe('source maps of the PWA', () => {
  const webDir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');
  writeFileSync(join(webDir, 'assets', 'index-abc.js'), 'console.log(1);\n//# sourceMappingURL=index-abc.js.map');
  writeFileSync(join(webDir, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["src/secret.ts"]}');

  it('are not served by default (404, not the app page), while the scripts are', async () => {
    const server = await createTestServer({ webDir });
    try {
      const script = await server.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
      expect(script.statusCode).toBe(200);
      const map = await server.app.inject({ method: 'GET', url: '/assets/index-abc.js.map' });
      expect(map.statusCode).toBe(404);
      expect(map.body).not.toContain('src/secret.ts');
      const route = await server.app.inject({ method: 'GET', url: '/backup-and-restore/dashboard' });
      expect(route.body).toContain('<title>Portal</title>');
    } finally {
      await server.close();
    }
  });

  it('are served with PORTAL_SOURCE_MAPS=on', async () => {
    const server = await createTestServer({ webDir, sourceMaps: true });
    try {
      const map = await server.app.inject({ method: 'GET', url: '/assets/index-abc.js.map' });
      expect(map.statusCode).toBe(200);
      expect(map.body).toContain('src/secret.ts');
    } finally {
      await server.close();
    }
  });
});
