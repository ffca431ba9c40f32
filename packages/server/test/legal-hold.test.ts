import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeletionPreview, EdiscoveryCase, HeldItem, Mailbox, Page } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveMail } from '../src/archive-data/archive.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { executors } from '../src/jobs/executors.js';
import { ADMIN, discovered, jobsApi, PARTNER, sessionToken, TENANTS, useTestServer } from './helpers.js';

/** A mail sent on 1 September 2026, two months before the tests' clock. */
const oldMail = (subject: string) =>
  new TextEncoder().encode(
    [
      'From: Adele Vance <adele@contoso.example>',
      'To: Alex Wilber <alex@contoso.example>',
      `Subject: ${subject}`,
      'Date: Tue, 01 Sep 2026 09:00:00 +0000',
      'MIME-Version: 1.0',
      '',
      `About ${subject}.`,
    ].join('\r\n'),
  );

/**
 * Legal hold end to end: cases held and released through the API, archive deletion jobs run by the
 * engine, the preview, the report's kept items, the mailbox list; scopes as eDiscovery's search has them.
 * Each test makes its own mailboxes, mail, case and deletion job (tests run in a random order).
 */
describe('legal hold on eDiscovery cases', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-legal-hold-')) });
  const tenantId = TENANTS.contoso;
  const api = `/apollo-beta/api/${tenantId}`;
  let token = '';
  let plane: DataPlane;
  let engine: JobEngine;
  let sequence = 0;

  const call = async <T>(method: string, url: string, body?: object, status = 200) => {
    const response = await server.request({ method, url, token, ...(body ? { body } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const hold = (caseId: string) => call<EdiscoveryCase>('POST', `${api}/ediscovery/cases/${caseId}/hold`);
  const release = (caseId: string) => call<EdiscoveryCase>('DELETE', `${api}/ediscovery/cases/${caseId}/hold`);
  const audits = (action: string, target: string) =>
    server.ctx.db.query<{ outcome: string; details: { items: number } }>(
      'select outcome, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  const heldItems = (runId: string, query = '') =>
    call<Page<HeldItem>>('GET', `${api}/reporting/${runId}/held-items${query}`);

  /** Archives a mail of two months ago with this subject into the mailbox; its archive id. */
  const archive = async (mailbox: string, subject: string) => {
    sequence += 1;
    const externalId = `legal-hold-${sequence}`;
    await archiveMail(server.ctx.db, await plane.storeAt(null), {
      tenantId,
      jobId: null,
      source: mailbox,
      folder: 'Inbox',
      externalId,
      mime: oldMail(subject),
      now: server.ctx.now(),
    });
    const [row] = await server.ctx.db.query<{ id: string }>(
      'select id::text from archive_items where tenant_id = $1 and source = $2 and external_id = $3',
      [tenantId, mailbox, externalId],
    );
    return row?.id ?? '';
  };

  /**
   * Two mailboxes of a test's own: the administrator's (discovered with their address) and the
   * board's, which they read only while they hold a proxy right to it; a case searching "Falcon" in
   * them, and a deletion job over both with a retention of 30 days (the tests' mail is two months old).
   */
  async function world(name: string) {
    const own = `${name}-own`;
    const board = `${name}-board`;
    const rightId = `${name}-right`;
    await server.ctx.db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, 'exchange', $2, 'mailbox', $2, $3, $4)`,
      [tenantId, own, ADMIN, server.ctx.now()],
    );
    await discovered(server, tenantId, 'exchange', [board]);
    // The job names mailboxes that are archived already.
    const seeded = { own: await archive(own, 'Parking'), board: await archive(board, 'Holiday rota') };
    const { jobId } = await jobsApi(server, tenantId, () => token).create({
      name: `${name} retention`,
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [own, board],
      retention: { unit: 'days', value: 30 },
    });
    return {
      own,
      board,
      seeded,
      archive,
      grant: () =>
        server.ctx.db.query(
          `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind,
                                     principal_name, principal_email, granted_by, granted_at)
           values ($1, $2, $3, 'Board', 'admin', 'account', 'Admin', $4, $4, $5)`,
          [rightId, tenantId, board, ADMIN, server.ctx.now()],
        ),
      revoke: () => server.ctx.db.query('delete from proxy_rights where right_id = $1', [rightId]),
      createCase: () =>
        call<EdiscoveryCase>(
          'POST',
          `${api}/ediscovery/cases`,
          { name, search: { query: 'Falcon', kinds: ['mail'], mailboxes: [own, board] } },
          201,
        ),
      preview: () =>
        call<DeletionPreview>('POST', `${api}/jobs/deletion-preview`, {
          application: 'exchange',
          sources: [own, board],
          retention: { unit: 'days', value: 30 },
        }),
      /** Runs the deletion job to its end. */
      async run() {
        const { run } = await jobsApi(server, tenantId, () => token).start(jobId, engine);
        expect(run.status).toBe('finished');
        return run as { run_id: string; message: string; items_done: number };
      },
      /** The ids still archived of the two mailboxes. */
      async remaining() {
        const rows = await server.ctx.db.query<{ id: string }>(
          'select id::text from archive_items where tenant_id = $1 and source = any($2)',
          [tenantId, [own, board]],
        );
        return new Set(rows.map((r) => r.id));
      },
    };
  }

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    plane = createDataPlane(server.ctx);
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
  });

  it('holds what the search finds now, once however often it is asked, audited', async () => {
    const w = await world('audited');
    await w.grant();
    await w.archive(w.own, 'Falcon plan');
    await w.archive(w.board, 'Falcon board minutes');
    await w.archive(w.board, 'Falcon budget');
    const saved = await w.createCase();
    expect(saved.hold).toBeNull();
    const held = await hold(saved.caseId);
    expect(held.hold).toMatchObject({ heldBy: ADMIN, items: 3 });
    expect((await hold(saved.caseId)).hold).toEqual(held.hold);
    const entries = await audits('ediscovery.case.hold', saved.caseId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'success', details: { items: 3 } });
    const listed = await call<EdiscoveryCase[]>('GET', `${api}/ediscovery/cases`);
    expect(listed.find((c) => c.caseId === saved.caseId)?.hold?.items).toBe(3);
  });

  it('a deletion run keeps exactly the held items, those archived later too, and reports them', async () => {
    const w = await world('kept');
    await w.grant();
    const plan = await w.archive(w.own, 'Falcon plan');
    const figures = await w.archive(w.own, 'Falcon figures');
    const minutes = await w.archive(w.board, 'Falcon board minutes');
    const { caseId } = await w.createCase();
    await hold(caseId);
    // The holder loses the right to the board's mailbox: the hold keeps the scope it had.
    await w.revoke();
    const memo = await w.archive(w.own, 'Falcon late memo');
    const addendum = await w.archive(w.board, 'Falcon board addendum');
    await w.archive(w.board, 'Canteen survey');
    expect(await w.preview()).toMatchObject({ held: 5, items: 3, sources: 2 });

    const run = await w.run();
    const kept = new Set([plan, figures, minutes, memo, addendum]);
    expect(await w.remaining()).toEqual(kept);
    expect(Number(run.items_done)).toBe(3);
    expect(run.message).toContain('Kept 5 items on legal hold');
    const report = await heldItems(run.run_id, '?pageSize=500');
    expect(report.total).toBe(5);
    expect(new Set(report.items.map((i) => i.itemId))).toEqual(kept);
    expect(report.items.every((i) => i.caseId === caseId && i.caseName === 'kept')).toBe(true);
    // Without the right the board's subjects are not shown, as eDiscovery would not show them.
    expect(report.items.find((i) => i.itemId === minutes)).toMatchObject({
      source: w.board,
      subject: null,
      sentAt: '2026-09-01T09:00:00.000Z',
    });
    await w.grant();
    const page = await heldItems(run.run_id, '?sort=subject&order=asc&search=falcon&pageSize=2&page=2');
    expect(page).toMatchObject({ total: 5, page: 2 });
    expect(page.items.map((i) => i.subject)).toEqual(['Falcon figures', 'Falcon late memo']);
    // The held items' content stays readable: their blobs were not collected.
    await call('GET', `${api}/ediscovery/items/${minutes}`);
  });

  it('shows the held items per mailbox in the mailbox list', async () => {
    const w = await world('listed');
    await w.grant();
    await w.archive(w.own, 'Falcon plan');
    await w.archive(w.own, 'Falcon figures');
    await w.archive(w.board, 'Falcon board minutes');
    await hold((await w.createCase()).caseId);
    await w.archive(w.board, 'Falcon late');
    const [worker] = await server.ctx.db.query<{ worker_ip: string; index_ip: string }>(
      'select worker_ip, index_ip from workers where stagingtenant_id = $1',
      [tenantId],
    );
    const list = await call<Page<Mailbox>>(
      'GET',
      `/api/archive/mailboxes/${worker?.worker_ip}/${worker?.index_ip}?search=listed&pageSize=100`,
    );
    expect(Object.fromEntries(list.items.map((m) => [m.mailboxId, m.held]))).toEqual({
      [w.own]: 2,
      [w.board]: 2,
    });
  });

  it('refuses to delete a held case, with a code', async () => {
    const w = await world('undeletable');
    const { caseId } = await w.createCase();
    await hold(caseId);
    const response = await server.request({ method: 'DELETE', url: `${api}/ediscovery/cases/${caseId}`, token });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'caseOnLegalHold' });
    await call('GET', `${api}/ediscovery/cases/${caseId}`);
  });

  it('refuses a partner who has not the tenant as a client, as search does', async () => {
    const w = await world('partner');
    await w.archive(w.own, 'Falcon plan');
    const { caseId } = await w.createCase();
    const partner = await sessionToken(server, PARTNER);
    const search = await server.request({
      method: 'POST',
      url: `${api}/ediscovery/search`,
      token: partner,
      body: { query: 'Falcon' },
    });
    expect(search.statusCode).toBe(404);
    for (const method of ['POST', 'DELETE']) {
      const response = await server.request({ method, url: `${api}/ediscovery/cases/${caseId}/hold`, token: partner });
      expect(response.statusCode).toBe(search.statusCode);
    }
    expect((await call<EdiscoveryCase>('GET', `${api}/ediscovery/cases/${caseId}`)).hold).toBeNull();
  });

  it('once released, the next run removes what it kept, and the case may be deleted', async () => {
    const w = await world('released');
    await w.grant();
    const plan = await w.archive(w.own, 'Falcon plan');
    const minutes = await w.archive(w.board, 'Falcon board minutes');
    const { caseId } = await w.createCase();
    await hold(caseId);
    await w.run();
    expect(await w.remaining()).toEqual(new Set([plan, minutes]));

    const released = await release(caseId);
    expect(released.hold).toBeNull();
    expect(await release(caseId)).toEqual(released);
    const entries = await audits('ediscovery.case.release', caseId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'success', details: { items: 2 } });
    expect(await w.preview()).toMatchObject({ held: 0, items: 2 });
    const run = await w.run();
    expect(Number(run.items_done)).toBe(2);
    expect(run.message).not.toContain('legal hold');
    expect(await w.remaining()).toEqual(new Set());
    expect((await heldItems(run.run_id)).total).toBe(0);
    const deleted = await server.request({ method: 'DELETE', url: `${api}/ediscovery/cases/${caseId}`, token });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
  });

  it("holds every matching item of the case's custodians, whether or not the holder may read them", async () => {
    // The holder reads their own mailbox only; the case names it and two others, and a fourth is no custodian.
    const mailboxes = {
      own: ['custodians-own', 'Compliance Officer', ADMIN],
      board: ['custodians-board', 'Board Room', null],
      finance: ['custodians-finance', 'Finance Team', null],
      other: ['custodians-other', 'Other Person', null],
    } as const;
    for (const [id, displayName, email] of Object.values(mailboxes)) {
      await server.ctx.db.query(
        `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
         values ($1, 'exchange', $2, 'mailbox', $3, $4, $5)`,
        [tenantId, id, displayName, email, server.ctx.now()],
      );
    }
    const [own, board, finance, other] = [
      mailboxes.own[0],
      mailboxes.board[0],
      mailboxes.finance[0],
      mailboxes.other[0],
    ];
    const all = [own, board, finance, other];
    for (const mailbox of all) await archive(mailbox, 'Parking');
    const held = new Set([
      await archive(own, 'Falcon plan'),
      await archive(board, 'Falcon board minutes'),
      await archive(board, 'Falcon budget'),
      await archive(finance, 'Falcon invoice'),
    ]);
    const gossip = await archive(other, 'Falcon gossip');
    const { jobId } = await jobsApi(server, tenantId, () => token).create({
      name: 'custodians retention',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: all,
      retention: { unit: 'days', value: 30 },
    });
    const saved = await call<EdiscoveryCase>(
      'POST',
      `${api}/ediscovery/cases`,
      { name: 'custodians', search: { query: 'Falcon', kinds: ['mail'], mailboxes: [own, board, finance] } },
      201,
    );
    expect(saved.custodians).toEqual([
      { kind: 'mailbox', id: own, name: 'Compliance Officer' },
      { kind: 'mailbox', id: board, name: 'Board Room' },
      { kind: 'mailbox', id: finance, name: 'Finance Team' },
    ]);
    // Saved for the reader, the case found what they may read: their own mailbox's plan.
    expect(saved.hits).toBe(1);

    const { hold: placed } = await hold(saved.caseId);
    expect(placed).toMatchObject({
      items: 4,
      custodians: [
        { kind: 'mailbox', id: own, name: 'Compliance Officer', items: 1 },
        { kind: 'mailbox', id: board, name: 'Board Room', items: 2 },
        { kind: 'mailbox', id: finance, name: 'Finance Team', items: 1 },
      ],
    });
    expect((await audits('ediscovery.case.hold', saved.caseId))[0]?.details).toMatchObject({ items: 4 });
    // Reading stays the proxy rights': the holder's search of the case shows their own mail only.
    const found = await call<{ items: { itemId: string }[]; total: number }>('POST', `${api}/ediscovery/search`, {
      ...saved.search,
    });
    expect(found.items.map((i) => i.itemId)).toEqual([...held].slice(0, 1));

    // Archived later: a custodian's matching mail joins the hold, a non-custodian's does not.
    const late = await archive(board, 'Falcon late memo');
    const lateGossip = await archive(other, 'Falcon late gossip');
    const preview = await call<DeletionPreview>('POST', `${api}/jobs/deletion-preview`, {
      application: 'exchange',
      sources: all,
      retention: { unit: 'days', value: 30 },
    });
    expect(preview).toMatchObject({ held: 5, items: 6 });
    expect(preview.heldCustodians).toEqual([
      { caseId: saved.caseId, caseName: 'custodians', kind: 'mailbox', id: board, name: 'Board Room', items: 3 },
      {
        caseId: saved.caseId,
        caseName: 'custodians',
        kind: 'mailbox',
        id: own,
        name: 'Compliance Officer',
        items: 1,
      },
      { caseId: saved.caseId, caseName: 'custodians', kind: 'mailbox', id: finance, name: 'Finance Team', items: 1 },
    ]);

    const { run } = await jobsApi(server, tenantId, () => token).start(jobId, engine);
    expect(run.status).toBe('finished');
    const remaining = await server.ctx.db.query<{ id: string }>(
      'select id::text from archive_items where tenant_id = $1 and source = any($2)',
      [tenantId, all],
    );
    expect(new Set(remaining.map((r) => r.id))).toEqual(new Set([...held, late]));
    expect(remaining.map((r) => r.id)).not.toContain(gossip);
    expect(remaining.map((r) => r.id)).not.toContain(lateGossip);
    // The run's report lists every kept item, their subjects only where the reader may read them.
    const report = await heldItems(String(run.run_id), '?pageSize=500&sort=subject&order=asc');
    expect(report.total).toBe(5);
    expect(report.items.map((i) => [i.source, i.subject])).toEqual(
      expect.arrayContaining([
        [own, 'Falcon plan'],
        [board, null],
        [finance, null],
      ]),
    );
  });
});
