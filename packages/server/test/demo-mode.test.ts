/**
 * PORTAL_DEMO decides both the demo world and the built-in Microsoft 365: on by default only on the
 * embedded database. The mounted simulator serves only the demo tenants and issues tokens only to
 * their app registrations with their stored secrets, as the identity platform does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createTestServer, TENANTS } from './helpers.js';
import { exited, freePort, startProcess } from './process.js';

describe('the demo switch', () => {
  it('is on by default on the embedded database and off when DATABASE_URL is set, unless PORTAL_DEMO says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-demo-config-'));
    expect(loadConfig({ PORTAL_DATA_DIR: dir }).demo).toBe(true);
    expect(loadConfig({ PORTAL_DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@db/portal' }).demo).toBe(false);
    expect(loadConfig({ PORTAL_DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@db/p', PORTAL_DEMO: 'on' }).demo).toBe(
      true,
    );
    expect(loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO: 'off' }).demo).toBe(false);
    expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO: 'maybe' })).toThrow(/PORTAL_DEMO/);
  });

  it('without demo mode, an empty database gets no accounts, no password is printed and no simulator is served', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-no-demo-'));
    const port = await freePort();
    const started = await startProcess(dataDir, port, { PORTAL_DEMO: 'off' });
    try {
      expect(started.output()).not.toMatch(/password/i);
      const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@contoso.example', password: 'anything-1A!' }),
      });
      expect(signin.status).toBe(401);
      const token = await fetch(`http://127.0.0.1:${port}/m365-simulator/login/${TENANTS.contoso}/oauth2/v2.0/token`, {
        method: 'POST',
        body: 'grant_type=client_credentials&client_id=x&client_secret=y',
      });
      expect(token.status).toBe(404);
    } finally {
      const done = exited(started.child);
      started.child.kill('SIGTERM');
      await done;
    }
  }, 90_000);
});

describe('the mounted simulator in demo mode', () => {
  it('issues tokens only to the demo tenant app with its stored secret, refusing others as Entra ID does', async () => {
    const server = await createTestServer({ demo: true });
    try {
      const [tenant] = await server.ctx.db.query<{ application_id: string; client_secret_enc: string }>(
        'select application_id, client_secret_enc from tenants where tenant_id = $1',
        [TENANTS.contoso],
      );
      const secret = server.ctx.secrets.open(tenant?.client_secret_enc ?? '');
      const ask = (tenantId: string, clientId: string, clientSecret: string) =>
        server.app.inject({
          method: 'POST',
          url: `/m365-simulator/login/${tenantId}/oauth2/v2.0/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
            scope: 'https://graph.microsoft.com/.default',
          }).toString(),
        });

      const right = await ask(TENANTS.contoso, tenant?.application_id ?? '', secret);
      expect(right.statusCode).toBe(200);
      expect(right.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });

      const wrongSecret = await ask(TENANTS.contoso, tenant?.application_id ?? '', 'any-other-secret');
      expect(wrongSecret.statusCode).toBe(401);
      expect(wrongSecret.json()).toMatchObject({
        error: 'invalid_client',
        error_description: expect.stringMatching(/^AADSTS7000215: Invalid client secret provided\./),
        error_codes: [7000215],
        trace_id: expect.any(String),
        correlation_id: expect.any(String),
      });

      const otherApp = await ask(TENANTS.contoso, '00000000-0000-0000-0000-000000000001', secret);
      expect(otherApp.statusCode).toBe(400);
      expect(otherApp.json()).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });

      const unknownTenant = await ask('11111111-2222-3333-4444-555555555555', tenant?.application_id ?? '', secret);
      expect(unknownTenant.statusCode).toBe(400);
      expect(unknownTenant.json()).toMatchObject({ error: 'invalid_tenant', error_codes: [90002] });

      // A token issued to the demo tenant reads only that tenant.
      const graphToken = (right.json() as { access_token: string }).access_token;
      const users = await server.app.inject({
        method: 'GET',
        url: '/m365-simulator/v1.0/users',
        headers: { authorization: `Bearer ${graphToken}` },
      });
      expect(users.statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });
});
