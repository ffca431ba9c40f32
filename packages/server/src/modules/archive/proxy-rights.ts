/**
 * Proxy rights: who may read which mailbox's archive. Holders are accounts with a mailbox (from
 * discovery), the portal's users who act for the organisation, and mail-enabled groups (read live
 * from Microsoft 365); a holder named twice in one request, or one that already holds the right, is
 * refused with a message.
 */
import { randomUUID } from 'node:crypto';
import type { ProxyPrincipal, ProxyRight } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { microsoft365Refusal } from '../../http/graph-errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { refreshDiscovery } from '../discovery/service.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';

interface RightRow {
  right_id: string;
  mailbox_id: string;
  mailbox_name: string;
  principal_id: string;
  principal_kind: ProxyPrincipal['kind'];
  principal_name: string;
  principal_email: string;
  granted_by: string;
  granted_at: Date;
}

const view = (r: RightRow): ProxyRight => ({
  rightId: r.right_id,
  mailboxId: r.mailbox_id,
  mailboxName: r.mailbox_name,
  principal: {
    principalId: r.principal_id,
    kind: r.principal_kind,
    displayName: r.principal_name,
    email: r.principal_email,
  },
  grantedBy: r.granted_by,
  granted: new Date(r.granted_at).toISOString(),
});

/** Accounts with a mailbox and mail-enabled groups of the tenant, by name. */
export async function proxyPrincipals(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  search?: string,
): Promise<ProxyPrincipal[]> {
  await refreshDiscovery(ctx, connect, tenant, 'exchange');
  const accounts = await ctx.db.query<{ source_id: string; display_name: string; email: string | null }>(
    `select source_id, display_name, email from discovered_sources where tenant_id = $1 and application = 'exchange'`,
    [tenant.tenantId],
  );
  const principals: ProxyPrincipal[] = accounts.map((a) => ({
    principalId: a.source_id,
    kind: 'account',
    displayName: a.display_name,
    email: a.email ?? '',
  }));
  // The portal's own people who act for the organisation (its administrators, its partner's staff):
  // eDiscovery lets them read a mailbox only through such a right.
  const people = await ctx.db.query<{ id: string; display_name: string; email: string }>(
    `select u.id, u.display_name, u.email from users u join organisations o on o.id = $1
      where u.organisation_id = o.id or u.organisation_id = o.partner_id order by u.email`,
    [tenant.organisationId],
  );
  for (const p of people)
    if (!principals.some((a) => a.email.toLowerCase() === p.email.toLowerCase()))
      principals.push({ principalId: `user:${p.id}`, kind: 'account', displayName: p.display_name, email: p.email });
  try {
    const graph = await connect();
    for await (const group of graph.groups()) {
      if (!group.mail || !group.mailEnabled) continue;
      principals.push({
        principalId: group.id ?? '',
        kind: 'distributionGroup',
        displayName: group.displayName ?? group.mail,
        email: group.mail,
      });
    }
  } catch (error) {
    throw microsoft365Refusal(error, 'mailArchive');
  }
  const needle = search?.trim().toLowerCase();
  return principals
    .filter((p) => !needle || `${p.displayName} ${p.email}`.toLowerCase().includes(needle))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.principalId.localeCompare(b.principalId));
}

export async function listRights(
  ctx: AppContext,
  tenantId: string,
  filter: { mailboxId?: string; principalId?: string },
) {
  const rows = await ctx.db.query<RightRow>(
    `select * from proxy_rights where tenant_id = $1 and ($2::text is null or mailbox_id = $2)
        and ($3::text is null or principal_id = $3) order by mailbox_name, principal_name, right_id`,
    [tenantId, filter.mailboxId ?? null, filter.principalId ?? null],
  );
  return rows.map(view);
}

export async function grantRights(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  body: { mailboxId: string; principalIds: string[] },
): Promise<ProxyRight[]> {
  const repeated = body.principalIds.filter((id, i) => body.principalIds.indexOf(id) !== i);
  if (repeated.length > 0) throw badRequest('This account or group is already selected.');
  const principals = await proxyPrincipals(ctx, connect, tenant);
  const mailbox = principals.find((p) => p.kind === 'account' && p.principalId === body.mailboxId);
  if (!mailbox) throw notFound('Mailbox not found');
  const chosen = body.principalIds.map((id) => {
    const principal = principals.find((p) => p.principalId === id);
    if (!principal) throw badRequest(`No account or group ${id} was found in the tenant.`);
    if (id === body.mailboxId) throw conflict(`${principal.displayName} reads its own archive already.`);
    return principal;
  });
  const holders = await listRights(ctx, tenant.tenantId, { mailboxId: body.mailboxId });
  const holding = chosen.find((p) => holders.some((h) => h.principal.principalId === p.principalId));
  if (holding) throw conflict(`${holding.displayName} already holds the right to read this archive.`);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const granted: ProxyRight[] = [];
    for (const p of chosen) {
      const [row] = await tx.query<RightRow>(
        `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind,
                                   principal_name, principal_email, granted_by, granted_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (tenant_id, mailbox_id, principal_id) do nothing returning *`,
        [
          randomUUID(),
          tenant.tenantId,
          mailbox.principalId,
          mailbox.displayName,
          p.principalId,
          p.kind,
          p.displayName,
          p.email,
          actor.user.email,
          now,
        ],
      );
      // A concurrent grant stored it since the check above: the check's refusal, and nothing of this
      // request is kept.
      if (!row) throw conflict(`${p.displayName} already holds the right to read this archive.`);
      granted.push(view(row));
      await ctx.audit(
        {
          ...actedBy(actor.user, actor.ip),
          organisationId: tenant.organisationId,
          action: 'proxyRight.grant',
          target: `${mailbox.principalId}:${p.principalId}`,
          outcome: 'success',
        },
        tx,
      );
    }
    return granted;
  });
}

export async function revokeRight(
  ctx: AppContext,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  rightId: string,
) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<RightRow>(
      'delete from proxy_rights where tenant_id = $1 and right_id = $2 returning *',
      [tenant.tenantId, rightId],
    );
    if (!row) throw notFound('Proxy right not found');
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'proxyRight.revoke',
        target: `${row.mailbox_id}:${row.principal_id}`,
        outcome: 'success',
      },
      tx,
    );
  });
}
