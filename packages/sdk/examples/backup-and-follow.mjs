// @ts-check
/**
 * Creates a OneDrive backup job for the first accounts discovery finds in the active tenant, starts
 * it and follows its run in the job monitor until it ends, printing the progress; then prints the
 * run's report, account by account.
 *
 * Environment:
 *   PORTAL_URL       the portal's origin, such as https://portal.example.com
 *   PORTAL_API_KEY   the application key, sent as X-Api-Key (the server's PORTAL_API_KEY)
 *   PORTAL_TOKEN     a signed-in user's token: the accessToken of apollo /login (see sign-in.mjs) or
 *                    the token of the portal's code verification
 *   BACKUP_ACCOUNTS  how many accounts to back up (default 2)
 *
 * Run: node examples/backup-and-follow.mjs
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@compliance-portal/sdk';

const env = (/** @type {string} */ name) => process.env[name] || fail(`Set ${name}.`);
/** @returns {never} */
function fail(/** @type {string} */ message) {
  console.error(message);
  process.exit(2);
}

const client = createClient({ origin: env('PORTAL_URL'), apiKey: env('PORTAL_API_KEY'), token: env('PORTAL_TOKEN') });
// Give up on the whole thing after five minutes: every call below takes this signal.
const signal = AbortSignal.timeout(5 * 60_000);

const tenants = await client.apollo.tenants.list(undefined, { signal });
const tenant = tenants.find((t) => t.isActive) ?? tenants[0] ?? fail('No tenant.');
const { tenantId } = tenant;
const [location] = await client.apollo.locations.list({ tenantId }, { signal });
if (!location) fail(`${tenant.tenantName} has no storage location.`);
const { locationId } = location;

// Discovery lists the tenant's OneDrive accounts as Microsoft 365 has them.
const found = await client.apollo.discovery.users(
  { tenantId, locationId, query: { application: 'onedrive', pageSize: Number(process.env.BACKUP_ACCOUNTS ?? 2) } },
  { signal },
);
const sources = found.items.map((account) => account.sourceId);
console.log(`Backing up ${found.items.map((a) => a.displayName).join(', ')} of ${found.total} accounts`);

const job = await client.apollo.jobs.create(
  {
    tenantId,
    body: {
      name: `SDK example ${new Date().toISOString().slice(0, 19)}`,
      type: 'backup',
      application: 'onedrive',
      sources,
      locationId,
      recurrence: { kind: 'weekly', hours: [2] },
      retention: { unit: 'months', value: 6 },
    },
  },
  { signal },
);
const task = await client.apollo.jobs.start({ tenantId, jobId: job.jobId }, { signal });
console.log(`Job "${job.name}" created (${job.jobId}); start requested (task ${task.taskId})`);

// Follow the run in the monitor (newest first): this job's run, once a second, until it has ended.
let run;
let shown = '';
for (;;) {
  const { items } = await client.apollo.monitoring.list(
    { tenantId, query: { jobId: job.jobId, pageSize: 1 } },
    { signal },
  );
  run = items[0];
  const line = run
    ? `${run.status} ${run.progress} %: ${run.itemsProcessed} items, ${run.bytesProcessed} bytes`
    : 'waiting for the run';
  if (line !== shown) console.log(`  ${line}`);
  shown = line;
  if (run && (run.status === 'finished' || run.status === 'failed')) break;
  await sleep(1000, undefined, { signal });
}

// The run's report has the run's id; its accounts come page by page.
console.log(`Run ${run.reportId} ${run.status}${run.status === 'failed' ? `: ${run.message}` : ''}`);
for await (const account of client.apollo.reporting.accounts.items({ tenantId, reportId: run.reportId }, { signal })) {
  const failed = account.failedItems ? `, ${account.failedItems} failed` : '';
  console.log(`  ${account.displayName}: ${account.status}, ${account.items} items, ${account.bytes} bytes${failed}`);
}
if (run.status !== 'finished') process.exitCode = 1;
