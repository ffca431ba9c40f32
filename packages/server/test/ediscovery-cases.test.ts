import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EdiscoveryCase, Page, PortalUser } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveMail, archiveTeamsMessage, saveChat } from '../src/archive-data/archive.js';
import { refreshHolds } from '../src/archive-data/legal-hold.js';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { seedDemo } from '../src/demo/seed.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { insertUser } from '../src/modules/identity/users-repository.js';
import {
  ADMIN,
  API_KEY,
  mime,
  openTestDatabase,
  PARTNER,
  sessionToken,
  TENANTS,
  testContext,
  useTestServer,
} from './helpers.js';

/**
 * eDiscovery cases beyond the hold's own flow (legal-hold.test.ts): the custodians a case names and
 * what a hold of Teams chats and channels keeps of them, the bounds of a case's lists and of the cases
 * of a tenant, ids of another tenant, the eDiscovery manager role and the users list that grants it,
 * requests at the same moment over real HTTP, and migration 025's conversion of holds placed before it.
 */
describe('eDiscovery cases: custodians, bounds, the eDiscovery manager role and races', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-ediscovery-cases-')) });
  const tenantId: string = TENANTS.contoso;
  const api = `/apollo-beta/api/${tenantId}`;
  let token = '';
  let plane: DataPlane;
  let sequence = 0;

  const request = (method: string, url: string, body?: object, as = token) =>
    server.request({ method, url, token: as, ...(body ? { body } : {}) });
  const call = async <T>(method: string, url: string, body?: object, status = 200, as = token) => {
    const response = await request(method, url, body, as);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const createCase = (name: string, search: object, as = token) =>
    call<EdiscoveryCase>('POST', `${api}/ediscovery/cases`, { name, search }, 201, as);
  const audits = (action: string, target: string) =>
    server.ctx.db.query<{ outcome: string; actor_email: string; details: Record<string, unknown> }>(
      'select outcome, actor_email, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  const caseCount = async (tenant = tenantId) => {
    const [row] = await server.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from ediscovery_cases where tenant_id = $1',
      [tenant],
    );
    return Number(row?.n ?? 0);
  };
  /** Records a mailbox, team or account as discovered in the tenant just now, with its name. */
  const discover = (application: 'exchange' | 'teams', id: string, name: string, tenant = tenantId) =>
    server.ctx.db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, seen_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [tenant, application, id, application === 'teams' ? 'team' : 'mailbox', name, server.ctx.now()],
    );
  const archiveMailTo = async (mailbox: string, subject: string) => {
    sequence += 1;
    await archiveMail(server.ctx.db, await plane.storeAt(null), {
      tenantId,
      jobId: null,
      source: mailbox,
      folder: 'Inbox',
      externalId: `cases-${sequence}`,
      mime: mime(subject, `About ${subject}.`),
      now: server.ctx.now(),
    });
  };
  const archiveMessage = async (kind: 'teams' | 'chat', source: string, text: string) => {
    sequence += 1;
    await archiveTeamsMessage(server.ctx.db, await plane.storeAt(null), {
      tenantId,
      jobId: null,
      kind,
      source,
      channel: kind === 'teams' ? 'General' : source,
      externalId: `cases-${sequence}`,
      message: {
        id: `cases-${sequence}`,
        createdDateTime: '2026-10-01T09:00:00Z',
        body: { contentType: 'text', content: text },
      },
      now: server.ctx.now(),
    });
  };
  /** A signed-in administrator of Contoso who is not an eDiscovery manager: their id and token. */
  const analyst = async (name: string) => {
    const [admin] = await server.ctx.db.query<{ password_hash: string; organisation_id: string }>(
      'select password_hash, organisation_id from users where email = $1',
      [ADMIN],
    );
    const id = randomUUID();
    const email = `${name}@contoso.example`;
    await insertUser(server.ctx.db, {
      id,
      email,
      displayName: `Analyst ${name}`,
      passwordHash: admin?.password_hash ?? '',
      role: 'admin',
      organisationId: admin?.organisation_id ?? '',
      emailConfirmed: true,
    });
    return { id, email, token: await sessionToken(server, email) };
  };

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    plane = createDataPlane(server.ctx);
  });

  it('refuses holding and releasing to who is not an eDiscovery manager (403, its code, audited)', async () => {
    await discover('exchange', 'role-mailbox', 'Role Mailbox');
    const saved = await createCase('role', { query: 'Falcon', mailboxes: ['role-mailbox'] });
    const { id, token: reader } = await analyst('role-analyst');
    expect(await call('GET', `${api}/ediscovery/rights`, undefined, 200, reader)).toEqual({ ediscoveryManager: false });
    expect(await call('GET', `${api}/ediscovery/rights`)).toEqual({ ediscoveryManager: true });

    const refused = await request('POST', `${api}/ediscovery/cases/${saved.caseId}/hold`, undefined, reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ediscoveryManagerRequired' });
    expect((await call<EdiscoveryCase>('GET', `${api}/ediscovery/cases/${saved.caseId}`)).hold).toBeNull();
    expect(await audits('ediscovery.case.hold', saved.caseId)).toEqual([
      expect.objectContaining({ outcome: 'failure', actor_email: 'role-analyst@contoso.example' }),
    ]);

    await call('POST', `${api}/ediscovery/cases/${saved.caseId}/hold`);
    const release = await request('DELETE', `${api}/ediscovery/cases/${saved.caseId}/hold`, undefined, reader);
    expect(release.statusCode).toBe(403);
    expect(release.json()).toMatchObject({ code: 'ediscoveryManagerRequired' });
    expect((await call<EdiscoveryCase>('GET', `${api}/ediscovery/cases/${saved.caseId}`)).hold).not.toBeNull();

    // Granted, the role holds at once, without signing in again.
    await call('PUT', `/api/admin/users/${id}/ediscovery-manager`);
    expect(await call('GET', `${api}/ediscovery/rights`, undefined, 200, reader)).toEqual({ ediscoveryManager: true });
    const released = await call<EdiscoveryCase>(
      'DELETE',
      `${api}/ediscovery/cases/${saved.caseId}/hold`,
      undefined,
      200,
      reader,
    );
    expect(released.hold).toBeNull();
  });

  it('refuses to hold a case that names no custodian (409 holdNeedsCustodians)', async () => {
    const saved = await createCase('no custodians', { query: 'Falcon' });
    expect(saved.custodians).toEqual([]);
    const refused = await request('POST', `${api}/ediscovery/cases/${saved.caseId}/hold`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'holdNeedsCustodians' });
    expect((await call<EdiscoveryCase>('GET', `${api}/ediscovery/cases/${saved.caseId}`)).hold).toBeNull();
  });

  it("grants and takes the role on the organisation's users list, audited once per change", async () => {
    const { id, email } = await analyst('granted-analyst');
    const listed = await call<Page<PortalUser>>('GET', '/api/admin/users?search=GRANTED-analyst');
    expect(listed).toMatchObject({ total: 1, page: 1, pageSize: 25 });
    expect(listed.items[0]).toMatchObject({
      userId: id,
      email,
      displayName: 'Analyst granted-analyst',
      role: 'admin',
      twoFactorEnabled: true,
      ediscoveryManager: false,
    });

    expect(await call<PortalUser>('PUT', `/api/admin/users/${id}/ediscovery-manager`)).toMatchObject({
      userId: id,
      ediscoveryManager: true,
    });
    await call('PUT', `/api/admin/users/${id}/ediscovery-manager`);
    expect(await audits('user.ediscoveryManager.grant', id)).toEqual([
      expect.objectContaining({ outcome: 'success', actor_email: ADMIN, details: { email } }),
    ]);
    expect(await call<PortalUser>('DELETE', `/api/admin/users/${id}/ediscovery-manager`)).toMatchObject({
      ediscoveryManager: false,
    });
    await call('DELETE', `/api/admin/users/${id}/ediscovery-manager`);
    expect(await audits('user.ediscoveryManager.revoke', id)).toHaveLength(1);

    // Sorted by the role, paged: the demo administrator (a manager) first, or the analyst, one row a page.
    const managersFirst = await call<Page<PortalUser>>(
      'GET',
      '/api/admin/users?sort=ediscoveryManager&order=desc&pageSize=1&page=1',
    );
    expect(managersFirst.items).toHaveLength(1);
    expect(managersFirst.items[0]?.ediscoveryManager).toBe(true);
    expect(managersFirst.total).toBeGreaterThanOrEqual(2);
    const managersLast = await call<Page<PortalUser>>(
      'GET',
      '/api/admin/users?sort=ediscoveryManager&order=asc&pageSize=1&page=1',
    );
    expect(managersLast.items[0]?.ediscoveryManager).toBe(false);

    // Fabrikam's partner acts for its clients, not for Contoso: Contoso's user is unknown to it.
    const partner = await sessionToken(server, PARTNER);
    const foreign = await request('PUT', `/api/admin/users/${id}/ediscovery-manager`, undefined, partner);
    expect(foreign.statusCode).toBe(404);
    const [contoso] = await server.ctx.db.query<{ organisation_id: string }>(
      'select organisation_id from users where id = $1',
      [id],
    );
    const foreignList = await request(
      'GET',
      `/api/admin/users?organisationId=${contoso?.organisation_id}`,
      undefined,
      partner,
    );
    expect(foreignList.statusCode).toBe(404);
    expect(await audits('user.ediscoveryManager.grant', id)).toHaveLength(1);
  });

  it('caps the lists of a search and a case at 100 ids of 256 characters (400), storing nothing', async () => {
    const long = `m${'x'.repeat(255)}`;
    await discover('exchange', long, 'Long Id Mailbox');
    const before = await caseCount();
    const tooMany = Array.from({ length: 101 }, (_, i) => `cap-${i}`);
    for (const list of ['mailboxes', 'teams', 'chats']) {
      for (const ids of [tooMany, [`${long}y`]]) {
        for (const [url, body] of [
          [`${api}/ediscovery/search`, { query: 'Falcon', [list]: ids }],
          [`${api}/ediscovery/cases`, { name: `capped ${list}`, search: { query: 'Falcon', [list]: ids } }],
        ] as const) {
          const response = await request('POST', url, body);
          expect(response.statusCode, `${url} ${list} ${ids.length}: ${response.body}`).toBe(400);
        }
      }
    }
    expect(await caseCount()).toBe(before);
    // 256 characters are enough.
    const saved = await createCase('capped at 256', { query: 'Falcon', mailboxes: [long] });
    expect(saved.custodians).toEqual([{ kind: 'mailbox', id: long, name: 'Long Id Mailbox' }]);
  });

  it("refuses another tenant's mailbox, team or chat account with 404, storing nothing", async () => {
    const northwind = TENANTS.northwind;
    await discover('exchange', 'nw-mailbox', 'Northwind Mailbox', northwind);
    await discover('teams', 'nw-team', 'Northwind Team', northwind);
    await discover('exchange', 'foreign-own-mailbox', 'Own Mailbox');
    await discover('teams', 'foreign-own-team', 'Own Team');
    const before = await caseCount();
    for (const search of [
      { query: 'Falcon', mailboxes: ['foreign-own-mailbox', 'nw-mailbox'] },
      { query: 'Falcon', teams: ['foreign-own-team', 'nw-team'] },
      { query: 'Falcon', chats: ['nw-mailbox'] },
    ]) {
      for (const [url, body] of [
        [`${api}/ediscovery/search`, search],
        [`${api}/ediscovery/cases`, { name: 'foreign', search }],
      ] as const) {
        const response = await request('POST', url, body);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(404);
        expect(response.body).not.toContain('Northwind');
      }
    }
    expect(await caseCount()).toBe(before);
    expect(
      await server.ctx.db.query(
        "select 1 from audit_log where action = 'ediscovery.case.create' and details->>'name' = 'foreign'",
      ),
    ).toEqual([]);

    // What the archive knows is the tenant's, discovered or not any more (an account left, its mail stays).
    await archiveMailTo('left-mailbox', 'Falcon farewell');
    await archiveMessage('teams', 'left-team', 'Falcon retro');
    await saveChat(server.ctx.db, {
      tenantId,
      chatId: 'left-chat',
      chatType: 'oneOnOne',
      topic: null,
      members: [{ userId: 'left-account', displayName: 'Former Colleague' }],
    });
    const kept = await createCase('left the tenant', {
      query: 'Falcon',
      mailboxes: ['left-mailbox'],
      teams: ['left-team'],
      chats: ['left-account'],
    });
    expect(kept.custodians).toEqual([
      { kind: 'mailbox', id: 'left-mailbox', name: 'left-mailbox' },
      { kind: 'team', id: 'left-team', name: 'left-team' },
      { kind: 'chats', id: 'left-account', name: 'Former Colleague' },
    ]);
  });

  it('keeps at most 500 cases in a tenant (409 caseLimitReached), however many are asked at once', async () => {
    const woodgrove = TENANTS.woodgrove;
    const partner = await sessionToken(server, PARTNER);
    const existing = Array.from({ length: 498 }, (_, i) => i);
    await server.ctx.db.query(
      `insert into ediscovery_cases (case_id, tenant_id, name, search, created_by, created_at, hits)
       select gen_random_uuid()::text, $1, 'Filler ' || n, '{"query": ""}', 'fixture', $2, 0 from unnest($3::int[]) n`,
      [woodgrove, server.ctx.now(), existing],
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        server.request({
          method: 'POST',
          url: `/apollo-beta/api/${woodgrove}/ediscovery/cases`,
          token: partner,
          body: { name: `At the limit ${i}`, search: { query: '' } },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ code: 'caseLimitReached' });
    }
    expect(await caseCount(woodgrove)).toBe(500);
  });

  it('answers creates of one name, holds and releases at the same moment over HTTP with no 5xx', async () => {
    await discover('exchange', 'race-mailbox', 'Race Mailbox');
    await archiveMailTo('race-mailbox', 'Falcon race');
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/apollo-beta/api/${tenantId}`;
    const send = (method: string, path: string, body?: object) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          'x-api-key': API_KEY,
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

    const names = ['Race', 'RACE', 'race', ' Race ', 'rAce', 'Race', 'RaCe', 'race'];
    const created = await Promise.all(
      names.map((name) =>
        send('POST', '/ediscovery/cases', { name, search: { query: 'Falcon', mailboxes: ['race-mailbox'] } }),
      ),
    );
    expect(created.map((c) => c.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of created.filter((c) => c.status === 409)) {
      expect(refused.body).toMatchObject({ message: 'A case with this name already exists.' });
    }
    const caseId = String(created.find((c) => c.status === 201)?.body.caseId);

    const held = await Promise.all(Array.from({ length: 8 }, () => send('POST', `/ediscovery/cases/${caseId}/hold`)));
    expect(held.map((h) => h.status)).toEqual(Array(8).fill(200));
    expect(new Set(held.map((h) => JSON.stringify(h.body.hold)))).toEqual(
      new Set([JSON.stringify(held[0]?.body.hold)]),
    );
    expect(await audits('ediscovery.case.hold', caseId)).toHaveLength(1);

    const released = await Promise.all(
      Array.from({ length: 8 }, () => send('DELETE', `/ediscovery/cases/${caseId}/hold`)),
    );
    expect(released.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(released.every((r) => r.body.hold === null)).toBe(true);
    expect(await audits('ediscovery.case.release', caseId)).toHaveLength(1);
  });

  it("holds the chats of its chat accounts and its teams' channels, later ones too, and nothing of others", async () => {
    await discover('teams', 'hold-team', 'Project Falcon');
    await discover('teams', 'other-team', 'Canteen');
    await discover('exchange', 'hold-account', 'Megan Bowen');
    const chat = (chatId: string, members: string[]) =>
      saveChat(server.ctx.db, {
        tenantId,
        chatId,
        chatType: 'group',
        topic: null,
        members: members.map((userId) => ({ userId, displayName: userId })),
      });
    await chat('hold-chat-1', ['hold-account', 'hold-colleague']);
    await chat('hold-chat-2', ['hold-stranger', 'hold-colleague']);
    await archiveMessage('chat', 'hold-chat-1', 'Falcon in a chat of the custodian');
    await archiveMessage('chat', 'hold-chat-2', 'Falcon in a chat without them');
    await archiveMessage('teams', 'hold-team', 'Falcon in the project channel');
    await archiveMessage('teams', 'other-team', 'Falcon in the canteen');
    await archiveMessage('teams', 'hold-team', 'Lunch plans');
    const saved = await createCase('chats and teams', {
      query: 'Falcon',
      kinds: ['teams'],
      teams: ['hold-team'],
      chats: ['hold-account'],
    });
    // The saved search names every list once one is named: no mailbox is searched.
    expect(saved.search).toMatchObject({ mailboxes: [], teams: ['hold-team'], chats: ['hold-account'] });
    const held = await call<EdiscoveryCase>('POST', `${api}/ediscovery/cases/${saved.caseId}/hold`);
    expect(held.hold).toMatchObject({
      items: 2,
      custodians: [
        { kind: 'team', id: 'hold-team', name: 'Project Falcon', items: 1 },
        { kind: 'chats', id: 'hold-account', name: 'Megan Bowen', items: 1 },
      ],
    });

    // A chat the custodian joins later, and its message, join the hold.
    await chat('hold-chat-3', ['hold-account', 'hold-newcomer']);
    await archiveMessage('chat', 'hold-chat-3', 'Falcon follow-up');
    await archiveMessage('chat', 'hold-chat-2', 'Falcon again without them');
    const later = await call<EdiscoveryCase>('GET', `${api}/ediscovery/cases/${saved.caseId}`);
    expect(later.hold).toMatchObject({
      items: 3,
      custodians: [
        { kind: 'team', items: 1 },
        { kind: 'chats', items: 2 },
      ],
    });
    const subjects = await server.ctx.db.query<{ source: string }>(
      `select a.source from legal_hold_items h join archive_items a on a.id = h.item_id where h.case_id = $1 order by a.source`,
      [saved.caseId],
    );
    expect(subjects.map((s) => s.source)).toEqual(['hold-chat-1', 'hold-chat-3', 'hold-team']);
  });
});

describe('migration 025', () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    await seedDemo(testContext(db).ctx);
    return () => drop();
  });

  it("turns each existing hold's frozen scope into its custodians and releases nothing", async () => {
    const tenantId = TENANTS.contoso;
    const now = new Date('2026-11-02T08:00:00Z');
    // The database as it was before 025: no custodians, no role.
    await db.exec(`
      alter table ediscovery_cases drop column custodians;
      alter table users drop column ediscovery_manager;
      delete from schema_migrations where id = 25;
    `);
    const item = async (kind: string, source: string, subject: string) => {
      const [row] = await db.query<{ id: string }>(
        `insert into archive_items (tenant_id, kind, source, container, external_id, subject, blob_hash, archived_at,
                                    sent_at, search)
         values ($1, $2, $3, 'Inbox', $4, $5, 'h', $6, $6, to_tsvector('english', $5)) returning id::text`,
        [tenantId, kind, source, randomUUID(), subject, now],
      );
      return row?.id ?? '';
    };
    await db.query(
      `insert into archived_chats (tenant_id, chat_id, chat_type, name, member_ids, member_names, updated_at)
       values ($1, 'chat-1', 'oneOnOne', 'Chat', '{m1,x1}', '{M1,X1}', $2)`,
      [tenantId, now],
    );
    await db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, seen_at)
       values ($1, 'teams', 't3', 'team', 'Team three', $2)`,
      [tenantId, now],
    );
    const heldBefore = [
      await item('mail', 'm1', 'Falcon one'),
      await item('mail', 'm2', 'Falcon two'),
      await item('teams', 't1', 'Falcon channel'),
      await item('teams', 't2', 'Falcon other channel'),
      await item('chat', 'chat-1', 'Falcon chat'),
    ];
    const hold = async (caseId: string, search: object, scope: object | null, held: string[]): Promise<void> => {
      await db.query(
        `insert into ediscovery_cases (case_id, tenant_id, name, search, created_by, created_at, hits, held_at, held_by,
                                       hold_scope, hold_through)
         values ($1, $2, $1, $3, 'admin', $4, 0, $5, $6, $7, (select max(id) from archive_items))`,
        [
          caseId,
          tenantId,
          JSON.stringify(search),
          now,
          scope ? now : null,
          scope ? 'admin@contoso.example' : null,
          scope ? JSON.stringify(scope) : null,
        ],
      );
      for (const id of held)
        await db.query('insert into legal_hold_items (case_id, tenant_id, item_id) values ($1, $2, $3)', [
          caseId,
          tenantId,
          id,
        ]);
    };
    // Held with every kind, all teams (no teams named) and the chats of the mailboxes it could read.
    await hold(
      'all-kinds',
      { query: 'Falcon' },
      { kind: ['mail', 'teams', 'chat'], mailSources: ['m1', 'm2'], chatSources: ['chat-1'], text: 'Falcon' },
      heldBefore,
    );
    // Held with mail only and a team named: no chats, no team's messages.
    await hold(
      'mail-only',
      { query: 'Falcon', kinds: ['mail'], mailboxes: ['m1'], teams: ['t9'] },
      { kind: ['mail'], mailSources: ['m1'], chatSources: [], teamSources: ['t9'], text: 'Falcon' },
      [heldBefore[0] ?? ''],
    );
    await hold('not-held', { query: 'Falcon', mailboxes: ['m3'], teams: ['t1'] }, null, []);
    const [{ n: itemsBefore } = { n: 0 }] = await db.query<{ n: number }>(
      'select count(*)::int as n from legal_hold_items',
    );

    expect(await migrate(db)).toEqual([25]);

    const cases = Object.fromEntries(
      (
        await db.query<{ case_id: string; custodians: unknown; hold_scope: Record<string, unknown> | null }>(
          'select case_id, custodians, hold_scope from ediscovery_cases where tenant_id = $1',
          [tenantId],
        )
      ).map((r) => [r.case_id, r]),
    );
    expect(cases['all-kinds']?.custodians).toEqual({
      mailboxes: ['m1', 'm2'],
      teams: ['t1', 't2', 't3'],
      chats: ['m1', 'm2'],
    });
    expect(cases['all-kinds']?.hold_scope).toEqual({
      kind: ['mail', 'teams', 'chat'],
      mailSources: ['m1', 'm2'],
      teamSources: ['t1', 't2', 't3'],
      chatAccounts: ['m1', 'm2'],
      text: 'Falcon',
    });
    expect(cases['mail-only']?.custodians).toEqual({ mailboxes: ['m1'], teams: [], chats: [] });
    expect(cases['not-held']?.custodians).toEqual({ mailboxes: ['m3'], teams: ['t1'], chats: [] });
    const [{ n: itemsAfter } = { n: 0 }] = await db.query<{ n: number }>(
      'select count(*)::int as n from legal_hold_items',
    );
    expect(itemsAfter).toBe(itemsBefore);
    expect(await db.query('select 1 from users where ediscovery_manager')).toEqual([]);

    // What the holds kept of items archived later, they keep still: in their mailboxes, teams and chats.
    const later = [
      await item('mail', 'm2', 'Falcon later'),
      await item('teams', 't3', 'Falcon later channel'),
      await item('chat', 'chat-1', 'Falcon later chat'),
    ];
    const elsewhere = await item('mail', 'm9', 'Falcon elsewhere');
    await refreshHolds(db, tenantId);
    const held = await db.query<{ item_id: string }>(
      "select item_id::text from legal_hold_items where case_id = 'all-kinds'",
    );
    expect(new Set(held.map((h) => h.item_id))).toEqual(new Set([...heldBefore, ...later]));
    expect(held.map((h) => h.item_id)).not.toContain(elsewhere);
  });
});
