import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  evolve,
  expireDeltaTokens,
  quickXorHash,
  type RunningSimulator,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { sendGraphRequestsThrough } from '../src/m365/graph-client.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

interface Seen {
  url: string;
  authorised: boolean;
  redirect: RequestRedirect | undefined;
  status: number;
}

/**
 * What real Graph does to a job and the simulator can show: delta links refused with 410 Gone,
 * `/content` answering 302 to a pre-authenticated link on another origin, and bytes that do not match
 * the file's quickXorHash. The engine's traffic is watched at the Graph client's transport (sent through a fetch that
 * watches and changes it), as a proxy in the path would.
 */
describe('the jobs engine against what Microsoft Graph does', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-graph-robust-')) });
  const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-graph-robust-blobs-')));
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';
  const seen: Seen[] = [];
  /** Download links whose bytes are changed in transit. */
  const corrupt = new Set<string>();
  /** Items whose current content is corrupted in transit. */
  const corruptItems = new Set<string>();
  const realFetch = globalThis.fetch;

  // A simulated tenant of its own for each test: tests change it (new, deleted and corrupted files).
  beforeEach(async () => {
    corrupt.clear();
    corruptItems.clear();
    sim = await startSimulator({
      tenants: [
        {
          tenantId,
          size: { users: 2, sites: 1, teams: 1, filesPerDrive: 12, versionsPerFile: 2, messagesPerFolder: 4 },
        },
      ],
      pageSize: 5,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
  });
  afterEach(() => sim.close());

  beforeAll(async () => {
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
    token = await sessionToken(server, ADMIN);
    sendGraphRequestsThrough(async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const headers = new Headers(init?.headers);
      const response = await realFetch(input, init);
      if (url.startsWith(sim.graphBaseUrl) || url.includes('/download/')) {
        seen.push({
          url,
          authorised: headers.has('authorization'),
          redirect: init?.redirect,
          status: response.status,
        });
      }
      const item = /\/items\/([^/]+)\/content$/.exec(new URL(url).pathname)?.[1];
      const location = response.headers.get('location');
      if (item && corruptItems.has(decodeURIComponent(item)) && location) corrupt.add(location);
      if (corrupt.has(url)) {
        const bytes = new Uint8Array(await response.arrayBuffer());
        bytes[0] = (bytes[0] ?? 0) ^ 0xff;
        return new Response(bytes, { status: response.status, headers: response.headers });
      }
      return response;
    });
  });
  afterAll(() => {
    sendGraphRequestsThrough(undefined);
  });

  const create = async (body: object) => {
    const response = await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs`, token, body });
    if (response.statusCode !== 200) throw new Error(`create ${response.statusCode} ${response.body}`);
    return (response.json() as { jobId: string }).jobId;
  };
  const run = async (jobId: string) => {
    await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token });
    await engine.runUntilIdle();
    const [row] = await server.ctx.db.query<{
      run_id: string;
      status: string;
      message: string;
      items_done: number;
      items_failed: number;
    }>('select * from job_runs where job_id = $1 order by seq desc limit 1', [jobId]);
    if (!row) throw new Error('no run');
    return row;
  };
  const stored = async (jobId: string) => {
    const [row] = await server.ctx.db.query<{ rows: number; versions: number; files: number; deleted: number }>(
      `select count(*)::int as rows, count(distinct (item_id, version_id))::int as versions,
              count(distinct item_id) filter (where deleted_seq is null)::int as files,
              count(distinct item_id) filter (where deleted_seq is not null)::int as deleted
         from backup_items where job_id = $1 and kind = 'file'`,
      [jobId],
    );
    if (!row) throw new Error('no rows');
    return row;
  };
  const user = (index: number) => {
    const u = sim.state.tenant(tenantId).users[index];
    if (!u) throw new Error('no user');
    return u;
  };
  const liveFiles = (index: number) =>
    [...(sim.state.tenant(tenantId).drives.get(user(index).driveId)?.items.values() ?? [])].filter(
      (i) => i.kind === 'file' && !i.deleted,
    );

  const oneDriveBackup = () =>
    create({
      name: 'OneDrive robust',
      type: 'backup',
      application: 'onedrive',
      sources: [user(0).id],
    });

  it('follows /content redirects itself, sending the bearer token to Graph and never to the download link', async () => {
    const backupId = await oneDriveBackup();
    const mark = seen.length;
    const first = await run(backupId);
    expect(first).toMatchObject({ status: 'finished', items_failed: 0 });
    const traffic = seen.slice(mark);
    const content = traffic.filter((s) => /\/content$/.test(new URL(s.url).pathname));
    const downloads = traffic.filter((s) => s.url.includes('/download/'));
    console.log(
      `Content requests: ${content.length} (302: ${content.filter((s) => s.status === 302).length}), download links followed: ${downloads.length}`,
    );
    expect(content.length).toBeGreaterThanOrEqual(12);
    expect(content.every((s) => s.status === 302 && s.authorised && s.redirect === 'manual')).toBe(true);
    expect(downloads).toHaveLength(content.length);
    expect(downloads.every((s) => !s.authorised && s.status === 200)).toBe(true);
    expect(await stored(backupId)).toMatchObject({ files: 12, versions: 24, rows: 24, deleted: 0 });
  });

  describe('with a OneDrive backup run once', () => {
    let backupId = '';
    beforeEach(async () => {
      backupId = await oneDriveBackup();
      expect(await run(backupId)).toMatchObject({ status: 'finished', items_failed: 0 });
    });

    it('reads a drive again in full when Graph refuses its expired delta link with 410: nothing twice, deletions found, and the run says so', async () => {
      const before = await stored(backupId);
      const gone = liveFiles(0)[0];
      const tenant = sim.state.tenant(tenantId);
      evolve(tenant, { newFiles: 2, deletedFiles: 0, editedFiles: 0 });
      if (!gone) throw new Error('no file');
      gone.deleted = true;
      tenant.clock += 1;
      gone.changed = tenant.clock;
      expireDeltaTokens(tenant);
      const mark = seen.length;
      const second = await run(backupId);
      const refused = seen.slice(mark).filter((s) => s.status === 410);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(second.status).toBe('finished');
      expect(second.message).toMatch(/change token of 1 drive .*read again in full, without storing any item twice/);
      const after = await stored(backupId);
      const live = liveFiles(0).length;
      // Two new files across the tenant's drives; this drive's live files are what the simulator holds.
      expect(after.files).toBe(live);
      expect(after.rows).toBe(after.versions);
      expect(after.deleted).toBe(1);
      expect(after.versions).toBeGreaterThanOrEqual(before.versions);
      // The new delta link works: the next run reads changes only, and says nothing of a resync.
      const third = await run(backupId);
      expect(third.message).not.toMatch(/read again in full/);
      expect(await stored(backupId)).toEqual(after);
    });
  });

  it('archives a mailbox again in full when its mail delta link is refused (tampered), without fetching or storing a message twice', async () => {
    const jobId = await create({
      name: 'Mail robust',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [user(1).id],
    });
    // The mailbox as discovery found it: the run names it so.
    await server.ctx.db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, 'exchange', $2, 'mailbox', $3, $4, $5) on conflict do nothing`,
      [tenantId, user(1).id, user(1).displayName, user(1).upn, server.ctx.now()],
    );
    const first = await run(jobId);
    expect(first).toMatchObject({ status: 'finished', items_failed: 0 });
    const count = async () =>
      Number(
        (
          await server.ctx.db.query<{ n: number }>(
            `select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'mail' and source = $2`,
            [tenantId, user(1).id],
          )
        )[0]?.n,
      );
    const archived = await count();
    expect(archived).toBeGreaterThan(0);
    // A token Graph did not issue (its signature changed) answers 410 syncStateNotFound.
    await server.ctx.db.query(
      `update job_delta_links set delta_link = regexp_replace(delta_link, '(deltatoken=)(.)', '\\1Z\\2') where job_id = $1`,
      [jobId],
    );
    const mark = seen.length;
    const second = await run(jobId);
    const traffic = seen.slice(mark);
    expect(traffic.filter((s) => s.status === 410).length).toBeGreaterThanOrEqual(1);
    expect(second.status).toBe('finished');
    expect(second.message).toMatch(/mail folders? .*read again in full/);
    // Each folder under its mailbox's name, not the mailbox's id.
    expect(second.message).toContain(`${user(1).displayName}: Inbox`);
    expect(second.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(traffic.filter((s) => s.url.endsWith('/$value'))).toHaveLength(0);
    expect(await count()).toBe(archived);
  });

  it('records a download whose bytes do not match the quickXorHash as an item failure, and stores it once it matches', async () => {
    const target = liveFiles(1)[0];
    if (!target) throw new Error('no file');
    corruptItems.add(target.id);
    const jobId = await create({
      name: 'OneDrive hash',
      type: 'backup',
      application: 'onedrive',
      sources: [user(1).id],
    });
    const first = await run(jobId);
    expect(first).toMatchObject({ status: 'finished', items_failed: 1 });
    const errors = await server.ctx.db.query<{ message: string; permanent: boolean; attempts: number }>(
      'select message, permanent, attempts from job_run_errors where run_id = $1',
      [first.run_id],
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^Downloaded content does not match its quickXorHash/);
    expect(errors[0]).toMatchObject({ permanent: false, attempts: 3 });
    const [kept] = await server.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from backup_items where job_id = $1 and item_id = $2 and is_latest`,
      [jobId, target.id],
    );
    expect(kept?.n).toBe(0);
    // Not a known failure: once the bytes arrive intact, the next run stores the file.
    corruptItems.clear();
    corrupt.clear();
    await server.ctx.db.query('delete from job_delta_links where job_id = $1', [jobId]);
    const second = await run(jobId);
    expect(second).toMatchObject({ status: 'finished', items_failed: 0 });
    const [row] = await server.ctx.db.query<{ hash: string }>(
      `select hash from backup_items where job_id = $1 and item_id = $2 and is_latest`,
      [jobId, target.id],
    );
    expect(row).toBeDefined();
  });

  it('computes the quickXorHash Graph lists for the files it serves', async () => {
    const file = liveFiles(1)[1];
    if (!file) throw new Error('no file');
    const drive = user(1).driveId;
    const listed = (await (
      await realFetch(`${sim.graphBaseUrl}/drives/${drive}/items/${file.id}`, {
        headers: { authorization: `Bearer ${await simToken()}` },
      })
    ).json()) as { file: { hashes: { quickXorHash: string } }; '@microsoft.graph.downloadUrl': string };
    const bytes = new Uint8Array(await (await realFetch(listed['@microsoft.graph.downloadUrl'])).arrayBuffer());
    expect(quickXorHash(bytes)).toBe(listed.file.hashes.quickXorHash);
  });

  async function simToken() {
    const response = await realFetch(`${sim.authorityHost}/${tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'robust',
        client_secret: 'x',
        scope: 'https://graph.microsoft.com/.default',
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }
});
