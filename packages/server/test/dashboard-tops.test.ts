import {
  ALL_APPLICATION_PERMISSIONS,
  type RunningSimulator,
  type SimTenant,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import type { DataManagementDashboard, Mailbox } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGraphApi } from '../src/m365/graph-client.js';
import { analyseStorage } from '../src/modules/data-management/storage.js';
import { findTenant } from '../src/modules/tenants/repository.js';
import { ADMIN, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

/**
 * Product-spec.md section 9: the top 10 mailboxes (email archive dashboard), the top 10 sites without
 * data management and the top 20 teams and sites for version clean-up (data management dashboard),
 * however many there are.
 */
describe('the dashboards’ top lists', () => {
  const server = useTestServer();
  const tenantId = TENANTS.contoso;
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });

  it('answer the 10 largest of 13 archived mailboxes, largest first', async () => {
    const now = server.ctx.now();
    // Mailbox i holds i + 1 mails of 1000 bytes: the largest are m12 down to m3.
    for (let i = 0; i < 13; i++)
      for (let n = 0; n <= i; n++)
        await server.ctx.db.query(
          `insert into archive_items (tenant_id, kind, source, container, external_id, size, blob_hash, archived_at, search)
           values ($1, 'mail', $2, 'Inbox', $3, 1000, 'hash', $4, to_tsvector('simple', ''))`,
          [tenantId, `m${i}@contoso.example`, `m${i}-${n}`, now],
        );
    const ip = await workerIp(server, 'Contoso');
    const response = await server.request({ method: 'GET', url: `/api/mailboxes/top?workerIp=${ip}`, token });
    expect(response.statusCode, response.body).toBe(200);
    const top = response.json() as Mailbox[];
    expect(top.map((m) => m.mailboxId)).toEqual(Array.from({ length: 10 }, (_, k) => `m${12 - k}@contoso.example`));
    expect(top[0]?.sizeBytes).toBe(13_000);
  });

  it('answer the 10 largest of 25 sites without data management and the 20 of them with most to clean up', async () => {
    const now = server.ctx.now();
    await server.ctx.db.query('delete from storage_usage where tenant_id = $1', [tenantId]);
    // Site i takes (i + 1) MB; its old versions take (25 - i) kB: the orders are opposite.
    for (let i = 0; i < 25; i++)
      await server.ctx.db.query(
        `insert into storage_usage (tenant_id, source_id, kind, display_name, files, used_bytes, old_versions,
                                    old_version_bytes, analysed_at)
         values ($1, $2, 'site', $3, 1, $4, 1, $5, $6)`,
        [tenantId, `site-${i}`, `Site ${i}`, (i + 1) * 1_000_000, (25 - i) * 1000, now],
      );
    // Analysed just now: the dashboard answers from what is stored, without reading Microsoft 365.
    const response = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/dashboard/sharepoint-data-management`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const dashboard = response.json() as DataManagementDashboard;
    expect(dashboard.topSitesWithoutDataManagement.map((s) => s.siteId)).toEqual(
      Array.from({ length: 10 }, (_, k) => `site-${24 - k}`),
    );
    expect(dashboard.topCleanupCandidates.map((c) => c.sourceId)).toEqual(
      Array.from({ length: 20 }, (_, k) => `site-${k}`),
    );
    expect(dashboard.topCleanupCandidates[0]).toEqual({
      sourceId: 'site-0',
      kind: 'site',
      displayName: 'Site 0',
      eligibleVersions: 1,
      reclaimableBytes: 25_000,
      // No clean-up job includes it (issue 38: each candidate says whether one does).
      covered: false,
    });
  });
});

/** The clean-up candidates name a team's site (its group's root site) after the team, as a team. */
describe('the clean-up candidates’ teams', () => {
  const server = useTestServer();
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let token = '';
  const simTenant = (): SimTenant => sim.state.tenant(tenantId);
  const dashboard = async () => {
    const response = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/dashboard/sharepoint-data-management`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as DataManagementDashboard;
  };
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        {
          tenantId,
          size: { users: 1, sites: 1, teams: 2, teamSites: true, filesPerDrive: 4, versionsPerFile: 3 },
        },
      ],
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    token = await sessionToken(server, ADMIN);
  });
  // Each test starts with every permission granted and no analysis stored: the dashboard analyses anew
  // (a test stores one made without the teams).
  beforeEach(async () => {
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    await server.ctx.db.query('delete from storage_usage where tenant_id = $1', [tenantId]);
  });
  afterAll(() => sim.close());

  it('labels each team’s site as the team, under its name, and other sites as sites', async () => {
    const candidates = (await dashboard()).topCleanupCandidates;
    const expected = simTenant().sites.map((site) => {
      const team = simTenant().teams.find((t) => t.id === site.teamId);
      return { sourceId: site.id, kind: team ? 'team' : 'site', displayName: team?.name ?? site.name };
    });
    expect(expected.map((e) => [e.kind, e.displayName])).toEqual([
      ['site', 'Marketing'],
      ['team', 'Project Falcon'],
      ['team', 'Sales Team'],
    ]);
    const shown = candidates.map(({ sourceId, kind, displayName }) => ({ sourceId, kind, displayName }));
    expect(shown).toHaveLength(3);
    expect(shown).toEqual(expect.arrayContaining(expected));
    expect(candidates.every((c) => c.eligibleVersions > 0 && c.reclaimableBytes > 0)).toBe(true);
  });

  it('labels every site as a site when the teams cannot be read (no GroupMember.Read.All)', async () => {
    sim.state.setConsent(
      tenantId,
      ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'Group.Read.All'),
    );
    try {
      const tenant = await findTenant(server.ctx.db, tenantId);
      if (!tenant) throw new Error('no tenant');
      // A client of its own: a token with the consent as it is now.
      const graph = createGraphApi(
        {
          directoryId: tenantId,
          clientId: 'portal-app',
          clientSecret: 'secret',
          authorityHost: sim.authorityHost,
          graphBaseUrl: sim.graphBaseUrl,
        },
        { maxRetries: 0 },
      );
      await analyseStorage(server.ctx, graph, tenant);
      const candidates = (await dashboard()).topCleanupCandidates;
      expect(candidates.map((c) => [c.kind, c.displayName]).sort()).toEqual([
        ['site', 'Marketing'],
        ['site', 'Project Falcon'],
        ['site', 'Sales Team'],
      ]);
    } finally {
      sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    }
  });
});
