// Benchmarks the data plane on loopback against the Graph-compatible simulator: a full OneDrive
// backup of a tenant of 10k files with 50k versions, an incremental run after 1% of the files
// changed, the dedup ratio, the archiving of 100k mails, and full-text search latency over them —
// on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
// Run `pnpm build` first. BENCH_SCALE=0.1 runs a tenth of the sizes.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, startSimulator } from '@compliance-portal/m365-simulator';
import pino from 'pino';
import { createSecretBox } from '../dist/crypto/secret-box.js';
import { migrate } from '../dist/db/migrations.js';
import { openScratchDatabase } from '../dist/db/scratch.js';
import { seedDemo } from '../dist/demo/seed.js';
import { createDataPlane } from '../dist/jobs/data-plane.js';
import { JobEngine } from '../dist/jobs/engine.js';
import { executors } from '../dist/jobs/executors.js';
import { trustCertificates } from '../dist/m365/trust.js';
import { searchArchive } from '../dist/storage/archive.js';
import { createLocalBlobStore } from '../dist/storage/blob-store.js';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const USERS = 10;
const FILES_PER_DRIVE = Math.round(1000 * SCALE);
const VERSIONS = 5;
const MAILS_PER_FOLDER = Math.round(2500 * SCALE);
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(label, url) {
  const sim = await startSimulator({
    tenants: [
      {
        tenantId: TENANT,
        size: {
          users: USERS,
          sites: 0,
          teams: 0,
          foldersPerDrive: 5,
          filesPerDrive: FILES_PER_DRIVE,
          versionsPerFile: VERSIONS,
          fileSize: [4_000, 60_000],
          messagesPerFolder: MAILS_PER_FOLDER,
        },
      },
    ],
    pageSize: 200,
  });
  // The simulator's https certificate comes from a CA it made just now: this process trusts it.
  trustCertificates([sim.caCertificate]);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-plane-'));
  const { db, drop } = await openScratchDatabase(url, 'portal_bench');
  await migrate(db);
  const now = () => new Date();
  const ctx = {
    config: { dataDir, publicUrl: 'http://127.0.0.1', demo: false, m365SimulatorSize: {} },
    db,
    log: pino({ level: 'silent' }),
    now,
    secrets: createSecretBox(Buffer.alloc(32, 9)),
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
  const blobs = createLocalBlobStore(join(dataDir, 'blobs'));
  const engine = new JobEngine(ctx, { executors: executors(createDataPlane(ctx, blobs)), heartbeatMs: 1000 });
  const users = sim.state
    .tenant(TENANT)
    .users.filter((u) => u.hasMailbox)
    .map((u) => u.upn);
  const job = async (type, application, sources, extra = {}) => {
    const jobId = randomUUID();
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
       values ($1, $2, $3, $4, $5, null, $6, $7, $7)`,
      [
        jobId,
        TENANT,
        `${type} bench`,
        type,
        application,
        JSON.stringify({ sources, recurrence: null, retention: null, ...extra }),
        now(),
      ],
    );
    return jobId;
  };
  const timed = async (jobId) => {
    await engine.enqueue(jobId, 'manual');
    const started = performance.now();
    await engine.runUntilIdle();
    const seconds = (performance.now() - started) / 1000;
    const [r] = await db.query('select * from job_runs where job_id = $1 order by seq desc limit 1', [jobId]);
    return { seconds, run: r };
  };

  // Full backup.
  const backup = await job('backup', 'onedrive', users);
  const full = await timed(backup);
  const [src] = await db.query(
    "select count(*)::int as versions, count(distinct item_id)::int as files, sum(size)::bigint as bytes from backup_items where job_id = $1 and kind = 'file'",
    [backup],
  );
  const stats = await blobs.stats();
  // Incremental after 1% of the files changed.
  const totalFiles = Number(src.files);
  evolve(sim.state.tenant(TENANT), { editedFiles: Math.round(totalFiles / 100) });
  const incremental = await timed(backup);
  // Mail archive.
  const archive = await job('exchangeArchive', 'exchange', users);
  const mail = await timed(archive);
  const [mails] = await db.query("select count(*)::int as n from archive_items where kind = 'mail'");
  // Search.
  const queries = [
    'invoice',
    'rechnung',
    'budget report',
    '"project meeting"',
    'vertrag -angebot',
    'compliance audit',
    'reise ausgaben',
    'release schedule',
  ];
  const latencies = [];
  for (let i = 0; i < 120; i++) {
    const started = performance.now();
    await searchArchive(db, TENANT, { text: queries[i % queries.length], pageSize: 25 });
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  console.log(`\n== ${label}`);
  console.log(
    `full backup: ${src.files} files, ${src.versions} versions, ${mb(Number(src.bytes))} MB in ${full.seconds.toFixed(1)} s: ` +
      `${(Number(src.versions) / full.seconds).toFixed(0)} versions/s, ${(Number(src.files) / full.seconds).toFixed(0)} files/s, ` +
      `${(Number(src.bytes) / 1024 ** 2 / full.seconds).toFixed(1)} MB/s (run status ${full.run.status})`,
  );
  console.log(
    `incremental after ${Math.round(totalFiles / 100)} changed files: ${incremental.seconds.toFixed(2)} s = ` +
      `${((100 * incremental.seconds) / full.seconds).toFixed(2)}% of the full run (${incremental.run.items_total} items read)`,
  );
  console.log(
    `dedup: ${stats.blobs} blobs, ${mb(stats.storedBytes)} MB stored for ${mb(Number(src.bytes))} MB of source versions = ` +
      `${(stats.storedBytes / Number(src.bytes)).toFixed(3)} stored/source`,
  );
  console.log(
    `mail archive: ${mails.n} mails in ${mail.seconds.toFixed(1)} s = ${(mails.n / mail.seconds).toFixed(0)} mails/s (run status ${mail.run.status})`,
  );
  console.log(
    `full-text search over ${mails.n} mails (${latencies.length} queries, page of 25 with snippets): ` +
      `p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms`,
  );
  console.log(`peak resident memory of this process (server side and simulator): ${mb(peakRss)} MB`);
  await drop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
  peakRss = 0;
}

const postgres = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
await run('PGlite (embedded)', undefined);
if (postgres) await run('PostgreSQL', postgres);
clearInterval(sampler);
