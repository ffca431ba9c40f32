// The read endpoints of the catalogue a signed-in customer administrator calls (lists, dashboards,
// reports, monitor), with their path and query parameters filled from the demo world's data.
import { endpoints } from '@compliance-portal/sdk';
import { API_KEY } from './lib.mjs';

/** Not reads of lists, dashboards, reports or the monitor: sign-in and session calls, task status polls. */
const notReads = new Set(['apollo.tenants.task', 'apollo.jobs.status', 'apollo.ediscovery.preview']);

/** The GET endpoints measured: JSON answers only (no downloads), no auth resource. */
export const readEndpoints = () =>
  endpoints.filter(
    (e) =>
      e.method === 'GET' &&
      e.responseKind === 'json' &&
      !e.id.startsWith('apollo.auth.') &&
      !e.id.startsWith('legacy.auth.') &&
      !notReads.has(e.id),
  );

const enumOf = (schema, name) => schema?.properties?.[name]?.enum;

/** Headers of a signed-in admin on each API. */
export const headersFor = (api, token) =>
  api === 'apollo' ? { 'x-api-key': API_KEY, authorization: `Bearer ${token}` } : { authorization: token };

const prefix = (api) => (api === 'apollo' ? '/apollo-beta' : '/api');

/** Reads the ids the parameters need from the demo world, as the admin sees it. */
export async function demoValues(origin, token) {
  const get = async (api, path) => {
    const r = await fetch(`${origin}${prefix(api)}${path}`, { headers: headersFor(api, token) });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const items = (answer) => (Array.isArray(answer) ? answer : (answer.items ?? []));
  const [tenant] = items(await get('apollo', '/api/Tenants'));
  const t = tenant.tenantId;
  const { worker, clientId } = await get('legacy', '/client');
  const jobs = items(await get('apollo', `/api/${t}/jobs?pageSize=100`));
  const locations = items(await get('apollo', `/api/${t}/locations`));
  const reports = items(await get('apollo', `/api/${t}/reporting?pageSize=100`));
  const biggest = [...reports].sort((a, b) => b.totals.accounts - a.totals.accounts)[0];
  const dm = items(await get('apollo', `/api/${t}/reporting/data-management-reports?pageSize=100`));
  const backupJob = jobs.find((j) => j.type === 'backup' && j.application === 'onedrive' && j.locationId);
  const locationId = backupJob?.locationId ?? locations[0]?.locationId;
  const users = items(await get('apollo', `/api/${t}/discovery/${locationId}/users?pageSize=100`));
  const groups = items(await get('apollo', `/api/${t}/discovery/${locationId}/groups?pageSize=100`));
  const cases = items(await get('apollo', `/api/${t}/ediscovery/cases`));
  const w = worker.workerIp;
  const teams = items(await get('legacy', `/teams?workerIp=${w}`));
  const mailboxes = items(await get('legacy', `/archive/mailboxes/${w}/${worker.indexIp}`));
  const principals = items(await get('legacy', `/proxy-accounts?workerIp=${w}`));
  const source = backupJob?.sources?.[0] ?? users[0]?.id;
  return {
    tenantId: t,
    organisationId: clientId,
    jobId: jobs[0]?.jobId,
    locationId,
    reportId: biggest?.reportId,
    dataManagementReportId: dm[0]?.reportId,
    sourceId: source,
    nodeId: 'root',
    groupId: groups[0]?.id ?? groups[0]?.groupId,
    caseId: cases[0]?.caseId,
    workerIp: w,
    ip: w,
    indexIp: worker.indexIp,
    workerId: worker.workerId,
    abbr: worker.abbr,
    teamId: teams[0]?.id ?? teams[0]?.teamId,
    mailboxId: mailboxes[0]?.id ?? mailboxes[0]?.mailboxId,
    principalId: principals[0]?.id ?? principals[0]?.principalId,
    type: 'user',
    prefix: 'email',
  };
}

/**
 * One request per measured endpoint: `{ id, api, path }`, or `{ id, skipped }` when the demo world
 * has nothing to fill a parameter with. A dashboard is measured for each workload and view.
 */
export function readRequests(values) {
  const out = [];
  for (const e of readEndpoints()) {
    const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const expand = e.id === 'apollo.dashboards.application' ? ['application', 'view'] : [];
    let variants = [{}];
    for (const name of expand) {
      variants = variants.flatMap((v) => enumOf(e.params, name).map((value) => ({ ...v, [name]: value })));
    }
    for (const variant of variants) {
      const given = { ...values, ...variant };
      if (e.id === 'apollo.reporting.dataManagementAccounts') given.reportId = values.dataManagementReportId;
      if (e.id === 'apollo.monitoring.accounts') given.reportId = values.reportId;
      if (e.id === 'legacy.workers.clientsByType') given.type = enumOf(e.params, 'type')[0];
      const missing = names.find((n) => given[n] === undefined);
      const required = e.query?.required ?? [];
      const missingQuery = required.find((n) => given[n] === undefined);
      if (missing || missingQuery) {
        out.push({ id: e.id, skipped: `no ${missing ?? missingQuery} in the demo world` });
        continue;
      }
      const path = e.path.replace(/\{(\w+)\}/g, (_, n) => encodeURIComponent(given[n]));
      const query = new URLSearchParams(required.map((n) => [n, given[n]])).toString();
      const label = expand.length ? `${e.id} ${expand.map((n) => variant[n]).join('/')}` : e.id;
      out.push({ id: label, api: e.api, path: `${prefix(e.api)}${path}${query ? `?${query}` : ''}` });
    }
  }
  return out;
}
