import type { AuditRow } from '../../audit/audit-log.js';
import type { Queryable } from '../../db/database.js';

export interface AuditFilter {
  organisationId: string;
  /** An exact action, or a prefix when it ends in a dot (`auth.`). */
  action?: string;
  outcome?: string;
  /** At or after. */
  from?: string;
  /** Before. */
  to?: string;
}

function where(filter: AuditFilter): { clause: string; params: unknown[] } {
  const where = ['organisation_id = $1'];
  const params: unknown[] = [filter.organisationId];
  if (filter.action) {
    const prefix = filter.action.endsWith('.');
    params.push(prefix ? `${filter.action}%` : filter.action);
    where.push(`action ${prefix ? 'like' : '='} $${params.length}`);
  }
  if (filter.outcome) {
    params.push(filter.outcome);
    where.push(`outcome = $${params.length}`);
  }
  if (filter.from) {
    params.push(filter.from);
    where.push(`at >= $${params.length}`);
  }
  if (filter.to) {
    params.push(filter.to);
    where.push(`at < $${params.length}`);
  }
  return { clause: where.join(' and '), params };
}

export async function countAuditEntries(db: Queryable, filter: AuditFilter): Promise<number> {
  const { clause, params } = where(filter);
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from audit_log where ${clause}`, params);
  return Number(row?.n ?? 0);
}

/** One page of the entries, newest first. */
export async function listAuditEntries(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  const { clause, params } = where(filter);
  params.push(page.limit, page.offset);
  return db.query<AuditRow>(
    `select * from audit_log where ${clause} order by seq desc limit $${params.length - 1} offset $${params.length}`,
    params,
  );
}
