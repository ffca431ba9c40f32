// Benchmarks the data plane on loopback against the Graph-compatible simulator, which runs in its own
// process (its command, m365-simulator): a full OneDrive backup of a tenant of 10k files with 50k
// versions, an incremental run after 1% of the files changed, the dedup ratio, the archiving of 100k
// mails, and full-text search latency over them — on PGlite, and on PostgreSQL when
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (PostgreSQL alone with BENCH_PGLITE=0). In the same run it measures the limit of the work
// on this machine: the simulator's serving rate for the same requests without the engine (a lean
// client, one token, the same concurrency), and SHA-256 plus raw DEFLATE (the blob store's level) of
// the same bytes on one core of this process; and prints each throughput's ratio to it. Then, against a
// small tenant of its own (sites with lists and pages; calendars, contacts and To Do lists), the new
// kinds: after a first backup and archive, Graph is made to add BENCH_KIND_ITEMS (default 200) events,
// then contacts, then tasks, then list items, then to edit as many pages as there are (drawn at random,
// so some twice), each followed by an incremental run timed alone: events, contacts and tasks archived,
// list items and pages backed up per second.
// Run `pnpm build` first (the server's and the simulator's). The default BENCH_SCALE=0.02 (200 files,
// 1,000 versions, 2,000 mails) keeps a run on PGlite under two minutes on a shared 2-core machine;
// BENCH_SCALE=1 runs the full sizes above (several minutes).
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import pino from 'pino';
import { request } from 'undici';
import { searchArchive } from '../dist/archive-data/archive.js';
import { createSecretBox } from '../dist/crypto/secret-box.js';
import { openPglite } from '../dist/db/database.js';
import { migrate } from '../dist/db/migrations.js';
import { openScratchDatabase } from '../dist/db/scratch.js';
import { seedDemo } from '../dist/demo/seed.js';
import { createDataPlane } from '../dist/jobs/data-plane.js';
import { JobEngine } from '../dist/jobs/engine.js';
import { executors } from '../dist/jobs/executors.js';
import { trustCertificates } from '../dist/m365/trust.js';
import { createLocalBlobStore } from '../dist/storage/blob-store.js';

const SCALE = Number(process.env.BENCH_SCALE ?? 0.02);
const USERS = 10;
const FILES_PER_DRIVE = Math.round(1000 * SCALE);
const VERSIONS = 5;
const MAILS_PER_FOLDER = Math.round(2500 * SCALE);
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const CONCURRENCY = 8;
/** New items of each new kind an incremental run archives or backs up. */
const KIND_ITEMS = Number(process.env.BENCH_KIND_ITEMS ?? 200);
/** The tenant of the new kinds: a few mailboxes and sites, what the first runs keep kept small. */
const KINDS_SIZE = {
  users: 4,
  sites: 2,
  teams: 0,
  foldersPerDrive: 1,
  filesPerDrive: 2,
  versionsPerFile: 1,
  messagesPerFolder: 1,
  listsPerSite: 3,
  listItemsPerList: 5,
  versionsPerListItem: 2,
  pagesPerSite: 20,
  eventsPerCalendar: 3,
  contactsPerFolder: 3,
  tasksPerList: 3,
};
/** Versions and mails the limit is measured over (all of them at small scales). */
const SAMPLE = 4000;
const SIMULATOR_CLI = join(
  dirname(createRequire(import.meta.url).resolve('@compliance-portal/m365-simulator/package.json')),
  'dist/cli.js',
);

let peakRss = 0;
let sampling = true;
/** The phase under way and each phase's peak, to tell which work the process's peak comes from. */
let phase = 'start';
let phasePeaks = new Map();
/** process.memoryUsage() when the resident memory peaked: how much of it is the JavaScript heap. */
let atPeak;
const sampler = setInterval(() => {
  if (!sampling) return;
  const usage = process.memoryUsage();
  if (usage.rss > peakRss) atPeak = usage;
  peakRss = Math.max(peakRss, usage.rss);
  phasePeaks.set(phase, Math.max(phasePeaks.get(phase) ?? 0, usage.rss));
}, 100);
const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The simulator's command in a process of its own; resolves once it listens. */
async function spawnSimulator(
  size = {
    users: USERS,
    sites: 0,
    teams: 0,
    foldersPerDrive: 5,
    filesPerDrive: FILES_PER_DRIVE,
    versionsPerFile: VERSIONS,
    fileSize: [4_000, 60_000],
    messagesPerFolder: MAILS_PER_FOLDER,
  },
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-sim-'));
  const controlKey = randomBytes(18).toString('base64url');
  const child = spawn(
    process.execPath,
    [
      SIMULATOR_CLI,
      '--tenant',
      TENANT,
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--size',
      JSON.stringify(size),
      '--page-size',
      '200',
    ],
    { env: { ...process.env, M365_SIMULATOR_CONTROL_KEY: controlKey }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // The simulator goes with this process, however it ends.
  const stopChild = () => child.kill('SIGTERM');
  process.on('exit', stopChild);
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the simulator stopped (${code}) before it listened: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on (\S+)/.exec(out);
      if (listening && /CA certificate: (\S+)/.test(out)) resolve(listening[1]);
    });
  });
  const caPath = /CA certificate: (\S+)/.exec(out)[1];
  return {
    pid: child.pid,
    url,
    graphBaseUrl: `${url}/v1.0`,
    authorityHost: url,
    caCertificate: readFileSync(caPath, 'utf8'),
    async evolve(change) {
      const answer = await fetchAgain(`${url}/_simulator/evolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-simulator-control': controlKey },
        body: JSON.stringify({ tenantId: TENANT, ...change }),
      });
      if (!answer.ok) throw new Error(`evolve: ${answer.status} ${await answer.text()}`);
    },
    /** CPU seconds the simulator's process used so far (user and system). */
    cpuSeconds() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    /** The simulator process's peak resident memory (VmHWM), bytes. */
    peakRss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.off('exit', stopChild);
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` over `items`, `limit` at once. */
async function pool(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** fetch, again after a connection the server closed meanwhile (an idle keep-alive connection). */
async function fetchAgain(url, init, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** A lean Graph client for the simulator: one token, no per-request work of the engine. */
async function leanClient(sim) {
  const form = new URLSearchParams({
    client_id: 'bench',
    client_secret: 'bench',
    grant_type: 'client_credentials',
    scope: 'https://graph.microsoft.com/.default',
  });
  const tokenAnswer = await fetchAgain(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
    method: 'POST',
    body: form,
  });
  const { access_token: token } = await tokenAnswer.json();
  const headers = { authorization: `Bearer ${token}` };
  // undici's request API (fetch costs this process several times the CPU a request), redirects
  // followed; a connection the simulator closed meanwhile is tried again.
  const get = async (path) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await request(path.startsWith('http') ? path : `${sim.graphBaseUrl}${path}`, {
          headers,
          maxRedirections: 2,
        });
        if (answer.statusCode !== 200) throw new Error(`${path}: ${answer.statusCode}`);
        return answer.body;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  };
  const pages = async (path) => {
    const all = [];
    for (let next = path; next; ) {
      const body = await (await get(next)).json();
      all.push(...(body.value ?? []));
      next = body['@odata.nextLink'];
    }
    return all;
  };
  return { get, pages };
}

/**
 * The limit of the work on this machine: the simulator serving the backup's and the archive's
 * requests (listing, versions, content through its download link; MIME of messages) to a lean client
 * with one token and the same concurrency, and SHA-256 + raw DEFLATE (level 6) of those bytes here.
 */
async function measureLimit(sim, mailboxes) {
  const { get, pages } = await leanClient(sim);
  const hashAndDeflate = (buffers) => {
    const started = performance.now();
    for (const bytes of buffers) {
      createHash('sha256').update(bytes).digest('hex');
      deflateRawSync(bytes, { level: 6 });
    }
    return (performance.now() - started) / 1000;
  };

  // Files: the same requests as a backup (delta, versions of each file, content of each version).
  const started = performance.now();
  const files = [];
  for (const user of mailboxes) {
    const drive = await (await get(`/users/${encodeURIComponent(user)}/drive`)).json();
    for (const item of await pages(`/drives/${drive.id}/root/delta`)) if (item.file) files.push([drive.id, item.id]);
  }
  const versions = [];
  await pool(files.slice(0, Math.ceil(SAMPLE / VERSIONS)), CONCURRENCY, async ([driveId, itemId]) => {
    const list = await pages(`/drives/${driveId}/items/${itemId}/versions`);
    list.forEach((v, i) => {
      versions.push(`/drives/${driveId}/items/${itemId}${i === 0 ? '' : `/versions/${v.id}`}/content`);
    });
  });
  const fileBytes = [];
  await pool(versions, CONCURRENCY, async (path) => {
    fileBytes.push(new Uint8Array(await (await get(path)).arrayBuffer()));
  });
  const fileSeconds = (performance.now() - started) / 1000;
  const fileTotal = fileBytes.reduce((n, b) => n + b.length, 0);
  const fileWork = hashAndDeflate(fileBytes);
  fileBytes.length = 0;

  // Mail: folders, a folder's message delta, each message's MIME.
  const mailStarted = performance.now();
  const messages = [];
  for (const user of mailboxes) {
    if (messages.length >= SAMPLE) break;
    for (const folder of await pages(`/users/${encodeURIComponent(user)}/mailFolders`)) {
      if (messages.length >= SAMPLE) break;
      const delta = await pages(`/users/${encodeURIComponent(user)}/mailFolders/${folder.id}/messages/delta`);
      for (const m of delta) messages.push(`/users/${encodeURIComponent(user)}/messages/${m.id}/$value`);
    }
  }
  const mimes = [];
  await pool(messages.slice(0, SAMPLE), CONCURRENCY, async (path) => {
    mimes.push(new Uint8Array(await (await get(path)).arrayBuffer()));
  });
  const mailSeconds = (performance.now() - mailStarted) / 1000;
  const mailTotal = mimes.reduce((n, b) => n + b.length, 0);
  const mailWork = hashAndDeflate(mimes);
  const mailCount = mimes.length;
  mimes.length = 0;
  return {
    serve: { versions: versions.length / fileSeconds, mbps: fileTotal / 1024 ** 2 / fileSeconds },
    work: { versions: versions.length / fileWork, mbps: fileTotal / 1024 ** 2 / fileWork },
    serveMail: { mails: mailCount / mailSeconds, mbps: mailTotal / 1024 ** 2 / mailSeconds },
    workMail: { mails: mailCount / mailWork, mbps: mailTotal / 1024 ** 2 / mailWork },
    sampled: { versions: versions.length, mails: mailCount },
  };
}

async function run(label, url) {
  const loadBefore = load();
  const sim = await spawnSimulator();
  // The simulator's https certificate comes from a CA it made just now: this process trusts it.
  trustCertificates([sim.caCertificate]);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-plane-'));
  // PGlite as the portal runs it: its files in the data directory (a scratch PGlite would hold the
  // whole database in the memory measured below).
  const { db, drop } = url
    ? await openScratchDatabase(url, 'portal_bench')
    : await openPglite(join(dataDir, 'pglite')).then((db) => ({ db, drop: () => db.close() }));
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
  await db.query(`update backup_config set max_concurrency = ${CONCURRENCY} where tenant_id = $1`, [TENANT]);
  const blobs = createLocalBlobStore(join(dataDir, 'blobs'));
  const engine = new JobEngine(ctx, { executors: executors(createDataPlane(ctx, blobs)), heartbeatMs: 1000 });
  // The accounts with a mailbox (a guest has none), as Graph lists them.
  const users = (await (await leanClient(sim)).pages('/users?$select=userPrincipalName,mail'))
    .filter((u) => u.mail)
    .map((u) => u.userPrincipalName);
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
  const timed = async (jobId, simulator = sim) => {
    await engine.enqueue(jobId, 'manual');
    const started = performance.now();
    const cpu = process.cpuUsage();
    const simCpu = simulator.cpuSeconds();
    await engine.runUntilIdle();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const [r] = await db.query('select * from job_runs where job_id = $1 order by seq desc limit 1', [jobId]);
    return {
      seconds,
      run: r,
      // Cores kept busy: this process (its thread pool included) and the simulator's.
      cpu: `engine ${((used.user + used.system) / 1e6 / seconds).toFixed(2)} cores, simulator ${((simulator.cpuSeconds() - simCpu) / seconds).toFixed(2)} cores`,
    };
  };

  peakRss = 0;
  atPeak = undefined;
  phasePeaks = new Map();
  sampling = true;
  // Full backup.
  phase = 'full backup';
  const backup = await job('backup', 'onedrive', users);
  const full = await timed(backup);
  const [src] = await db.query(
    "select count(*)::int as versions, count(distinct item_id)::int as files, sum(size)::bigint as bytes from backup_items where job_id = $1 and kind = 'file'",
    [backup],
  );
  const stats = await blobs.stats();
  // Incremental after 1% of the files changed.
  const totalFiles = Number(src.files);
  await sim.evolve({ editedFiles: Math.round(totalFiles / 100) });
  phase = 'incremental';
  const incremental = await timed(backup);
  // Mail archive.
  phase = 'mail archive';
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
  phase = 'search';
  for (let i = 0; i < 120; i++) {
    const started = performance.now();
    await searchArchive(db, TENANT, { text: queries[i % queries.length], pageSize: 25 });
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  sampling = false;
  const serverPeak = peakRss;
  const loadDuring = load();
  // The limit, measured after the engine's work so that its buffers do not count in the peak above.
  const limit = await measureLimit(sim, users);
  const simulatorPeak = sim.peakRss();

  const versionsPerSecond = Number(src.versions) / full.seconds;
  const backupMbps = Number(src.bytes) / 1024 ** 2 / full.seconds;
  const mailsPerSecond = mails.n / mail.seconds;
  const backupLimit = Math.min(limit.serve.mbps, limit.work.mbps);
  const backupLimitVersions = Math.min(limit.serve.versions, limit.work.versions);
  const mailLimit = Math.min(limit.serveMail.mails, limit.workMail.mails);
  const ratio = (value, of) => `${((100 * value) / of).toFixed(0)}%`;

  console.log(`\n== ${label} (BENCH_SCALE=${SCALE}; load average before ${loadBefore}, after the jobs ${loadDuring})`);
  console.log(
    `full backup: ${src.files} files, ${src.versions} versions, ${mb(Number(src.bytes))} MB in ${full.seconds.toFixed(1)} s: ` +
      `${versionsPerSecond.toFixed(0)} versions/s, ${(Number(src.files) / full.seconds).toFixed(0)} files/s, ` +
      `${backupMbps.toFixed(1)} MB/s (run status ${full.run.status}; ${full.cpu})`,
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
    `mail archive: ${mails.n} mails in ${mail.seconds.toFixed(1)} s = ${mailsPerSecond.toFixed(0)} mails/s (run status ${mail.run.status}; ${mail.cpu})`,
  );
  console.log(
    `full-text search over ${mails.n} mails (${latencies.length} queries, page of 25 with snippets): ` +
      `p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms`,
  );
  console.log(
    `limit, files (${limit.sampled.versions} versions): simulator serves ${limit.serve.versions.toFixed(0)} versions/s = ` +
      `${limit.serve.mbps.toFixed(1)} MB/s; SHA-256 + raw DEFLATE of the same bytes ${limit.work.mbps.toFixed(1)} MB/s on one core ` +
      `=> limit ${backupLimit.toFixed(1)} MB/s (${backupLimitVersions.toFixed(0)} versions/s)`,
  );
  console.log(
    `limit, mail (${limit.sampled.mails} mails): simulator serves ${limit.serveMail.mails.toFixed(0)} mails/s = ` +
      `${limit.serveMail.mbps.toFixed(1)} MB/s; SHA-256 + raw DEFLATE of the same bytes ${limit.workMail.mails.toFixed(0)} mails/s ` +
      `=> limit ${mailLimit.toFixed(0)} mails/s`,
  );
  console.log(
    `ratios: backup ${ratio(backupMbps, backupLimit)} of the limit (${ratio(backupMbps, limit.serve.mbps)} of serving, ` +
      `${ratio(backupMbps, limit.work.mbps)} of hashing+compressing); mail archive ${ratio(mailsPerSecond, mailLimit)} of the limit ` +
      `(${ratio(mailsPerSecond, limit.serveMail.mails)} of serving, ${ratio(mailsPerSecond, limit.workMail.mails)} of hashing+compressing)`,
  );
  console.log(
    `peak resident memory: this process (engine, database${url ? ' client' : ''}, blob store) ${mb(serverPeak)} MB; ` +
      `the simulator's process ${mb(simulatorPeak)} MB`,
  );
  console.log(
    `peak resident memory of this process by phase: ${[...phasePeaks].map(([name, rss]) => `${name} ${mb(rss)} MB`).join(', ')}; ` +
      `at the peak the main thread's JavaScript heap held ${mb(atPeak?.heapUsed ?? 0)} MB of ${mb(atPeak?.heapTotal ?? 0)} MB, ` +
      `buffers ${mb(atPeak?.arrayBuffers ?? 0)} MB (the rest: the database thread, WebAssembly, native memory)`,
  );
  await sim.close();

  // The new kinds, against a tenant of their own: the engine's client follows the tenant's address.
  const kindsSim = await spawnSimulator(KINDS_SIZE);
  trustCertificates([kindsSim.caCertificate]);
  await db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
    TENANT,
    kindsSim.graphBaseUrl,
    kindsSim.authorityHost,
  ]);
  const kindsGraph = await leanClient(kindsSim);
  const kindsUsers = (await kindsGraph.pages('/users?$select=userPrincipalName,mail'))
    .filter((u) => u.mail)
    .map((u) => u.userPrincipalName);
  const sites = (await kindsGraph.pages('/sites')).map((s) => s.id);
  const mailboxJob = await job('exchangeArchive', 'exchange', kindsUsers);
  const siteJob = await job('backup', 'sharepoint', sites);
  const firstArchive = await timed(mailboxJob, kindsSim);
  const firstSites = await timed(siteJob, kindsSim);
  const counts = (r) => (typeof r.mailbox_items === 'string' ? JSON.parse(r.mailbox_items) : (r.mailbox_items ?? {}));
  /** Graph adds or edits one kind, then the job's incremental run is timed alone: that kind per second. */
  const kind = async (jobId, change, counted) => {
    await kindsSim.evolve(change);
    const timedRun = await timed(jobId, kindsSim);
    const n = counted(timedRun.run);
    return { n, seconds: timedRun.seconds, status: timedRun.run.status, cpu: timedRun.cpu };
  };
  const kinds = [
    ['events archived', await kind(mailboxJob, { newEvents: KIND_ITEMS }, (r) => counts(r).events ?? 0)],
    ['contacts archived', await kind(mailboxJob, { newContacts: KIND_ITEMS }, (r) => counts(r).contacts ?? 0)],
    ['tasks archived', await kind(mailboxJob, { newTasks: KIND_ITEMS }, (r) => counts(r).tasks ?? 0)],
    ['list items backed up', await kind(siteJob, { newListItems: KIND_ITEMS }, (r) => Number(r.list_items_done))],
    [
      'pages backed up',
      await kind(siteJob, { editedPages: KINDS_SIZE.pagesPerSite * sites.length }, (r) => Number(r.pages_done)),
    ],
  ];
  // The first runs only set the stage: the simulator generates the same mailboxes for the tenant as
  // above, whose mails, events, contacts and tasks the mail archive above already holds.
  console.log(
    `new kinds (${kindsUsers.length} mailboxes, ${sites.length} sites; first archive ${firstArchive.seconds.toFixed(1)} s, ` +
      `first site backup ${firstSites.seconds.toFixed(1)} s with ${firstSites.run.list_items_done} list items and ` +
      `${firstSites.run.pages_done} pages), ${KIND_ITEMS} new events, contacts, tasks and list items, ` +
      `${KINDS_SIZE.pagesPerSite * sites.length} page edits on pages drawn at random:`,
  );
  for (const [name, k] of kinds)
    console.log(
      `${name}: ${k.n} in an incremental run of ${k.seconds.toFixed(2)} s = ${(k.n / k.seconds).toFixed(0)}/s ` +
        `(run status ${k.status}; ${k.cpu})`,
    );
  await drop();
  await kindsSim.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const postgres = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
// BENCH_PGLITE=0 runs PostgreSQL alone: the peak memory of a process that held PGlite before stays high.
if (process.env.BENCH_PGLITE !== '0') await run('PGlite (embedded)', undefined);
if (postgres) await run('PostgreSQL', postgres);
clearInterval(sampler);
