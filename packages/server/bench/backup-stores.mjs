#!/usr/bin/env node
// A backup into each kind of store, in one run on one machine: the same OneDrive backup (the real job
// engine, executors and Graph client against the Graph simulator in this process) into a storage
// location of each kind: the server's own store (a SharePoint site address: the local directory),
// Azure Blob Storage (Azurite, started here on a free port of 127.0.0.1 with its telemetry off) and
// S3 (s3rver, started the same way). Every run encrypts under the organisation's key, as the portal
// does. Prints versions/s and MB/s per store and each one's share of the local figure; then the
// cost of encryption alone: puts and gets of the same contents through the local store in the clear
// and encrypted.
// Usage (after `pnpm build`): node bench/backup-stores.mjs [--files 300]
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from '@compliance-portal/m365-simulator';
import pino from 'pino';
import { createSecretBox } from '../dist/crypto/secret-box.js';
import { openPglite } from '../dist/db/database.js';
import { migrate } from '../dist/db/migrations.js';
import { seedDemo } from '../dist/demo/seed.js';
import { createDataPlane } from '../dist/jobs/data-plane.js';
import { JobEngine } from '../dist/jobs/engine.js';
import { executors } from '../dist/jobs/executors.js';
import { forEachLimit } from '../dist/jobs/pool.js';
import { trustCertificates } from '../dist/m365/trust.js';
import { createLocalBlobStore } from '../dist/storage/blob-store.js';
import { organisationCodec } from '../dist/storage/encryption.js';
import { azureContainer } from '../dist/storage/stores.js';
import { AZURITE_ACCOUNT, AZURITE_KEY, spawnAzurite } from '../test/azurite-process.mjs';
import { S3RVER_KEY_ID, S3RVER_SECRET, spawnS3rver } from '../test/s3rver-process.mjs';
import { freePort } from './lib.mjs';

const { values } = parseArgs({ options: { files: { type: 'string', default: '300' } } });
const FILES = Number(values.files);
const USERS = 3;
const VERSIONS = 3;
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1);

const work = mkdtempSync(join(tmpdir(), 'bench-backup-stores-'));
const azuritePort = await freePort();
const azurite = await spawnAzurite(azuritePort, join(work, 'azurite'));
const s3Port = await freePort();
const s3rver = await spawnS3rver(s3Port, join(work, 's3rver'), ['bench']);

const sim = await startSimulator({
  dataDir: join(work, 'simulator'),
  tenants: [
    { tenantId: TENANT, size: { users: USERS, sites: 0, teams: 0, filesPerDrive: FILES, versionsPerFile: VERSIONS } },
  ],
});
trustCertificates([sim.caCertificate]);
const db = await openPglite(join(work, 'pglite'));
await migrate(db);
const secrets = createSecretBox(randomBytes(32));
const now = () => new Date();
const ctx = {
  config: { dataDir: work, publicUrl: 'http://127.0.0.1', demo: false, m365SimulatorSize: {} },
  db,
  log: pino({ level: 'silent' }),
  now,
  secrets,
  mailer: { send: async () => {} },
  audit: async () => {},
};
await seedDemo({ ...ctx, config: { ...ctx.config, demoPassword: 'Bench-Passw0rd!' } });
await db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
  TENANT,
  sim.graphBaseUrl,
  sim.authorityHost,
]);
await db.query('update backup_config set max_concurrency = 8 where tenant_id = $1', [TENANT]);
const plane = createDataPlane(ctx, createLocalBlobStore(join(work, 'blobs')));
const engine = new JobEngine(ctx, { executors: executors(plane), heartbeatMs: 1000 });
const users = sim.state
  .tenant(TENANT)
  .users.filter((u) => u.driveId)
  .map((u) => u.upn);

/** A location of the tenant with this site address and credentials. */
async function location(name, siteAddress, accessKeyId, secret) {
  const id = randomUUID();
  await db.query(
    `insert into locations (location_id, tenant_id, name, site_address, access_key_id, secret_sealed, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [id, TENANT, name, siteAddress, accessKeyId ?? null, secret ? secrets.seal(secret) : null, now()],
  );
  return id;
}

async function backupInto(label, locationId) {
  const jobId = randomUUID();
  await db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
     values ($1, $2, $3, 'backup', 'onedrive', $4, $5, $6, $6)`,
    [jobId, TENANT, label, locationId, JSON.stringify({ sources: users, recurrence: null, retention: null }), now()],
  );
  await engine.enqueue(jobId, 'manual');
  const started = performance.now();
  await engine.runUntilIdle();
  const seconds = (performance.now() - started) / 1000;
  const [run] = await db.query('select status, items_failed from job_runs where job_id = $1', [jobId]);
  const [totals] = await db.query(
    "select count(*)::int as versions, coalesce(sum(size), 0)::bigint as bytes from backup_items where job_id = $1 and kind = 'file'",
    [jobId],
  );
  if (run.status !== 'finished' || Number(run.items_failed) > 0) throw new Error(`${label}: ${JSON.stringify(run)}`);
  return { label, seconds, versions: totals.versions, bytes: Number(totals.bytes) };
}

await azureContainer(`http://127.0.0.1:${azuritePort}/${AZURITE_ACCOUNT}/bench`, AZURITE_KEY).createIfNotExists();
console.log(
  `OneDrive backup of ${users.length} accounts, ${FILES} files each, ${VERSIONS} versions per file, into each store in turn`,
);
const runs = [
  await backupInto(
    'server store (local directory)',
    await location('Local', 'https://contoso.sharepoint.com/sites/bench'),
  ),
  await backupInto(
    'Azure Blob Storage (Azurite 3.35)',
    await location('Azure', `azure+http://127.0.0.1:${azuritePort}/${AZURITE_ACCOUNT}/bench`, null, AZURITE_KEY),
  ),
  await backupInto(
    'S3 (s3rver)',
    await location('S3', `s3://bench?endpoint=http://127.0.0.1:${s3Port}`, S3RVER_KEY_ID, S3RVER_SECRET),
  ),
];
const [local] = runs;
console.table(
  runs.map((r) => ({
    store: r.label,
    versions: r.versions,
    MB: mb(r.bytes),
    seconds: r.seconds.toFixed(1),
    'versions/s': Math.round(r.versions / r.seconds),
    'MB/s': (r.bytes / 1024 ** 2 / r.seconds).toFixed(1),
    'of local': `${Math.round((100 * local.seconds) / r.seconds)}%`,
  })),
);

// Encryption alone: the same contents through the local store in the clear and encrypted.
const contents = Array.from({ length: 2000 }, (_, i) =>
  i % 3 === 0
    ? randomBytes([4, 16, 64, 256][i % 4] * 1024)
    : Buffer.from(`report ${i} `.repeat([4, 16, 64, 256][i % 4] * 100)),
);
const total = contents.reduce((n, b) => n + b.length, 0);
const key = { organisationId: 'bench', encryption: randomBytes(32), naming: randomBytes(32) };
const keys = { find: async () => key, ensure: async () => key };
async function through(label, store) {
  const names = [];
  let t = performance.now();
  await forEachLimit(contents, 8, async (bytes) => names.push((await store.put(bytes)).hash));
  const put = (performance.now() - t) / 1000;
  t = performance.now();
  await forEachLimit(names, 8, (name) => store.get(name));
  const get = (performance.now() - t) / 1000;
  return { label, put, get };
}
const clear = await through('in the clear', createLocalBlobStore(join(work, 'clear')));
const sealed = await through(
  'encrypted (AES-256-GCM, HMAC names)',
  createLocalBlobStore(join(work, 'sealed')).withCodec(organisationCodec(key, keys)),
);
console.table(
  [clear, sealed].map((r) => ({
    'local store': r.label,
    'put MB/s': (total / 1024 ** 2 / r.put).toFixed(1),
    'get MB/s': (total / 1024 ** 2 / r.get).toFixed(1),
  })),
);
console.log(
  `encryption's cost: puts ${Math.round((100 * (sealed.put - clear.put)) / clear.put)}%, gets ${Math.round((100 * (sealed.get - clear.get)) / clear.get)}% more time (${contents.length} blobs, ${mb(total)} MB)`,
);

await db.close();
await sim.close();
azurite.kill('SIGKILL');
s3rver.kill('SIGKILL');
rmSync(work, { recursive: true, force: true });
process.exit(0);
