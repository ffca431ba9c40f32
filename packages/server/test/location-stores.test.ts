/**
 * Storage locations in object stores: a location's site address selects Azure Blob Storage (here
 * Azurite) or S3 (here s3rver), its credentials kept sealed; the store is tested when the location is
 * saved and a failure named; a job writes to its location's store and everything that reads its items
 * (restore, mail restore, retention) reads them there, a restore's download ZIP kept there too; data
 * once written keeps its location.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ContainerClient } from '@azure/storage-blob';
import type { RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { storeAddress, storeLocationText } from '../src/storage/location-stores.js';
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
import { freePort } from './process.js';
import { type S3rver, startS3rver } from './s3rver.js';
import { readZip } from './zip-reader.js';

interface Location {
  locationId: string;
  name: string;
  siteAddress: string;
  store: string;
  storeAddress?: string;
  probe?: { at: string; ok: boolean; code?: string; reason?: string } | null;
  accessKeyId?: string;
  hasSecret: boolean;
}

describe('site addresses', () => {
  it('name Azure containers, S3 buckets, or the server store, and say what is wrong in words', () => {
    expect(storeAddress('https://portalstore.blob.core.windows.net/backups/contoso/2026')).toEqual({
      kind: 'azureBlob',
      containerUrl: 'https://portalstore.blob.core.windows.net/backups',
      prefix: 'contoso/2026/',
    });
    expect(storeAddress('azure+http://127.0.0.1:10000/devstoreaccount1/portal?sv=2024&sig=x')).toEqual({
      kind: 'azureBlob',
      containerUrl: 'http://127.0.0.1:10000/devstoreaccount1/portal?sv=2024&sig=x',
      prefix: '',
    });
    expect(storeAddress('s3://portal-backups/contoso?endpoint=http://127.0.0.1:9000/&region=eu-central-1')).toEqual({
      kind: 's3',
      bucket: 'portal-backups',
      prefix: 'contoso/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
    });
    expect(storeAddress('s3://portal-backups')).toEqual({ kind: 's3', bucket: 'portal-backups', prefix: '' });
    expect(storeAddress('https://contoso.sharepoint.com/sites/compliance-backup')).toEqual({ kind: 'server' });
    expect(() => storeAddress('s3://A')).toThrow(/bucket/);
    expect(() => storeAddress('s3://portal?endpoint=ftp://x')).toThrow(/endpoint/);
    expect(() => storeAddress('https://portalstore.blob.core.windows.net/')).toThrow(/container/);
    expect(() => storeAddress('azure+http://127.0.0.1:10000/')).toThrow(/account/);
  });

  it("say where the bytes go without the SAS, an endpoint's user or anything else that signs", () => {
    const text = (address: string) => {
      const parsed = storeAddress(address);
      if (parsed.kind === 'server') throw new Error(`${address} is the server's store`);
      return storeLocationText(parsed);
    };
    expect(text('https://portalstore.blob.core.windows.net/backups/contoso?sv=2024-05-04&sig=SECRETSIG')).toBe(
      'https://portalstore.blob.core.windows.net/backups/contoso/',
    );
    expect(text('azure+http://127.0.0.1:10000/devstoreaccount1/portal')).toBe(
      'http://127.0.0.1:10000/devstoreaccount1/portal/',
    );
    expect(text('s3://portal-backups/contoso?endpoint=http://minio:pass@10.0.0.5:9000/&region=eu-central-1')).toBe(
      's3://portal-backups/contoso/ (http://10.0.0.5:9000, eu-central-1)',
    );
    expect(text('s3://portal-backups')).toBe('s3://portal-backups/');
  });
});

describe('storage locations in object stores', () => {
  const tenantId = TENANTS.contoso;
  let azurite: Azurite;
  let s3: S3rver;
  let server: TestServer & { close(): Promise<void> };
  let container: ContainerClient;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';
  const users: { id: string; upn: string }[] = [];

  beforeAll(async () => {
    [azurite, s3] = await Promise.all([startAzurite(), startS3rver(['portal-locations'])]);
    container = await azurite.container('portal-locations');
    server = await createTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-location-stores-')) });
    token = await sessionToken(server, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await Promise.all([azurite?.stop(), s3?.stop()]);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      { users: 3, sites: 1, teams: 1, filesPerDrive: 6, versionsPerFile: 2, messagesPerFolder: 4 },
      8,
    );
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx)), heartbeatMs: 50 });
    users.length = 0;
    for (const u of sim.state.tenant(tenantId).users) users.push({ id: u.id, upn: u.upn });
  });
  afterEach(() => sim.close());

  const base = `/apollo/api/${tenantId}/locations`;
  const api = (method: string, url: string, body?: object) =>
    server.request({ method, url, token, ...(body ? { body } : {}) });
  let named = 0;
  /** Saves a location; the answer as it came. */
  const save = (body: object, locationId?: string) =>
    locationId ? api('PUT', `${base}/${locationId}`, body) : api('POST', base, { name: `Store ${++named}`, ...body });
  const saved = async (body: object, locationId?: string) => {
    const response = await save(body, locationId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Location;
  };
  /** A new prefix in the shared container or bucket, so each test sees only its own objects. */
  const prefix = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const azureAddress = (p: string, port = azurite.port) =>
    `azure+${azurite.containerUrl('portal-locations', port)}/${p}`;
  const s3Address = (p: string, port = s3.port) => `s3://portal-locations/${p}?endpoint=${s3.endpoint(port)}`;
  const s3Credentials = () => {
    const { accessKeyId = '', secretAccessKey = '' } = s3.location('portal-locations');
    return { accessKeyId, secret: secretAccessKey };
  };
  const azureNames = async (p: string) => {
    const names: string[] = [];
    for await (const blob of container.listBlobsFlat({ prefix: `${p}/` })) names.push(blob.name.slice(p.length + 1));
    return names;
  };
  const s3Names = async (p: string) => {
    const page = await s3
      .bucket('portal-locations')
      .send(new ListObjectsV2Command({ Bucket: 'portal-locations', Prefix: `${p}/` }));
    return (page.Contents ?? []).map((o) => (o.Key ?? '').slice(p.length + 1));
  };
  const create = (body: object) => jobsApi(server, tenantId, () => token).create(body);
  const start = async (jobId: string, using = engine) =>
    (await jobsApi(server, tenantId, () => token).start(jobId, using)).run;
  const locationCount = async () =>
    (await server.ctx.db.query('select 1 from locations where tenant_id = $1', [tenantId])).length;

  it('tests the store when a location is saved, names why it fails, and keeps the secret sealed', async () => {
    const before = await locationCount();
    const refused = async (body: object, status: number, code?: string) => {
      const response = await save(body);
      expect(response.statusCode, response.body).toBe(status);
      const problem = response.json() as { code?: string; errors?: Record<string, string[]> };
      if (code) expect(problem.code).toBe(code);
      return problem;
    };
    const p = prefix();
    // Azure: a wrong key, a container that is not there, nothing listening.
    await refused(
      { siteAddress: azureAddress(p), secret: Buffer.from('wrong').toString('base64') },
      400,
      'storeCredentialsRefused',
    );
    await refused(
      { siteAddress: `azure+${azurite.containerUrl('no-such-container')}`, secret: azurite.accountKey },
      400,
      'storeNotFound',
    );
    const closed = await freePort();
    const unreachable = await refused(
      { siteAddress: azureAddress(p, closed), secret: azurite.accountKey },
      400,
      'storeUnreachable',
    );
    expect(unreachable.errors?.['body/siteAddress']?.[0]).toMatch(/^The storage service could not be reached/);
    // S3: a wrong secret, no secret at all, a bucket named wrongly.
    await refused(
      { siteAddress: s3Address(p), ...s3Credentials(), secret: 'not-the-secret' },
      400,
      'storeCredentialsRefused',
    );
    await refused({ siteAddress: s3Address(p, closed), ...s3Credentials() }, 400, 'storeUnreachable');
    await refused(
      { siteAddress: `s3://no-such-bucket?endpoint=${s3.endpoint()}`, ...s3Credentials() },
      400,
      'storeNotFound',
    );
    const noSecret = await refused({ siteAddress: s3Address(p), accessKeyId: 'S3RVER' }, 400);
    expect(noSecret.errors?.['body/secret']?.[0]).toMatch(/access key ID and a secret/);
    const badBucket = await refused({ siteAddress: 's3://A', ...s3Credentials() }, 400);
    expect(badBucket.errors?.['body/siteAddress']?.[0]).toMatch(/bucket/);
    expect(await locationCount()).toBe(before);

    const azure = await saved({ siteAddress: azureAddress(p), secret: azurite.accountKey });
    expect(azure).toMatchObject({ store: 'azureBlob', hasSecret: true });
    expect(JSON.stringify(azure)).not.toContain(azurite.accountKey);
    const amazon = await saved({ siteAddress: s3Address(p), ...s3Credentials() });
    expect(amazon).toMatchObject({ store: 's3', accessKeyId: 'S3RVER', hasSecret: true });
    const [row] = await server.ctx.db.query<{ secret_sealed: string }>(
      'select secret_sealed from locations where location_id = $1',
      [azure.locationId],
    );
    expect(row?.secret_sealed).toBeTruthy();
    expect(row?.secret_sealed).not.toContain(azurite.accountKey);
    expect(server.ctx.secrets.open(row?.secret_sealed ?? '')).toBe(azurite.accountKey);
    // The probes left nothing behind.
    expect(await azureNames(p)).toEqual([]);
    expect(await s3Names(p)).toEqual([]);
    // A change without a secret keeps the stored one (and tests the store with it).
    expect(await saved({ name: 'Azure renamed', siteAddress: azureAddress(p) }, azure.locationId)).toMatchObject({
      name: 'Azure renamed',
      hasSecret: true,
    });
    // A change to a wrong secret is refused and keeps the right one.
    expect(
      (await save({ name: 'Azure renamed', siteAddress: azureAddress(p), secret: 'AAAA' }, azure.locationId))
        .statusCode,
    ).toBe(400);
    const [kept] = await server.ctx.db.query<{ secret_sealed: string }>(
      'select secret_sealed from locations where location_id = $1',
      [azure.locationId],
    );
    expect(server.ctx.secrets.open(kept?.secret_sealed ?? '')).toBe(azurite.accountKey);
  });

  it('records the test of its store at each save and when tested again, a failure with its reason, and says where the bytes go', async () => {
    const p = prefix();
    const azure = await saved({ siteAddress: azureAddress(p), secret: azurite.accountKey });
    expect(azure.storeAddress).toBe(`${azurite.containerUrl('portal-locations')}/${p}/`);
    expect(azure.probe).toEqual({ at: new Date(server.clock.now).toISOString(), ok: true });
    const listed = (await api('GET', base)).json() as Location[];
    expect(listed.find((l) => l.locationId === azure.locationId)?.probe).toEqual(azure.probe);

    // Tested again later: the new time, the store still working, audited.
    server.clock.advance(3_600_000);
    const again = await api('POST', `${base}/${azure.locationId}/probe`);
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as Location).probe).toEqual({ at: new Date(server.clock.now).toISOString(), ok: true });
    expect(await azureNames(p)).toEqual([]);

    // The store refuses the location's key now (as after a key rotation at the storage account): the test
    // is recorded as failed with the code and the service's words, and answered, not refused.
    const amazon = await saved({ siteAddress: s3Address(p), ...s3Credentials() });
    await server.ctx.db.query('update locations set secret_sealed = $2 where location_id = $1', [
      amazon.locationId,
      server.ctx.secrets.seal('not-the-secret'),
    ]);
    server.clock.advance(60_000);
    const failed = await api('POST', `${base}/${amazon.locationId}/probe`);
    expect(failed.statusCode, failed.body).toBe(200);
    const probe = (failed.json() as Location).probe;
    expect(probe).toMatchObject({
      at: new Date(server.clock.now).toISOString(),
      ok: false,
      code: 'storeCredentialsRefused',
    });
    expect(probe?.reason).toBeTruthy();
    expect((await api('GET', `${base}/${amazon.locationId}`)).json()).toMatchObject({ probe });
    const entries = await server.ctx.db.query<{ outcome: string; details: { code?: string } }>(
      "select outcome, details from audit_log where action = 'location.probe' and target = $1 order by seq",
      [amazon.locationId],
    );
    expect(entries.map((e) => [e.outcome, e.details.code])).toEqual([['failure', 'storeCredentialsRefused']]);

    // A save that works records a working test again.
    const fixed = await saved({ name: 'S3 fixed', siteAddress: s3Address(p), ...s3Credentials() }, amazon.locationId);
    expect(fixed.probe).toEqual({ at: new Date(server.clock.now).toISOString(), ok: true });

    // The server's own store: no address of a store, no test, nothing recorded or audited.
    const own = await saved({ siteAddress: 'https://contoso.sharepoint.com/sites/compliance' });
    expect(own).toMatchObject({ store: 'server' });
    expect(own).not.toHaveProperty('storeAddress');
    expect(own).not.toHaveProperty('probe');
    const untested = await api('POST', `${base}/${own.locationId}/probe`);
    expect(untested.statusCode).toBe(200);
    expect(untested.json()).not.toHaveProperty('probe');
    expect(
      await server.ctx.db.query("select 1 from audit_log where action = 'location.probe' and target = $1", [
        own.locationId,
      ]),
    ).toEqual([]);
  });

  it("backs up into an S3 location's bucket and restores from it; its data keeps the location", async () => {
    const p = prefix();
    const location = await saved({ siteAddress: s3Address(p), ...s3Credentials() });
    const job = await create({
      name: 'OneDrive to S3',
      type: 'backup',
      application: 'onedrive',
      sources: [users[0]?.upn],
      locationId: location.locationId,
    });
    expect(await start(job.jobId)).toMatchObject({ status: 'finished', items_done: 6, items_failed: 0 });
    const hashes = (
      await server.ctx.db.query<{ hash: string }>(
        "select distinct hash from backup_items where job_id = $1 and kind = 'file' and hash is not null",
        [job.jobId],
      )
    ).map((r) => r.hash);
    expect(hashes.length).toBeGreaterThan(0);
    const inBucket = new Set(await s3Names(p));
    for (const hash of hashes) expect(inBucket.has(hash), hash).toBe(true);
    // Not in the server's own store.
    const own = createDataPlane(server.ctx).blobs;
    for (const hash of hashes) await expect(own.get(hash)).rejects.toThrow();

    const [file] = await server.ctx.db.query<{ item_id: string; source_id: string; path: string }>(
      `select item_id, source_id, path from backup_items where job_id = $1 and kind = 'file' and is_latest
        order by path limit 1`,
      [job.jobId],
    );
    const g = simulatorGraph(sim, tenantId);
    const from = await g.userDrive(users[0]?.upn ?? '');
    const original = await g.itemContent(from.id ?? '', file?.item_id ?? '');
    await create(fileRestore('Restore from S3', job.jobId, file, { target: 'other', targetId: users[2]?.upn ?? '' }));
    expect((await engine.runUntilIdle()).map((o) => o.status)).toEqual(['finished']);
    const to = await g.userDrive(users[2]?.upn ?? '');
    const restored = await g.itemByPath(to.id ?? '', file?.path ?? '');
    expect(Buffer.from(await g.itemContent(to.id ?? '', restored?.id ?? '')).equals(Buffer.from(original))).toBe(true);

    // A restore as a download: the ZIP is kept in the bucket, not on this machine, and streamed from it.
    const download = await create(fileRestore('Download from S3', job.jobId, file, { target: 'download' }));
    expect((await engine.runUntilIdle()).map((o) => o.status)).toEqual(['finished']);
    const [zipRun] = await server.ctx.db.query<{ run_id: string }>('select run_id from job_runs where job_id = $1', [
      download.jobId,
    ]);
    expect(await s3Names(p)).toContain(`files/restores/${zipRun?.run_id}.zip`);
    // Kept encrypted under the organisation's key: no ZIP signature in the bucket.
    const kept = await s3
      .bucket('portal-locations')
      .send(new GetObjectCommand({ Bucket: 'portal-locations', Key: `${p}/files/restores/${zipRun?.run_id}.zip` }));
    const keptBytes = Buffer.from((await kept.Body?.transformToByteArray()) ?? []);
    expect(keptBytes[0]).toBe(3);
    expect(keptBytes.includes(Buffer.from('PK\u0003\u0004'))).toBe(false);
    expect(existsSync(join(server.ctx.config.dataDir, 'restores', `${zipRun?.run_id}.zip`))).toBe(false);
    const zip = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/download-restore-archive',
      token,
      body: { jobId: download.jobId },
    });
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = readZip(zip.rawPayload);
    expect(entries.size).toBe(1);
    expect([...entries.values()][0]?.equals(Buffer.from(original))).toBe(true);

    // The versions stay where they are: the location cannot point at another store, nor the job
    // move to one, nor the location go, while they are there.
    const sharepoint = 'https://contoso.sharepoint.com/sites/elsewhere';
    const moved = await save({ name: location.name, siteAddress: sharepoint }, location.locationId);
    expect(moved.statusCode).toBe(409);
    expect((moved.json() as { code: string }).code).toBe('locationHoldsData');
    const other = await saved({ siteAddress: sharepoint });
    const jobMoved = await api('PUT', `/apollo-beta/api/${tenantId}/jobs/${job.jobId}`, {
      locationId: other.locationId,
    });
    expect(jobMoved.statusCode, jobMoved.body).toBe(409);
    expect((jobMoved.json() as { code: string }).code).toBe('jobLocationHoldsData');
    expect((await api('DELETE', `${base}/${location.locationId}`)).statusCode).toBe(409);
  });

  it("archives mail into an Azure location's container, restores it from there, and retention removes it there", async () => {
    const p = prefix();
    const location = await saved({ siteAddress: azureAddress(p), secret: azurite.accountKey });
    const mail = await create({
      name: 'Mail to Azure',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [users[1]?.upn],
      folders: ['Inbox'],
      locationId: location.locationId,
    });
    const archived = await start(mail.jobId);
    expect(archived).toMatchObject({ status: 'finished', items_failed: 0 });
    const rows = await server.ctx.db.query<{ id: string; blob_hash: string; location_id: string; source: string }>(
      'select id::text, blob_hash, location_id, source from archive_items where job_id = $1 order by id',
      [mail.jobId],
    );
    expect(rows.length).toBe(Number(archived.items_done));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.location_id))).toEqual(new Set([location.locationId]));
    const inContainer = new Set(await azureNames(p));
    for (const r of rows) expect(inContainer.has(r.blob_hash), r.blob_hash).toBe(true);

    // A mail restore reads the MIME from the container.
    const source = rows[0]?.source ?? '';
    const restore = await create({
      name: 'Restore mail',
      type: 'restore',
      application: 'exchange',
      sources: [source],
      restore: {
        sourceJobId: mail.jobId,
        snapshot: new Date(Date.now() + 86_400_000).toISOString(),
        sourceId: source,
        nodeIds: rows.slice(0, 2).map((r) => r.id),
        target: 'original',
        conflictPolicy: 'keepBoth',
      },
    });
    expect((await engine.runUntilIdle()).map((o) => o.status)).toEqual(['finished']);
    const [restoreRun] = await server.ctx.db.query<{ items_done: number; items_failed: number }>(
      'select items_done, items_failed from job_runs where job_id = $1',
      [restore.jobId],
    );
    expect({ done: Number(restoreRun?.items_done), failed: Number(restoreRun?.items_failed) }).toEqual({
      done: 2,
      failed: 0,
    });

    const purge = await create({
      name: 'Purge mail',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [users[1]?.upn],
      retention: { unit: 'days', value: 30 },
    });
    expect(await start(purge.jobId)).toMatchObject({ status: 'finished', items_done: rows.length });
    // The mail is gone from the container; the mailbox's calendars, contacts and tasks, archived by
    // the same job and each still current (retention removes only versions superseded or deleted
    // before its cut-off), are all that is left there.
    const kept = await server.ctx.db.query<{ blob_hash: string }>(
      `select blob_hash from archived_events where job_id = $1 and location_id = $2
       union select a.blob_hash from archived_event_attachments a
              join archived_events e on e.tenant_id = a.tenant_id and e.mailbox = a.mailbox
                                    and e.external_id = a.event_id and e.version = a.version
             where e.job_id = $1 and a.location_id = $2
       union select blob_hash from archived_contacts where job_id = $1 and location_id = $2
       union select blob_hash from archived_tasks where job_id = $1 and location_id = $2`,
      [mail.jobId, location.locationId],
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(new Set(await azureNames(p))).toEqual(new Set(kept.map((k) => k.blob_hash)));
  });

  it('loses nothing when an S3 location goes away mid-run: the next run stores what the first could not', {
    timeout: 120_000,
  }, async () => {
    const p = prefix();
    const proxy = await outageProxy(s3.port);
    const location = await saved({ siteAddress: s3Address(p, proxy.port), ...s3Credentials() });
    const job = await create({
      name: 'OneDrive to S3 (outage)',
      type: 'backup',
      application: 'onedrive',
      sources: [users[1]?.upn],
      locationId: location.locationId,
    });
    let ended = false;
    const outage = (async () => {
      while (!ended && (await s3Names(p)).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      await proxy.cut();
    })();
    const first = await start(job.jobId);
    ended = true;
    await outage;
    await proxy.restore();
    expect(Number(first.items_failed) + (first.status === 'failed' ? 1 : 0)).toBeGreaterThan(0);
    expect(await start(job.jobId)).toMatchObject({ status: 'finished', items_failed: 0 });
    const [versions] = await server.ctx.db.query<{ files: number; n: number }>(
      "select count(distinct item_id)::int as files, count(*)::int as n from backup_items where job_id = $1 and kind = 'file'",
      [job.jobId],
    );
    expect(versions).toEqual({ files: 6, n: 12 });
    const inBucket = new Set(await s3Names(p));
    const hashes = await server.ctx.db.query<{ hash: string }>(
      "select distinct hash from backup_items where job_id = $1 and kind = 'file'",
      [job.jobId],
    );
    for (const { hash } of hashes) expect(inBucket.has(hash), hash).toBe(true);
    await proxy.close();
  });
});
