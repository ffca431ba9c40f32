import type { AuditRow } from '../../audit/audit-log.js';
import type { Queryable } from '../../db/database.js';

export interface AuditFilter {
  organisationId: string;
  /** An exact action, or a prefix when it ends in a dot (`auth.`). */
  action?: string;
  /** Part of the actor's address or current display name, case-insensitive. */
  actor?: string;
  outcome?: string;
  /** At or after. */
  from?: string;
  /** Before. */
  to?: string;
}

function where(filter: AuditFilter): { clause: string; params: unknown[] } {
  const where = ['a.organisation_id = $1'];
  const params: unknown[] = [filter.organisationId];
  if (filter.action) {
    const prefix = filter.action.endsWith('.');
    params.push(prefix ? `${filter.action.replace(/[%_\\]/g, '\\$&')}%` : filter.action);
    where.push(`a.action ${prefix ? 'like' : '='} $${params.length}`);
  }
  const actor = filter.actor?.trim().toLowerCase();
  if (actor) {
    params.push(`%${actor.replace(/[%_\\]/g, '\\$&')}%`);
    where.push(
      `(lower(a.actor_email) like $${params.length}
        or exists (select 1 from users u where u.id = a.actor_user_id and lower(u.display_name) like $${params.length}))`,
    );
  }
  if (filter.outcome) {
    params.push(filter.outcome);
    where.push(`a.outcome = $${params.length}`);
  }
  if (filter.from) {
    params.push(filter.from);
    where.push(`a.at >= $${params.length}`);
  }
  if (filter.to) {
    params.push(filter.to);
    where.push(`a.at < $${params.length}`);
  }
  return { clause: where.join(' and '), params };
}

export async function countAuditEntries(db: Queryable, filter: AuditFilter): Promise<number> {
  const { clause, params } = where(filter);
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from audit_log a where ${clause}`, params);
  return Number(row?.n ?? 0);
}

/** An entry with the names of its actor and target, where they are known. */
export interface NamedAuditRow extends AuditRow {
  actor_name: string | null;
  target_name: string | null;
}

/**
 * The name of what an entry's target names: a user, tenant, location, job or eDiscovery case of the
 * entry's organisation, or the organisation itself, as it is called now; for one deleted since, the
 * name the entry recorded. Only the entry's own organisation's things are looked up.
 */
const TARGET_NAME = `coalesce(
  (select t.display_name from users t where t.id = a.target and t.organisation_id = a.organisation_id),
  (select t.tenant_name from tenants t where t.tenant_id = a.target and t.organisation_id = a.organisation_id),
  (select l.name from locations l join tenants t on t.tenant_id = l.tenant_id
    where l.location_id = a.target and t.organisation_id = a.organisation_id),
  (select j.name from jobs j join tenants t on t.tenant_id = j.tenant_id
    where j.job_id = a.target and t.organisation_id = a.organisation_id),
  (select c.name from ediscovery_cases c join tenants t on t.tenant_id = c.tenant_id
    where c.case_id = a.target and t.organisation_id = a.organisation_id),
  (select o.name from organisations o where o.id = a.target and o.id = a.organisation_id),
  a.details->>'displayName', a.details->>'name', a.details->>'tenantName')`;

/** One page of the entries, newest first, with the actor's and the target's names. */
export async function listAuditEntries(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<NamedAuditRow[]> {
  const { clause, params } = where(filter);
  params.push(page.limit, page.offset);
  return db.query<NamedAuditRow>(
    `select a.*, (select u.display_name from users u where u.id = a.actor_user_id) as actor_name,
            ${TARGET_NAME} as target_name
       from audit_log a where ${clause}
      order by a.seq desc limit $${params.length - 1} offset $${params.length}`,
    params,
  );
}
