/**
 * The demo shows eDiscovery results out of the box: its administrator holds proxy rights to the
 * first mailboxes of Contoso's simulated tenant, so once a mail archive job has run, search, preview
 * and a case export show that mail, and the mailboxes no right covers stay closed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiscoveredSource, Page } from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROXY_MAILBOXES } from '../src/demo/seed.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { ADMIN, createTestServer, sessionToken, TENANTS, type TestServer } from './helpers.js';
import { readZip } from './zip-reader.js';

describe('the demo administrator in eDiscovery', () => {
  const tenantId = TENANTS.contoso;
  let server: TestServer & { close(): Promise<void> };
  let admin = '';
  let mailboxes: DiscoveredSource[] = [];
  const call = (method: string, url: string, body?: object) =>
    server.request({ method, url, token: admin, ...(body ? { body } : {}) });

  beforeAll(async () => {
    server = await createTestServer({
      demo: true,
      dataDir: mkdtempSync(join(tmpdir(), 'portal-demo-ediscovery-')),
      m365SimulatorSize: { users: 4, messagesPerFolder: 2, sites: 0, teams: 0, chats: 0 },
    });
    admin = await sessionToken(server, ADMIN);
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 limit 1',
      [tenantId],
    );
    const listed = await call(
      'GET',
      `/apollo-beta/api/${tenantId}/discovery/${location?.location_id}/users?application=exchange&sort=displayName`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    mailboxes = (listed.json() as Page<DiscoveredSource>).items;
    const created = await call('POST', `/apollo-beta/api/${tenantId}/jobs`, {
      name: 'Mail archive',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((m) => m.sourceId),
      locationId: location?.location_id,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { jobId } = created.json() as { jobId: string };
    await call('POST', `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`);
    await new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    }).runUntilIdle();
  }, 120_000);
  afterAll(() => server?.close());

  it('holds proxy rights to some mailboxes of the simulated Contoso, granted at set-up', async () => {
    const rights = await server.ctx.db.query<{ mailbox_id: string; principal_email: string }>(
      'select mailbox_id, principal_email from proxy_rights where tenant_id = $1',
      [tenantId],
    );
    expect(rights).toHaveLength(DEMO_PROXY_MAILBOXES);
    const ids = new Set(mailboxes.map((m) => m.sourceId));
    for (const right of rights) {
      expect(right.principal_email).toBe(ADMIN);
      // The seed names the simulator's mailboxes by the ids discovery reads from it.
      expect(ids.has(right.mailbox_id)).toBe(true);
    }
    expect(mailboxes.length).toBeGreaterThan(DEMO_PROXY_MAILBOXES);
  });

  it('finds, previews and exports the mail of those mailboxes, and only theirs', async () => {
    const rights = new Set(
      (
        await server.ctx.db.query<{ mailbox_id: string }>('select mailbox_id from proxy_rights where tenant_id = $1', [
          tenantId,
        ])
      ).map((r) => r.mailbox_id),
    );
    const [archived] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'mail'",
      [tenantId],
    );
    const searched = await call('POST', `/apollo-beta/api/${tenantId}/ediscovery/search`, {
      query: '',
      kinds: ['mail'],
      pageSize: 500,
    });
    expect(searched.statusCode, searched.body).toBe(200);
    const hits = (searched.json() as { items: { itemId: string; source: string }[] }).items;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThan(archived?.n ?? 0);
    expect(new Set(hits.map((h) => h.source))).toEqual(rights);

    const preview = await call('GET', `/apollo-beta/api/${tenantId}/ediscovery/items/${hits[0]?.itemId}`);
    expect(preview.statusCode, preview.body).toBe(200);

    const cases = `/apollo-beta/api/${tenantId}/ediscovery/cases`;
    const saved = await call('POST', cases, { name: 'Demo case', search: { query: '', kinds: ['mail'] } });
    expect(saved.statusCode, saved.body).toBe(201);
    const exported = await call('GET', `${cases}/${(saved.json() as { caseId: string }).caseId}/export`);
    expect(exported.statusCode).toBe(200);
    const entries = [...readZip(exported.rawPayload).keys()];
    expect(entries).toContain('manifest.csv');
    expect(entries.filter((name) => name.endsWith('.eml'))).toHaveLength(hits.length);
  });
});
