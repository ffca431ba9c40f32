import { buildApp } from './app.js';
import { createAppContext } from './app-context.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrations.js';
import type { DemoHistoryFigures } from './demo/demo-history.js';
import { dataPlaneOf } from './jobs/data-plane.js';
import { JobEngine } from './jobs/engine.js';
import { executors } from './jobs/executors.js';
import { createLogger } from './log.js';
import { drainBackground } from './modules/identity/background.js';
import { startNotificationScheduler } from './modules/notifications/scheduler.js';
import { prepareProcess } from './process-start.js';
import { azureContainer } from './storage/stores.js';

type Role = 'all' | 'web' | 'worker';

function roleFrom(argv: readonly string[], fromEnv: string | undefined): Role {
  const arg = argv.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? fromEnv ?? 'all';
  if (arg !== 'all' && arg !== 'web' && arg !== 'worker')
    throw new Error(`--role must be all, web or worker, not ${arg}`);
  return arg;
}

const started = performance.now();
const { config, warnings } = prepareProcess();
const log = createLogger(config.logLevel);
for (const warning of warnings) log.warn(warning);
const db = await openDatabase(config, (err) => log.warn({ err }, 'idle database connection lost'));
const applied = await migrate(db);
if (applied.length > 0) log.info({ applied }, 'migrations applied');

const now = () => new Date();
const ctx = createAppContext(config, db, log);

// The embedded database has no autovacuum: without statistics its planner sorts whole tables where
// an index would do. They are gathered at start and every ten minutes.
if (db.kind === 'pglite') {
  const analyze = () => db.exec('analyze').catch((err: unknown) => log.warn({ err }, 'analyze failed'));
  await analyze();
  setInterval(analyze, 10 * 60_000).unref();
}

// --role=all (default): the API, the PWA and a job worker; web: no worker; worker: jobs only
// (PostgreSQL only: the embedded database belongs to one process).
const role = roleFrom(process.argv, process.env.PORTAL_ROLE);
if (role === 'worker' && db.kind !== 'postgres') {
  throw new Error('--role=worker shares the job queue through PostgreSQL: set DATABASE_URL');
}

// Demo mode only (PORTAL_DEMO): a production database never gets well-known accounts. With its history
// (PORTAL_DEMO_HISTORY), made by the one process of a demo (separate workers would take the history's
// past runs as due now), the demo world begins thirty days ago. The demo and the Microsoft 365
// simulator it runs are development dependencies: loaded only in demo mode.
const demo = config.demo
  ? {
      ...(await import('./demo/demo-history.js')),
      ...(await import('./demo/demo-simulator.js')),
      ...(await import('./demo/seed.js')),
    }
  : undefined;
const demoBegins = demo && config.demoHistory && role === 'all' ? demo.demoHistoryStart(now()) : undefined;
const seeded = demo ? await demo.seedDemo(demoBegins ? demo.pastContext(ctx, () => demoBegins) : ctx, now()) : null;

if (demo && role === 'worker') {
  // The web process serves the demo simulator; this one calls it, trusting its CA.
  log.info({ caCertificatePath: await demo.trustDemoSimulator(config) }, 'Microsoft 365 simulator trusted');
}
if (config.blobStore?.accountKey) {
  // The shared container is made on first start where the account key allows it (a SAS may not).
  const created = await azureContainer(config.blobStore.url, config.blobStore.accountKey)
    .createIfNotExists()
    .catch((err: unknown) => log.warn({ err }, 'the PORTAL_BLOB_STORE container could not be made; it must exist'));
  if (created?.succeeded) log.info({ url: config.blobStore.url.split('?')[0] }, 'PORTAL_BLOB_STORE container created');
}
const engine =
  role === 'web'
    ? undefined
    : new JobEngine(ctx, {
        executors: executors(dataPlaneOf(ctx)),
        ...(config.workerConcurrency !== undefined ? { concurrency: config.workerConcurrency } : {}),
        ...(config.workerTenantConcurrency !== undefined ? { tenantConcurrency: config.workerTenantConcurrency } : {}),
        ...(config.workerTimeSliceMs !== undefined ? { timeSliceMs: config.workerTimeSliceMs } : {}),
      });
const app = role === 'worker' ? undefined : await buildApp(ctx);
let history: DemoHistoryFigures | undefined;
const simulator = demo?.demoSimulatorOf(ctx);
if (demo && seeded && demoBegins && simulator) {
  // The demo world's thirty days, run against the demo simulator before the portal opens.
  try {
    history = await demo.createDemoHistory(ctx, simulator.state);
    log.info({ ...history }, 'demo history created');
    // Its tables are no longer empty: the planner gets their statistics now, not in ten minutes.
    if (db.kind === 'pglite') await db.exec('analyze');
  } catch (err) {
    log.error({ err }, 'the demo history could not be completed; the demo world has what was made');
  }
}
if (demo && seeded) {
  const { DEMO_CONSENT_TENANT, DEMO_USERS, demoConsentSecret, describeHistory } = demo;
  // Printed once, on the start that creates the demo world; never logged again.
  process.stdout.write(
    `\nDemo world created. Sign in as ${DEMO_USERS.admin} or ${DEMO_USERS.partner}${
      seeded.generatedPassword ? ` with the password: ${seeded.generatedPassword}` : ' with PORTAL_DEMO_PASSWORD'
    }\nor as ${DEMO_USERS.microsoft} with "Sign in with Microsoft" (the simulator's sign-in page asks ${
      config.demoPassword ? 'for the same password' : 'for no password'
    }).\n${
      simulator
        ? `To connect a tenant by admin consent (Configuration, Tenants): ${DEMO_CONSENT_TENANT.name}'s app registration, application (client) ID ${DEMO_CONSENT_TENANT.applicationId}, client secret ${
            config.demoClientSecret ? 'PORTAL_DEMO_CLIENT_SECRET' : demoConsentSecret(config)
          }; its administrator on the simulator's page: ${DEMO_CONSENT_TENANT.administrator}.\n`
        : ''
    }${history ? `${describeHistory(history)}\n` : ''}\n`,
  );
}
if (app) {
  await app.listen({ host: config.host, port: config.port });
  log.info(
    {
      url: `http://${config.host}:${config.port}`,
      database: db.kind,
      role,
      startMs: Math.round(performance.now() - started),
    },
    'compliance portal listening',
  );
}
if (engine) {
  // On the embedded database this process is the only worker: runs it left running resume at once.
  await engine.start({ recoverAll: db.kind === 'pglite' });
  log.info({ workerId: engine.workerId, role }, 'job worker started');
}
// The scheduled mails go out from the processes that run jobs (PORTAL_NOTIFICATIONS); several of
// them on one database send each mail once.
const notifications = engine && config.notifications ? startNotificationScheduler(ctx) : undefined;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  try {
    // The worker first: its runs stop at their next checkpoint and go back to the queue while what
    // they call is still there (the demo simulator closes with the app).
    await engine?.stop();
    await notifications?.stop();
    await app?.close();
    // Mails and audit entries queued after an answer (password reset requests) go out before the end.
    await drainBackground(ctx);
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
