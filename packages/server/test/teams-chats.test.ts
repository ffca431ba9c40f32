import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type { DiscoveredSource, Page } from '@compliance-portal/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import type { GraphApi } from '../src/m365/graph-api.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

/** Teams chats: archived per chosen account, once per chat; read only through a member's mailbox. */
describe('Teams archive of chats', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-teams-chats-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let graph: GraphApi;
  let token = '';
  let workerIp = '';
  let locationId = '';
  let teamId = '';
  let people: DiscoveredSource[] = [];

  const request = async (method: 'GET' | 'POST', url: string, body?: object, status = 200) => {
    const response = await server.request({ method, url, token, ...(body ? { body } : {}) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json();
  };
  const run = (jobId: string) =>
    request('POST', `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, undefined, 202).then(() =>
      new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx)), heartbeatMs: 50 }).runUntilIdle(),
    );
  /** The chats of `accounts` as Microsoft 365 has them, each once, with its message count. */
  const chatsInGraph = async (accounts: string[]) => {
    const chats = new Map<string, { topic: string | null; members: string[]; messages: number }>();
    for (const account of accounts)
      for await (const chat of graph.userChats(account)) {
        if (chats.has(chat.id ?? '')) continue;
        const members: string[] = [];
        for await (const m of graph.chatMembers(chat.id ?? '')) members.push(m.userId ?? '');
        let messages = 0;
        for await (const _m of graph.chatMessages(chat.id ?? '')) messages += 1;
        chats.set(chat.id ?? '', { topic: chat.topic ?? null, members, messages });
      }
    return chats;
  };

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    const [w] = await server.ctx.db.query<{ worker_ip: string }>(
      'select worker_ip from workers where stagingtenant_id = $1',
      [tenantId],
    );
    workerIp = w?.worker_ip ?? '';
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 limit 1',
      [tenantId],
    );
    locationId = location?.location_id ?? '';
  });
  // Each test starts from a simulated tenant of its own and nothing archived, read or granted: tests
  // add chat messages, archive, grant a right to a mailbox and delete archived items.
  beforeEach(async () => {
    for (const table of ['jobs', 'archive_items', 'archived_chats', 'proxy_rights'])
      await server.ctx.db.query(`delete from ${table} where tenant_id = $1`, [tenantId]);
    sim = await startSimulator({
      tenants: [
        { tenantId, size: { users: 4, messagesPerFolder: 1, sites: 0, teams: 1, chats: 4, messagesPerChat: 3 } },
      ],
      pageSize: 2,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    graph = createGraphApi({
      directoryId: tenantId,
      clientId: 'reader',
      clientSecret: 'x',
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphBaseUrl,
    });
    people = (
      (await request(
        'GET',
        `/apollo-beta/api/${tenantId}/discovery/${locationId}/users?application=exchange&sort=displayName`,
      )) as Page<DiscoveredSource>
    ).items;
    const teams = (await request('GET', `/api/teams?workerIp=${workerIp}`)) as { teamId: string }[];
    teamId = teams[0]?.teamId ?? '';
  });
  afterEach(() => sim.close());

  /** The Teams archive job of the team and the chats of `chosen`. */
  const archiveJob = async (chosen: string) =>
    (await request('POST', `/apollo-beta/api/${tenantId}/jobs`, {
      name: 'Teams and chats',
      type: 'teamsArchive',
      application: 'teams',
      sources: [teamId],
      chats: [chosen],
      locationId,
    })) as { jobId: string; chats: string[] };
  /** A message sent just now in each of these chats of Microsoft 365. */
  const lateAdditions = (chats: { has(id: string): boolean }) =>
    sim.state.tenant(tenantId).chats.forEach((chat, i) => {
      if (chats.has(chat.id))
        chat.messages.push({
          id: `9${i}`,
          replyTo: null,
          from: 'Adele',
          body: 'late addition',
          created: new Date().toISOString(),
        });
    });

  it('archives each chat of the chosen account once, with its members, and again only what is new', async () => {
    const chosen = people[1]?.sourceId ?? '';
    const refused = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${tenantId}/jobs`,
      token,
      body: {
        name: 'Mail',
        type: 'exchangeArchive',
        application: 'exchange',
        sources: [chosen],
        chats: [chosen],
        locationId,
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errors: { chats: ['Only Teams archive and deletion jobs cover chats.'] } });

    const job = await archiveJob(chosen);
    expect(job.chats).toEqual([chosen]);
    await run(job.jobId);

    const expected = await chatsInGraph([chosen]);
    expect(expected.size).toBeGreaterThan(1);
    expect(expected.size).toBeLessThan(sim.state.tenant(tenantId).chats.length);
    const archived = await server.ctx.db.query<{
      chat_id: string;
      topic: string | null;
      member_ids: string[];
      n: number;
    }>(
      `select c.chat_id, c.topic, c.member_ids, (select count(*)::int from archive_items a
          where a.tenant_id = c.tenant_id and a.kind = 'chat' and a.source = c.chat_id) as n
         from archived_chats c where c.tenant_id = $1 order by c.chat_id`,
      [tenantId],
    );
    expect(archived.map((c) => c.chat_id)).toEqual([...expected.keys()].sort());
    for (const c of archived) {
      const inGraph = expected.get(c.chat_id);
      expect(c.n).toBe(inGraph?.messages);
      expect([...c.member_ids].sort()).toEqual([...(inGraph?.members ?? [])].sort());
      expect(c.topic).toBe(inGraph?.topic);
    }
    const runs = await server.ctx.db.query<{ message: string }>(
      'select message from job_runs where job_id = $1 order by seq',
      [job.jobId],
    );
    const chatMessages = archived.reduce((sum, c) => sum + c.n, 0);
    expect(runs.at(-1)?.message).toMatch(/^Archived \d+ new Teams messages?\.$/);

    // New chat messages in Microsoft 365: the next run adds exactly those, nothing twice.
    lateAdditions(expected);
    await run(job.jobId);
    const again = await server.ctx.db.query<{ message: string }>(
      'select message from job_runs where job_id = $1 order by seq desc limit 1',
      [job.jobId],
    );
    expect(again[0]?.message).toBe(
      `Archived ${expected.size} new Teams ${expected.size === 1 ? 'message' : 'messages'}.`,
    );
    const [count] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'chat'",
      [tenantId],
    );
    expect(count?.n).toBe(chatMessages + expected.size);

    const tree = (await request('GET', `/api/backup-and-restore/teams-archive-structure?workerIp=${workerIp}`)) as {
      nodeId: string;
      kind: string;
      name: string;
      messageCount: number;
    }[];
    const chatNodes = tree.filter((n) => n.kind === 'chat');
    expect(chatNodes.map((n) => n.nodeId).sort()).toEqual([...expected.keys()].sort());
    for (const node of chatNodes) {
      const topic = expected.get(node.nodeId)?.topic;
      if (topic) expect(node.name).toBe(topic);
      else expect(node.name).toMatch(/, /);
    }
    const stats = (await request('GET', `/api/teams-archive/statistics?workerIp=${workerIp}`)) as {
      teams: number;
      chats: number;
      messages: number;
    };
    expect(stats.teams).toBe(1);
    expect(stats.chats).toBe(expected.size);
    const [all] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from archive_items where tenant_id = $1 and kind in ('teams', 'chat')",
      [tenantId],
    );
    expect(stats.messages).toBe(all?.n);
  });

  describe('with the chats of one account archived, and messages added since archived again', () => {
    beforeEach(async () => {
      const chosen = people[1]?.sourceId ?? '';
      const job = await archiveJob(chosen);
      await run(job.jobId);
      lateAdditions(await chatsInGraph([chosen]));
      await run(job.jobId);
    });

    it('shows a chat in search, preview and the Teams filter only to who may read a member’s mailbox', async () => {
      const search = async () =>
        (
          (await request('POST', `/apollo-beta/api/${tenantId}/ediscovery/search`, {
            query: '',
            kinds: ['teams'],
            pageSize: 500,
          })) as {
            items: {
              itemId: string;
              kind: string;
              chat?: boolean;
              source: string;
              sourceName: string;
              container: string;
            }[];
          }
        ).items.filter((i) => i.chat);
      const filter = async () =>
        (
          (await request('POST', '/api/backup-and-restore/teams-filter-re', { workerIp, pageSize: 500 })) as {
            items: { chatId: string | null; teamId: string | null }[];
          }
        ).items.filter((i) => i.chatId);
      const [anyChat] = await server.ctx.db.query<{ id: string }>(
        "select id::text from archive_items where tenant_id = $1 and kind = 'chat' limit 1",
        [tenantId],
      );
      // The administrator has no mailbox of their own and no proxy right: no chat at all.
      expect(await search()).toEqual([]);
      expect(await filter()).toEqual([]);
      expect(
        (
          await server.request({
            method: 'GET',
            url: `/apollo-beta/api/${tenantId}/ediscovery/items/${anyChat?.id}`,
            token,
          })
        ).statusCode,
      ).toBe(404);

      // A right to one member's mailbox opens exactly the archived chats that member is in.
      const archived = await server.ctx.db.query<{ chat_id: string; member_ids: string[]; name: string }>(
        'select chat_id, member_ids, name from archived_chats where tenant_id = $1',
        [tenantId],
      );
      const member = people.find(
        (p) =>
          archived.some((c) => c.member_ids.includes(p.sourceId)) &&
          archived.some((c) => !c.member_ids.includes(p.sourceId)),
      );
      expect(member).toBeDefined();
      const open = archived.filter((c) => c.member_ids.includes(member?.sourceId ?? ''));
      const principals = (await request('GET', `/api/proxy-accounts?workerIp=${workerIp}`)) as {
        principalId: string;
        email: string;
      }[];
      const me = principals.find((p) => p.email === ADMIN);
      await request(
        'POST',
        '/api/proxy-rights',
        { workerIp, mailboxId: member?.sourceId, principalIds: [me?.principalId] },
        201,
      );

      const hits = await search();
      expect([...new Set(hits.map((h) => h.source))].sort()).toEqual(open.map((c) => c.chat_id).sort());
      for (const hit of hits) {
        expect(hit).toMatchObject({ kind: 'teams', container: '' });
        expect(hit.sourceName).toBe(open.find((c) => c.chat_id === hit.source)?.name);
      }
      expect([...new Set((await filter()).map((m) => m.chatId))].sort()).toEqual(open.map((c) => c.chat_id).sort());
      const shown = await request('GET', `/apollo-beta/api/${tenantId}/ediscovery/items/${hits[0]?.itemId}`);
      expect(shown).toMatchObject({ kind: 'teams' });
      // Channel messages stay open to the tenant's administrators.
      const channels = (await request('POST', '/api/backup-and-restore/teams-filter-re', { workerIp, teamId })) as {
        total: number;
      };
      expect(channels.total).toBeGreaterThan(0);
    });

    it('previews and deletes by retention the chats of chosen accounts, leaving the others', async () => {
      const archived = await server.ctx.db.query<{ chat_id: string; member_ids: string[]; n: number }>(
        `select c.chat_id, c.member_ids, (select count(*)::int from archive_items a
            where a.tenant_id = c.tenant_id and a.kind = 'chat' and a.source = c.chat_id) as n
           from archived_chats c where c.tenant_id = $1`,
        [tenantId],
      );
      const account =
        people.find(
          (p) =>
            archived.some((c) => !c.member_ids.includes(p.sourceId)) &&
            archived.some((c) => c.member_ids.includes(p.sourceId)),
        )?.sourceId ?? '';
      const covered = archived.filter((c) => c.member_ids.includes(account));
      const preview = (await request('POST', `/apollo-beta/api/${tenantId}/jobs/deletion-preview`, {
        application: 'teams',
        sources: [],
        chats: [account],
        retention: { unit: 'days', value: 30 },
      })) as { items: number; sources: number };
      // The late additions are new; everything else was sent in September.
      const [recent] = await server.ctx.db.query<{ n: number }>(
        `select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'chat' and source = any($2)
            and sent_at >= now() - interval '30 days'`,
        [tenantId, covered.map((c) => c.chat_id)],
      );
      const due = covered.reduce((sum, c) => sum + c.n, 0) - (recent?.n ?? 0);
      expect(preview).toMatchObject({ items: due, sources: covered.length });

      const job = (await request('POST', `/apollo-beta/api/${tenantId}/jobs`, {
        name: 'Chat retention',
        type: 'archiveDeletion',
        application: 'teams',
        sources: [teamId],
        chats: [account],
        retention: { unit: 'days', value: 30 },
      })) as { jobId: string };
      await run(job.jobId);
      const left = await server.ctx.db.query<{ source: string; n: number }>(
        "select source, count(*)::int as n from archive_items where tenant_id = $1 and kind = 'chat' group by source",
        [tenantId],
      );
      for (const c of archived) {
        const n = left.find((l) => l.source === c.chat_id)?.n ?? 0;
        if (covered.includes(c)) expect(n).toBeLessThan(c.n);
        else expect(n).toBe(c.n);
      }
      for (const c of covered) {
        const [oldest] = await server.ctx.db.query<{ n: number }>(
          `select count(*)::int as n from archive_items where tenant_id = $1 and source = $2
              and sent_at < now() - interval '30 days'`,
          [tenantId, c.chat_id],
        );
        expect(oldest?.n).toBe(0);
      }
      // The team's channel messages, all from September, went too.
      const [channels] = await server.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'teams'",
        [tenantId],
      );
      expect(channels?.n).toBe(0);
    });
  });
});
