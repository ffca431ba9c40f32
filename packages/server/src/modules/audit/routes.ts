import { type AuditRow, toEntry } from '../../audit/audit-log.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { requireOrganisation } from '../organisations/access.js';

export function auditRoutes(ctx: AppContext) {
  return routes({
    'apollo.audit.list': {
      async handler({ query }, rc) {
        const { user } = session(rc).auth;
        const organisationId = query?.organisationId ?? user.organisationId;
        await requireOrganisation(ctx, user, organisationId);
        const page = query?.page ?? 1;
        const pageSize = query?.pageSize ?? 50;
        const where = ['organisation_id = $1'];
        const params: unknown[] = [organisationId];
        if (query?.action) {
          params.push(query.action.endsWith('.') ? `${query.action}%` : query.action);
          where.push(`action ${query.action.endsWith('.') ? 'like' : '='} $${params.length}`);
        }
        if (query?.outcome) {
          params.push(query.outcome);
          where.push(`outcome = $${params.length}`);
        }
        if (query?.from) {
          params.push(query.from);
          where.push(`at >= $${params.length}`);
        }
        if (query?.to) {
          params.push(query.to);
          where.push(`at < $${params.length}`);
        }
        const clause = where.join(' and ');
        const [count] = await ctx.db.query<{ n: number }>(
          `select count(*)::int as n from audit_log where ${clause}`,
          params,
        );
        params.push(pageSize, (page - 1) * pageSize);
        const rows = await ctx.db.query<AuditRow>(
          `select * from audit_log where ${clause} order by seq desc limit $${params.length - 1} offset $${params.length}`,
          params,
        );
        return { items: rows.map(toEntry), total: Number(count?.n ?? 0), page, pageSize };
      },
    },
  });
}
