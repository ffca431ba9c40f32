/**
 * Legal hold on a case (storage/legal-hold.ts): whoever may edit the case may hold and release it.
 * The hold keeps what the case's search finds in what the holder may read at that moment; holding a
 * held case changes nothing. Both are audited with the number of items held.
 */
import type { EdiscoveryCase } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { placeHold, releaseHold } from '../../storage/legal-hold.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { findCase, readCase } from './cases.js';
import { searchScope } from './search.js';

export async function holdCase(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  caseId: string,
): Promise<EdiscoveryCase> {
  const found = await findCase(ctx, tenant.tenantId, caseId);
  if (found.hold) return found;
  // Read before the transaction: the holder's rights may need Microsoft 365 (group members).
  const scope = await searchScope(ctx, graph, tenant, actor.user, found.search);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ held_at: Date | null }>(
      'select held_at from ediscovery_cases where tenant_id = $1 and case_id = $2 for update',
      [tenant.tenantId, caseId],
    );
    if (!row) throw notFound('Case not found');
    // Held meanwhile by another request: that hold stands.
    if (row.held_at) return readCase(tx, tenant.tenantId, caseId);
    const items = await placeHold(tx, {
      tenantId: tenant.tenantId,
      caseId,
      scope,
      heldBy: actor.user.email,
      heldAt: ctx.now(),
    });
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'ediscovery.case.hold',
        target: caseId,
        outcome: 'success',
        details: { name: found.name, items, mailboxes: scope.mailSources.length },
      },
      tx,
    );
    return readCase(tx, tenant.tenantId, caseId);
  });
}

export async function releaseCase(
  ctx: AppContext,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  caseId: string,
): Promise<EdiscoveryCase> {
  return ctx.db.transaction(async (tx) => {
    // One release at a time: a second finds the case released and audits nothing.
    await tx.query('select 1 from ediscovery_cases where tenant_id = $1 and case_id = $2 for update', [
      tenant.tenantId,
      caseId,
    ]);
    const found = await readCase(tx, tenant.tenantId, caseId);
    if (!found.hold) return found;
    await releaseHold(tx, tenant.tenantId, caseId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'ediscovery.case.release',
        target: caseId,
        outcome: 'success',
        details: { name: found.name, items: found.hold.items },
      },
      tx,
    );
    return readCase(tx, tenant.tenantId, caseId);
  });
}
