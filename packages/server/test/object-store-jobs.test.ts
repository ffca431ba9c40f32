/**
 * Jobs with their blobs in Azure Blob Storage (PORTAL_BLOB_STORE, here Azurite): the real engine,
 * executors and Graph client against the simulator. A backup stores each content once in the
 * container and restores the same bytes; retention removes archived mail's blobs from it; a store
 * that goes away mid-run loses nothing: the next run stores what the interrupted one could not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import type { RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createAzureBlobStore } from '../src/storage/azure-blob-store.js';
import { azureContainer } from '../src/storage/stores.js';
import { type Azurite, outageProxy, startAzurite } from './azurite.js';
import {
  ADMIN,
  createTestServer,
  fileRestore,
  jobsApi,
  sessionToken,
  simulatedTenant,
  simulatorGraph,
  TENANTS,
  type TestServer,
} from './helpers.js';

describe('jobs with their blobs in Azure Blob Storage', () => {
  const tenantId = TENANTS.contoso;
  let azurite: Azurite;
  let server: TestServer & { close(): Promise<void> };
  let container: ContainerClient;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';
  const users: { id: string; upn: string }[] = [];

  beforeAll(async () => {
    azurite = await startAzurite();
    container = await azurite.container('portal-jobs');
    server = await createTestServer({
      dataDir: mkdtempSync(join(tmpdir(), 'portal-object-store-jobs-')),
      blobStore: { url: azurite.containerUrl('portal-jobs'), accountKey: azurite.accountKey },
    });
    token = await sessionToken(server, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await azurite?.stop();
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      { users: 3, sites: 1, teams: 1, filesPerDrive: 12, versionsPerFile: 3, messagesPerFolder: 4 },
      8,
    );
    // The data plane as the server makes it: its blob store from the configuration.
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx)), heartbeatMs: 50 });
    users.length = 0;
    for (const u of sim.state.tenant(tenantId).users) users.push({ id: u.id, upn: u.upn });
  });
  afterEach(() => sim.close());

  const create = (body: object) => jobsApi(server, tenantId, () => token).create(body);
  /** The job's newest run once `using` has run it to the end. */
  const start = async (jobId: string, using = engine) =>
    (await jobsApi(server, tenantId, () => token).start(jobId, using)).run;
  const graph = () => simulatorGraph(sim, tenantId);
  /** The names of the blobs in the container. */
  const stored = async () => {
    const names = new Set<string>();
    for await (const blob of container.listBlobsFlat()) names.add(blob.name);
    return names;
  };
  const backupHashes = async (jobId: string) =>
    (
      await server.ctx.db.query<{ hash: string }>(
        "select distinct hash from backup_items where job_id = $1 and kind = 'file' and hash is not null",
        [jobId],
      )
    ).map((r) => r.hash);

  it('backs up into the container, each content once, and restores the same bytes', async () => {
    const job = await create({ name: 'OneDrive', type: 'backup', application: 'onedrive', sources: [users[0]?.upn] });
    const run = await start(job.jobId);
    expect(run).toMatchObject({ status: 'finished', items_done: 12, items_failed: 0 });
    const [versions] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from backup_items where job_id = $1 and kind = 'file'",
      [job.jobId],
    );
    const hashes = await backupHashes(job.jobId);
    const names = await stored();
    expect(versions?.n).toBe(36);
    // Templates repeat across files: fewer blobs than versions, each one in the container.
    expect(hashes.length).toBeLessThan(36);
    for (const hash of hashes) expect(names.has(hash), hash).toBe(true);

    const [file] = await server.ctx.db.query<{ item_id: string; source_id: string; name: string; path: string }>(
      `select item_id, source_id, name, path from backup_items where job_id = $1 and kind = 'file' and is_latest
        order by path limit 1`,
      [job.jobId],
    );
    const g = graph();
    const from = await g.userDrive(users[0]?.upn ?? '');
    const original = await g.itemContent(from.id ?? '', file?.item_id ?? '');
    await create(fileRestore('Restore', job.jobId, file, { target: 'other', targetId: users[2]?.upn ?? '' }));
    const outcomes = await engine.runUntilIdle();
    expect(outcomes.map((o) => o.status)).toEqual(['finished']);
    const to = await g.userDrive(users[2]?.upn ?? '');
    const restored = await g.itemByPath(to.id ?? '', file?.path ?? '');
    const bytes = await g.itemContent(to.id ?? '', restored?.id ?? '');
    expect(bytes.length).toBeGreaterThan(0);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(original))).toBe(0);
  });

  it("removes archived mail's blobs from the container by retention", async () => {
    const job = await create({
      name: 'Mail',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [users[0]?.upn],
      folders: ['Inbox'],
    });
    const archived = await start(job.jobId);
    expect(archived).toMatchObject({ status: 'finished', items_failed: 0 });
    const held = (
      await server.ctx.db.query<{ blob_hash: string }>('select blob_hash from archive_items where job_id = $1', [
        job.jobId,
      ])
    ).map((r) => r.blob_hash);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBe(Number(archived.items_done));
    const before = await stored();
    for (const hash of held) expect(before.has(hash)).toBe(true);
    const purge = await create({
      name: 'Purge mail',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [users[0]?.upn],
      // The simulated mail is from September; the test clock is in November.
      retention: { unit: 'days', value: 30 },
    });
    expect(await start(purge.jobId)).toMatchObject({ status: 'finished', items_done: held.length });
    const after = await stored();
    for (const hash of held) expect(after.has(hash), hash).toBe(false);
  });

  it('loses nothing when the store goes away mid-run: the next run stores what the first could not', {
    timeout: 200_000,
  }, async () => {
    // A container of its own, empty, so every content of the run is new to it, reached through a
    // proxy that can be cut.
    await azurite.container('portal-outage');
    const proxy = await outageProxy(azurite.port);
    const own = azureContainer(azurite.containerUrl('portal-outage', proxy.port), azurite.accountKey);
    const plane = createDataPlane(server.ctx, createAzureBlobStore(own));
    const outageEngine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    const job = await create({ name: 'OneDrive 2', type: 'backup', application: 'onedrive', sources: [users[1]?.upn] });
    const count = async () => {
      let n = 0;
      for await (const _ of own.listBlobsFlat()) n += 1;
      return n;
    };
    const run = (jobId = job.jobId) => start(jobId, outageEngine);
    // The store goes away once the run has stored a few blobs.
    let ended = false;
    const outage = (async () => {
      while (!ended && (await count()) < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      await proxy.cut();
    })();
    const first = await run();
    ended = true;
    await outage;
    await proxy.restore();
    expect(Number(first.items_failed) + (first.status === 'failed' ? 1 : 0)).toBeGreaterThan(0);
    const second = await run();
    expect(second).toMatchObject({ status: 'finished', items_failed: 0 });
    const [versions] = await server.ctx.db.query<{ files: number; n: number }>(
      "select count(distinct item_id)::int as files, count(*)::int as n from backup_items where job_id = $1 and kind = 'file'",
      [job.jobId],
    );
    expect(versions).toEqual({ files: 12, n: 36 });
    for (const hash of await backupHashes(job.jobId)) {
      const content = await plane.blobs.get(hash);
      expect(content.length).toBeGreaterThan(0);
    }

    // Mail while the store is away: none archived, and the next run archives every message.
    const mail = await create({
      name: 'Mail 2',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [users[1]?.upn],
      folders: ['Inbox'],
    });
    await proxy.cut();
    const away = await run(mail.jobId);
    await proxy.restore();
    expect(Number(away.items_failed)).toBeGreaterThan(0);
    expect(Number(away.items_done)).toBe(0);
    const back = await run(mail.jobId);
    expect(back).toMatchObject({ status: 'finished', items_failed: 0, items_done: Number(away.items_failed) });
    const [archived] = await server.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from archive_items where job_id = $1',
      [mail.jobId],
    );
    expect(archived?.n).toBe(Number(away.items_failed));
    await proxy.close();
  });
});
