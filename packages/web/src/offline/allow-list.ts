/**
 * Which queries are kept for offline reading: dashboards and reports, and the lists that lead to
 * them (report lists, job lists, tenants, locations, the names reports show). Everything else (search
 * results, previews, browsing, settings) is read live only.
 */
const TENANT_PARTS = new Set(['dashboard', 'reporting', 'monitoring', 'jobs', 'locations']);
const WORKER_PARTS = new Set(['archive-statistics', 'teams-statistics', 'mailboxes-top', 'mailboxes']);

export function isPersistedQuery(queryKey: readonly unknown[]): boolean {
  const [scope, , part] = queryKey;
  if (scope === 'tenant') {
    if (typeof part !== 'string') return false;
    if (TENANT_PARTS.has(part)) return true;
    // The names of accounts, sites and teams that reports and dashboards show.
    return part === 'discovery' && queryKey[queryKey.length - 1] === 'names';
  }
  if (scope === 'worker') return typeof part === 'string' && WORKER_PARTS.has(part);
  if (scope === 'tenants') return queryKey.length === 1;
  if (scope === 'organisation') return part === 'licence';
  return scope === 'legacy' && queryKey[1] === 'clients';
}
