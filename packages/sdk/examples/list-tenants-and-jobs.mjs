// @ts-check
/**
 * Lists the signed-in user's Microsoft 365 tenants, each with its storage locations and every job
 * (all pages, fetched as the loop goes), and the organisation's licence.
 *
 * Environment:
 *   PORTAL_URL      the portal's origin, such as https://portal.example.com
 *   PORTAL_API_KEY  the application key, sent as X-Api-Key (the server's PORTAL_API_KEY)
 *   PORTAL_TOKEN    a signed-in user's token: the accessToken of apollo /login (see sign-in.mjs) or
 *                   the token of the portal's code verification
 *
 * Run: node examples/list-tenants-and-jobs.mjs
 */
import { createClient } from '@compliance-portal/sdk';

const env = (/** @type {string} */ name) => process.env[name] || fail(`Set ${name}.`);
/** @returns {never} */
function fail(/** @type {string} */ message) {
  console.error(message);
  process.exit(2);
}

const client = createClient({ origin: env('PORTAL_URL'), apiKey: env('PORTAL_API_KEY'), token: env('PORTAL_TOKEN') });

const tenants = await client.apollo.tenants.list();
console.log(`${tenants.length} tenant(s)`);
for (const tenant of tenants) {
  const { tenantId } = tenant;
  console.log(`\n${tenant.tenantName} (${tenantId})${tenant.isActive ? ', active' : ''}, ${tenant.provisioning}`);
  for (const location of await client.apollo.locations.list({ tenantId })) {
    console.log(`  location ${location.name}: ${location.siteAddress}, used by ${location.usedByJobs} job(s)`);
  }
  let jobs = 0;
  for await (const job of client.apollo.jobs.list.items({ tenantId, query: { sort: 'name', pageSize: 50 } })) {
    jobs += 1;
    const next = job.nextRun ? `, next run ${job.nextRun}` : '';
    console.log(`  job ${job.name}: ${job.type} of ${job.application}, ${job.status} (${job.progress} %)${next}`);
  }
  if (jobs === 0) console.log('  no jobs yet');
}

const license = await client.apollo.configuration.license();
console.log(`\nLicence: ${license.kind}${license.validUntil ? ` until ${license.validUntil}` : ''}`);
