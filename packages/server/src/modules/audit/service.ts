import type { AuditChainReport, AuditEntry, AuditQuery, AuditVerifyQuery } from '@compliance-portal/sdk';
import { requireOrganisation } from '../../access/scope.js';
import { toEntry, verifyOrganisationChain } from '../../audit/audit-log.js';
import type { AppContext } from '../../context.js';
import type { User } from '../identity/users.js';
import { countAuditEntries, listAuditEntries } from './repository.js';

/**
 * A page of an organisation's audit log, newest first: the user's own organisation by default, another
 * only when the user may act for it (else 404).
 */
export async function auditLog(
  ctx: AppContext,
  user: User,
  query: AuditQuery = {},
): Promise<{ items: AuditEntry[]; total: number; page: number; pageSize: number }> {
  const organisationId = query.organisationId ?? user.organisationId;
  await requireOrganisation(ctx, user, organisationId);
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 50;
  const filter = {
    organisationId,
    ...(query.action ? { action: query.action } : {}),
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
  const total = await countAuditEntries(ctx.db, filter);
  const rows = await listAuditEntries(ctx.db, filter, { limit: pageSize, offset: (page - 1) * pageSize });
  return {
    items: rows.map((row) => ({ ...toEntry(row), actorName: row.actor_name, targetName: row.target_name })),
    total,
    page,
    pageSize,
  };
}

/**
 * Verifies an organisation's audit entries against the hash chain (see verifyOrganisationChain): the
 * user's own organisation by default, another only when the user may act for it (else 404). A read:
 * not audited.
 */
export async function verifyAuditLog(
  ctx: AppContext,
  user: User,
  query: AuditVerifyQuery = {},
): Promise<AuditChainReport> {
  const organisationId = query.organisationId ?? user.organisationId;
  await requireOrganisation(ctx, user, organisationId);
  const started = performance.now();
  const report = await verifyOrganisationChain(ctx.db, organisationId);
  return {
    ...report,
    checkedAt: ctx.now().toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}
