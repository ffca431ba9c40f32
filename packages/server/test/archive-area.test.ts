import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type {
  ArchiveStatistics,
  DiscoveredSource,
  Mailbox,
  MailboxMeta,
  Page,
  WorkerMeta,
} from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';
import { readZip } from './zip-reader.js';

/** The email-archive paths after a real archive run of the simulated tenant's mailboxes. */
describe('email archive: mailboxes, folders, figures and the worker', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-archive-area-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let token = '';
  let worker = { workerId: '', workerIp: '', indexIp: '' };
  let mailboxes: DiscoveredSource[] = [];

  const get = async (url: string, status = 200) => {
    const response = await server.request({ method: 'GET', url, token });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response;
  };
  const json = async <T>(url: string) => (await get(url)).json() as T;
  /** Gives the administrator the right to read `mailboxId` (a mail's content needs it); revokes it after `work`. */
  const withRight = async (mailboxId: string, work: () => Promise<void>) => {
    const principals = await json<{ principalId: string; email: string }[]>(
      `/api/proxy-accounts?workerIp=${worker.workerIp}`,
    );
    const granted = await server.request({
      method: 'POST',
      url: '/api/proxy-rights',
      token,
      body: {
        workerIp: worker.workerIp,
        mailboxId,
        principalIds: [principals.find((p) => p.email === ADMIN)?.principalId],
      },
    });
    expect(granted.statusCode, granted.body).toBe(201);
    try {
      await work();
    } finally {
      const [right] = granted.json() as { rightId: string }[];
      await server.request({
        method: 'DELETE',
        url: `/api/proxy-rights?workerIp=${worker.workerIp}&rightId=${right?.rightId}`,
        token,
      });
    }
  };

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId, size: { users: 3, messagesPerFolder: 3, sites: 0, teams: 1 } }],
      pageSize: 5,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    // The server's own blob store (under its data directory): downloads read what the jobs stored.
    const engine = new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    });
    token = await sessionToken(server, ADMIN);
    const [w] = await server.ctx.db.query<{ id: string; worker_ip: string; index_ip: string }>(
      'select id, worker_ip, index_ip from workers where stagingtenant_id = $1',
      [tenantId],
    );
    worker = { workerId: w?.id ?? '', workerIp: w?.worker_ip ?? '', indexIp: w?.index_ip ?? '' };
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 limit 1',
      [tenantId],
    );
    mailboxes = (
      await json<Page<DiscoveredSource>>(
        `/apollo-beta/api/${tenantId}/discovery/${location?.location_id}/users?application=exchange&sort=displayName`,
      )
    ).items;
    const created = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${tenantId}/jobs`,
      token,
      body: {
        name: 'Mail archive',
        type: 'exchangeArchive',
        application: 'exchange',
        sources: mailboxes.map((m) => m.sourceId),
        locationId: location?.location_id,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${tenantId}/jobs/${(created.json() as { jobId: string }).jobId}/start`,
      token,
    });
    await engine.runUntilIdle();
  });
  afterAll(() => sim.close());
  // Each test starts from the mail archive alone: no proxy right, no Teams archive (tests grant rights
  // and archive the team).
  beforeEach(async () => {
    await server.ctx.db.query('delete from proxy_rights where tenant_id = $1', [tenantId]);
    await server.ctx.db.query("delete from jobs where tenant_id = $1 and type = 'teamsArchive'", [tenantId]);
    await server.ctx.db.query("delete from archive_items where tenant_id = $1 and kind = 'teams'", [tenantId]);
  });
  /** Archives the tenant's team, as the Teams archive job does. */
  const archiveTeam = async (teamId: string) => {
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 limit 1',
      [tenantId],
    );
    const created = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${tenantId}/jobs`,
      token,
      body: {
        name: 'Teams archive',
        type: 'teamsArchive',
        application: 'teams',
        sources: [teamId],
        locationId: location?.location_id,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const jobId = (created.json() as { jobId: string }).jobId;
    await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token });
    await new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    }).runUntilIdle();
  };

  it('lists archived mailboxes by name with their items and size, searched and sorted', async () => {
    const list = await json<Page<Mailbox>>(`/api/archive/mailboxes/${worker.workerIp}/${worker.indexIp}?sort=name`);
    expect(list.items.map((m) => m.name)).toEqual(mailboxes.map((m) => m.displayName));
    expect(list.items.every((m) => m.kind === 'primary' && m.items > 0 && m.sizeBytes > 0 && m.lastArchived)).toBe(
      true,
    );
    expect(list.items.map((m) => m.email)).toEqual(mailboxes.map((m) => m.email));
    const one = await json<Page<Mailbox>>(
      `/api/archive/mailboxes/${worker.workerIp}/${worker.indexIp}?search=${encodeURIComponent(mailboxes[1]?.displayName ?? '')}`,
    );
    expect(one.items.map((m) => m.mailboxId)).toEqual([mailboxes[1]?.sourceId]);
    const bySize = await json<Page<Mailbox>>(
      `/api/archive/mailboxes/${worker.workerIp}/${worker.indexIp}?sort=sizeBytes&order=desc`,
    );
    const top = await json<Mailbox[]>(`/api/mailboxes/top?workerIp=${worker.workerIp}&limit=2`);
    expect(top.map((m) => m.mailboxId)).toEqual(bySize.items.slice(0, 2).map((m) => m.mailboxId));
    await get(`/api/archive/mailboxes/${worker.workerIp}/10.0.0.1`, 404);
  });

  it('shows a mailbox’s archived folders, Inbox/TestOrder included', async () => {
    const meta = await json<MailboxMeta>(
      `/api/archive/mailbox-meta?workerIp=${worker.workerIp}&mailboxId=${encodeURIComponent(mailboxes[0]?.sourceId ?? '')}`,
    );
    expect(meta.folders.map((f) => f.path)).toEqual(['Archive', 'Inbox', 'Inbox/TestOrder', 'Sent Items']);
    expect(meta.folders.every((f) => f.items === 3 && f.sizeBytes > 0)).toBe(true);
    expect(meta.oldest && meta.newest && meta.oldest <= meta.newest).toBe(true);
    const missing = await get(`/api/archive/mailbox-meta?workerIp=${worker.workerIp}&mailboxId=nobody`, 404);
    expect(missing.json()).toEqual({ message: 'Exchange Backup Job not found.' });
  });

  it('downloads the mailbox list as CSV', async () => {
    const csv = await get(`/api/archive/downloadCSV/${worker.workerIp}/${worker.indexIp}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Kind,Items protected,Stored size (bytes),Last archived');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(mailboxes.map((m) => m.displayName).sort());
  });

  it('previews what an archive deletion would remove', async () => {
    const preview = async (body: object) => {
      const response = await server.request({
        method: 'POST',
        url: `/apollo-beta/api/${tenantId}/jobs/deletion-preview`,
        token,
        body,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { items: number; bytes: number; sources: number; before: string };
    };
    // The simulated mail was sent on 2026-09-01 and after; the test clock is later.
    const all = await preview({ application: 'exchange', sources: [], retention: { unit: 'days', value: 1 } });
    const [totals] = await server.ctx.db.query<{ n: number; bytes: string }>(
      `select count(*)::int as n, sum(size)::bigint as bytes from archive_items where tenant_id = $1 and kind = 'mail'
          and coalesce(sent_at, archived_at) < $2`,
      [tenantId, new Date(all.before)],
    );
    expect(all.items).toBe(totals?.n);
    expect(all.bytes).toBe(Number(totals?.bytes));
    const one = await preview({
      application: 'exchange',
      sources: [mailboxes[0]?.sourceId],
      retention: { unit: 'days', value: 1 },
    });
    expect(one.sources).toBeLessThanOrEqual(1);
    const none = await preview({ application: 'exchange', sources: [], retention: { unit: 'year', value: 1 } });
    expect(none.items).toBeLessThanOrEqual(all.items);
  });

  it('restores chosen mails into a folder of another mailbox, the same MIME as archived', async () => {
    const [owner, other] = mailboxes;
    const chosen = await server.ctx.db.query<{ id: string; external_id: string; subject: string }>(
      `select id::text, external_id, subject from archive_items where tenant_id = $1 and source = $2 and container = 'Inbox'
        order by sent_at limit 2`,
      [tenantId, owner?.sourceId ?? ''],
    );
    const restore = () =>
      server.request({
        method: 'POST',
        url: '/api/backup-and-restore/restore-email',
        token,
        body: {
          workerIp: worker.workerIp,
          mailboxId: owner?.sourceId,
          messageIds: chosen.map((c) => c.id),
          targetMailbox: other?.sourceId,
          targetFolder: 'Restored/ From Adele /',
        },
      });
    // Into another mailbox the mails are read out of theirs: eDiscovery's right to read it is needed.
    const refused = await restore();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: "You need a proxy right to read this mailbox's archive." });
    let started = refused;
    await withRight(owner?.sourceId ?? '', async () => {
      started = await restore();
    });
    expect(started.statusCode, started.body).toBe(202);
    const { jobId, reportId } = started.json() as { jobId: string; reportId: string };
    expect(reportId).toBeTruthy();
    await new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    }).runUntilIdle();
    const [run] = await server.ctx.db.query<{ status: string; message: string }>(
      'select status, message from job_runs where run_id = $1',
      [reportId],
    );
    expect(run).toEqual({ status: 'finished', message: 'Restored 2 mails into Restored/From Adele.' });
    const graph = createGraphApi({
      directoryId: tenantId,
      clientId: 'reader',
      clientSecret: 'x',
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphBaseUrl,
    });
    const folders = [];
    for await (const f of graph.mailFolders(other?.sourceId ?? '')) folders.push(f);
    const restoredFolder = folders.find((f) => f.path === 'Restored/From Adele');
    expect(restoredFolder).toBeDefined();
    const restored = [];
    for await (const page of graph.messagesDelta(other?.sourceId ?? '', restoredFolder?.id ?? ''))
      restored.push(...page);
    expect(restored.map((m) => m.subject).sort()).toEqual(chosen.map((c) => c.subject).sort());
    for (const message of restored) {
      const original = chosen.find((c) => c.subject === message.subject);
      const before = Buffer.from(await graph.messageMime(owner?.sourceId ?? '', original?.external_id ?? ''));
      const after = Buffer.from(await graph.messageMime(other?.sourceId ?? '', message.id ?? ''));
      expect(after.equals(before)).toBe(true);
    }
    const missing = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/restore-email',
      token,
      body: { workerIp: worker.workerIp, mailboxId: owner?.sourceId, messageIds: ['999999999'] },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Exchange Backup Job not found.' });
    expect(jobId).toBeTruthy();
  });

  it('gives the archive figures of the last 30 days and the worker’s state', async () => {
    const stats = await json<ArchiveStatistics>(`/api/backup-and-restore/archive/statistics?ip=${worker.workerIp}`);
    expect(stats.mailboxes).toBe(mailboxes.length);
    expect(stats.itemsByKind?.mails).toBe(mailboxes.length * 12);
    // The mails with the calendars, contacts and tasks archived beside them.
    expect(stats.items).toBe(Object.values(stats.itemsByKind ?? {}).reduce((sum, n) => sum + (n ?? 0), 0));
    expect(stats.growth).toHaveLength(31);
    expect(stats.growth.reduce((sum, d) => sum + d.items, 0)).toBe(stats.itemsByKind?.mails);
    expect(stats.lastSuccessfulJob?.jobName).toBe('Mail archive');
    const check = await json<{ online: boolean }>(`/api/worker/check/${worker.workerIp}`);
    expect(check.online).toBe(true);
    const meta = await json<WorkerMeta>(`/api/worker/meta/${worker.workerId}`);
    expect(meta.folders).toEqual(['Archive', 'Inbox', 'Inbox/TestOrder', 'Sent Items']);
    expect(meta.exchangeConfigured).toBe(true);
  });

  it('grants and revokes proxy rights for accounts and groups, refusing repeats with a message', async () => {
    const principals = await json<{ principalId: string; kind: string; displayName: string; email: string }[]>(
      `/api/proxy-accounts?workerIp=${worker.workerIp}`,
    );
    const accounts = principals.filter((p) => p.kind === 'account' && !p.principalId.startsWith('user:'));
    expect(accounts.map((a) => a.principalId).sort()).toEqual(mailboxes.map((m) => m.sourceId).sort());
    // The portal's administrator can hold a right too.
    expect(principals.find((p) => p.email === ADMIN)?.principalId).toMatch(/^user:/);
    const everyone = principals.find((p) => p.displayName === 'All Company');
    expect(everyone?.kind).toBe('distributionGroup');
    const [owner, reader] = mailboxes;
    const grant = (principalIds: string[]) =>
      server.request({
        method: 'POST',
        url: '/api/proxy-rights',
        token,
        body: { workerIp: worker.workerIp, mailboxId: owner?.sourceId, principalIds },
      });
    const granted = await grant([reader?.sourceId ?? '', everyone?.principalId ?? '']);
    expect(granted.statusCode, granted.body).toBe(201);
    expect((granted.json() as { principal: { displayName: string } }[]).map((r) => r.principal.displayName)).toEqual([
      reader?.displayName,
      'All Company',
    ]);
    const again = await grant([reader?.sourceId ?? '']);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: `${reader?.displayName} already holds the right to read this archive.` });
    const self = await grant([owner?.sourceId ?? '']);
    expect(self.statusCode).toBe(409);
    expect((await grant(['nobody'])).json()).toEqual({
      message: 'No account or group nobody was found in the tenant.',
    });
    expect((await grant([reader?.sourceId ?? '', reader?.sourceId ?? ''])).statusCode).toBe(400);

    const rights = await json<{ rightId: string; principal: { principalId: string } }[]>(
      `/api/proxy-rights?workerIp=${worker.workerIp}&mailboxId=${encodeURIComponent(owner?.sourceId ?? '')}`,
    );
    expect(rights).toHaveLength(2);
    const held = await json<{ rights: { mailboxId: string }[] }>(
      `/api/proxy-account?workerIp=${worker.workerIp}&principalId=${encodeURIComponent(reader?.sourceId ?? '')}`,
    );
    expect(held.rights.map((r) => r.mailboxId)).toEqual([owner?.sourceId]);
    const right = rights.find((r) => r.principal.principalId === reader?.sourceId);
    const revoked = await server.request({
      method: 'DELETE',
      url: `/api/proxy-rights?workerIp=${worker.workerIp}&rightId=${right?.rightId}`,
      token,
    });
    expect(revoked.statusCode).toBeLessThan(300);
    expect(await json<unknown[]>(`/api/proxy-rights?workerIp=${worker.workerIp}`)).toHaveLength(1);
    const twice = await server.request({
      method: 'DELETE',
      url: `/api/proxy-rights?workerIp=${worker.workerIp}&rightId=${right?.rightId}`,
      token,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('downloads one archived mail as its original MIME and several as a ZIP of .eml files', async () => {
    const owner = mailboxes[0];
    await withRight(owner?.sourceId ?? '', () => downloads(owner));
  });

  const downloads = async (owner: DiscoveredSource | undefined) => {
    const [first, second] = await server.ctx.db.query<{ id: string; external_id: string; subject: string }>(
      `select id::text, external_id, subject from archive_items where tenant_id = $1 and source = $2 and container = 'Inbox'
        order by sent_at limit 2`,
      [tenantId, owner?.sourceId ?? ''],
    );
    const download = (body: object) =>
      server.request({
        method: 'POST',
        url: '/api/backup-and-restore/full-restore-download',
        token,
        body: { workerIp: worker.workerIp, mailboxId: owner?.sourceId, ...body },
      });
    const one = await download({ messageIds: [first?.id] });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.headers['content-type']).toContain('message/rfc822');
    expect(one.headers['content-disposition']).toContain('.eml');
    const graph = createGraphApi({
      directoryId: tenantId,
      clientId: 'reader',
      clientSecret: 'x',
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphBaseUrl,
    });
    const original = Buffer.from(await graph.messageMime(owner?.sourceId ?? '', first?.external_id ?? ''));
    expect(one.rawPayload.equals(original)).toBe(true);

    const two = await download({ messageIds: [first?.id, second?.id] });
    expect(two.headers['content-type']).toContain('application/zip');
    const files = readZip(two.rawPayload);
    expect([...files.keys()].sort()).toEqual([first, second].map((m) => `Inbox/${m?.subject}-${m?.id}.eml`).sort());
    expect(files.get(`Inbox/${first?.subject}-${first?.id}.eml`)?.equals(original)).toBe(true);
    const all = await download({});
    expect(readZip(all.rawPayload).size).toBe(12);
    expect((await download({ messageIds: ['999999999'] })).statusCode).toBe(404);
  };

  it('answers the Teams paths: teams, members, groups, accounts, the archive tree, filtering and figures', async () => {
    const teams = await json<{ teamId: string; displayName: string; channels: number; archived: boolean }[]>(
      `/api/teams?workerIp=${worker.workerIp}`,
    );
    expect(teams.map((t) => [t.displayName, t.channels, t.archived])).toEqual([['Project Falcon', 2, false]]);
    const teamId = teams[0]?.teamId ?? '';
    const before = await json<{ configured: boolean; messages: number }>(
      `/api/teams-archive/statistics?workerIp=${worker.workerIp}`,
    );
    expect(before).toMatchObject({ configured: true, messages: 0 });

    await archiveTeam(teamId);

    const listed = await json<{ archived: boolean }[]>(`/api/teams?workerIp=${worker.workerIp}`);
    expect(listed[0]?.archived).toBe(true);
    const members = await json<{ email: string }[]>(`/api/teams/members/${worker.workerIp}?teamId=${teamId}`);
    expect(members.length).toBeGreaterThan(0);
    const groups = await json<{ displayName: string; kind: string }[]>(`/api/founded-groups/${worker.workerIp}`);
    expect(groups.map((g) => [g.displayName, g.kind])).toEqual([
      ['All Company', 'security'],
      ['Project Falcon', 'microsoft365'],
    ]);
    const found = async (type: string, restore = false) =>
      (
        await json<{ accountId: string; type: string }[]>(
          `/api${restore ? '/restore' : ''}/founded-accounts/${worker.workerIp}/${type}`,
        )
      ).map((a) => a.accountId);
    expect((await found('mailbox')).sort()).toEqual(mailboxes.map((m) => m.sourceId).sort());
    expect(await found('team')).toEqual([teamId]);
    expect((await found('mailbox', true)).sort()).toEqual(mailboxes.map((m) => m.sourceId).sort());
    expect(await found('user', true)).toEqual([]);
    expect(await found('group', true)).toEqual([]);

    const tree = await json<
      { name: string; messageCount: number; children: { name: string; messageCount: number }[] }[]
    >(`/api/backup-and-restore/teams-archive-structure?workerIp=${worker.workerIp}`);
    expect(tree.map((t) => t.name)).toEqual(['Project Falcon']);
    expect(tree[0]?.children.map((c) => c.name)).toEqual(['Channel 1', 'General']);
    const total = tree[0]?.messageCount ?? 0;
    expect(tree[0]?.children.reduce((sum, c) => sum + c.messageCount, 0)).toBe(total);

    const filter = async (body: object) => {
      const response = await server.request({
        method: 'POST',
        url: '/api/backup-and-restore/teams-filter-re',
        token,
        body: { workerIp: worker.workerIp, ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { total: number; items: { channelId: string; bodyPreview: string; from: string }[] };
    };
    expect((await filter({ teamId })).total).toBe(total);
    const general = await filter({ teamId, channelId: 'General', pageSize: 500 });
    expect(general.items.every((m) => m.channelId === 'General')).toBe(true);
    const word = general.items[0]?.bodyPreview.split(/\s+/).find((w) => w.length > 4) ?? '';
    const byWord = await filter({ query: word });
    expect(byWord.total).toBeGreaterThan(0);
    expect(byWord.items.every((m) => m.bodyPreview.toLowerCase().includes(word.toLowerCase()))).toBe(true);

    const after = await json<{ teams: number; channels: number; messages: number; growth: { messages: number }[] }>(
      `/api/teams-archive/statistics?workerIp=${worker.workerIp}`,
    );
    expect(after).toMatchObject({ teams: 1, channels: 2, messages: total });
    expect(after.growth.reduce((sum, d) => sum + d.messages, 0)).toBe(total);
    expect(await json<unknown[]>(`/api/backup-and-restore/finished-restore-teams-jobs/${worker.workerIp}`)).toEqual([]);
  });

  describe('with the team archived too', () => {
    beforeEach(async () => {
      const teams = await json<{ teamId: string }[]>(`/api/teams?workerIp=${worker.workerIp}`);
      await archiveTeam(teams[0]?.teamId ?? '');
    });

    it('searches only the mailboxes the caller may read: their own and those proxy rights give', async () => {
      const search = async (body: object) => {
        const response = await server.request({
          method: 'POST',
          url: `/apollo-beta/api/${tenantId}/ediscovery/search`,
          token,
          body: { query: '', ...body },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as {
          total: number;
          searchedMailboxes: number;
          items: { itemId: string; kind: string; subject: string; sender: string; source: string; snippet: string }[];
        };
      };
      const [known] = await server.ctx.db.query<{ id: string; subject: string; sender: string; source: string }>(
        `select id::text, subject, sender, source from archive_items where tenant_id = $1 and kind = 'mail' and source = $2
          order by sent_at limit 1`,
        [tenantId, mailboxes[0]?.sourceId ?? ''],
      );
      const phrase = `"${known?.subject.split(' ').slice(0, 2).join(' ')}"`;
      // The administrator has no mailbox here and no right yet: no mail is searched.
      const none = await search({ query: phrase, kinds: ['mail'] });
      expect({ total: none.total, searched: none.searchedMailboxes }).toEqual({ total: 0, searched: 0 });
      const preview = (id: string) =>
        server.request({ method: 'GET', url: `/apollo-beta/api/${tenantId}/ediscovery/items/${id}`, token });
      const refused = await preview(known?.id ?? '');
      expect(refused.statusCode).toBe(403);
      expect((refused.json() as { message: string }).message).toBe(
        "You need a proxy right to read this mailbox's archive.",
      );
      expect((await search({ query: '', kinds: ['teams'] })).total).toBeGreaterThan(0);

      const principals = await json<{ principalId: string; email: string }[]>(
        `/api/proxy-accounts?workerIp=${worker.workerIp}`,
      );
      const me = principals.find((p) => p.email === ADMIN);
      const granted = await server.request({
        method: 'POST',
        url: '/api/proxy-rights',
        token,
        body: { workerIp: worker.workerIp, mailboxId: mailboxes[0]?.sourceId, principalIds: [me?.principalId] },
      });
      expect(granted.statusCode, granted.body).toBe(201);

      const byPhrase = await search({ query: phrase, kinds: ['mail'] });
      expect(byPhrase.searchedMailboxes).toBe(1);
      expect(byPhrase.items.map((i) => i.itemId)).toContain(known?.id);
      expect(byPhrase.items.every((i) => i.source === mailboxes[0]?.sourceId)).toBe(true);
      const bySender = await search({ query: `from:${known?.sender}`, kinds: ['mail'], pageSize: 500 });
      expect(bySender.items.map((i) => i.itemId)).toContain(known?.id);
      expect(bySender.items.every((i) => i.sender.includes(known?.sender ?? ''))).toBe(true);
      const excluded = await search({ query: `${phrase} NOT ${known?.subject.split(' ')[0]}`, kinds: ['mail'] });
      expect(excluded.items.map((i) => i.itemId)).not.toContain(known?.id);
      const later = await search({ query: phrase, kinds: ['mail'], from: '2030-01-01T00:00:00.000Z' });
      expect(later.total).toBe(0);
      const shown = await preview(known?.id ?? '');
      expect(shown.statusCode).toBe(200);
      expect((shown.json() as { subject: string; body: string }).subject).toBe(known?.subject);
      expect((shown.json() as { body: string }).body.length).toBeGreaterThan(0);

      // The search saved as a case, exported: the mail as .eml identical to Microsoft 365's, and a manifest.
      const cases = `/apollo-beta/api/${tenantId}/ediscovery/cases`;
      const saved = await server.request({
        method: 'POST',
        url: cases,
        token,
        body: { name: 'Known mail', search: { query: phrase, kinds: ['mail'], page: 3 } },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const found = saved.json() as { caseId: string; hits: number; search: Record<string, unknown> };
      expect(found.hits).toBe(byPhrase.total);
      expect(found.search).toEqual({ query: phrase, kinds: ['mail'] });
      const twice = await server.request({
        method: 'POST',
        url: cases,
        token,
        body: { name: 'known MAIL', search: { query: '' } },
      });
      expect(twice.statusCode).toBe(409);
      expect((await json<{ caseId: string }[]>(cases)).map((c) => c.caseId)).toEqual([found.caseId]);
      const exported = await get(`${cases}/${found.caseId}/export`);
      expect(exported.headers['content-type']).toContain('application/zip');
      const files = readZip(exported.rawPayload);
      const manifest = files.get('manifest.csv')?.toString('utf8').trim().split('\r\n') ?? [];
      expect(manifest[0]).toBe('Item,Kind,Mailbox or team,Folder or channel,Subject,From,To,Sent,Size,File');
      expect(manifest).toHaveLength(byPhrase.total + 1);
      const line = manifest.find((l) => l.startsWith(`${known?.id},mail,`)) ?? '';
      const file = line.split(',').at(-1) ?? '';
      const graph = createGraphApi({
        directoryId: tenantId,
        clientId: 'reader',
        clientSecret: 'x',
        authorityHost: sim.authorityHost,
        graphBaseUrl: sim.graphBaseUrl,
      });
      const [external] = await server.ctx.db.query<{ external_id: string }>(
        'select external_id from archive_items where id = $1',
        [known?.id ?? ''],
      );
      const original = Buffer.from(await graph.messageMime(mailboxes[0]?.sourceId ?? '', external?.external_id ?? ''));
      expect(files.get(file)?.equals(original)).toBe(true);
      const removed = await server.request({ method: 'DELETE', url: `${cases}/${found.caseId}`, token });
      expect(removed.statusCode).toBeLessThan(300);
      await get(`${cases}/${found.caseId}`, 404);
    });
  });
});

describe('the eDiscovery query language', () => {
  it('turns fields into filters and keeps words, phrases, OR and NOT as full text', async () => {
    const { parseQuery } = await import('../src/modules/ediscovery/query.js');
    expect(parseQuery('from:adele@contoso.com to:"Alex W" subject:"Q3 plan" has:attachment budget')).toEqual({
      text: 'budget',
      sender: 'adele@contoso.com',
      recipient: 'Alex W',
      subject: 'Q3 plan',
      hasAttachments: true,
    });
    expect(parseQuery('"annual report" AND draft OR final NOT secret')).toEqual({
      text: '"annual report" draft OR final -secret',
    });
  });
});
