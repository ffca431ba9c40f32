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
import { badRequest, conflict, notFound } from '../../errors.js';
import { microsoft365Refusal } from '../../http/graph-errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { refreshDiscovery } from '../discovery/service.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  deleteRight,
  insertRight,
  mailboxAccounts,
  organisationPeople,
  type RightRow,
  rightsOf,
} from './proxy-rights-repository.js';

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
  const accounts = await mailboxAccounts(ctx.db, tenant.tenantId);
  const principals: ProxyPrincipal[] = accounts.map((a) => ({
    principalId: a.source_id,
    kind: 'account',
    displayName: a.display_name,
    email: a.email ?? '',
  }));
  // The portal's own people who act for the organisation (its administrators, its partner's staff):
  // eDiscovery lets them read a mailbox only through such a right.
  const people = await organisationPeople(ctx.db, tenant.organisationId);
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
  const rows = await rightsOf(ctx.db, tenantId, filter);
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
      const row = await insertRight(tx, {
        rightId: randomUUID(),
        tenantId: tenant.tenantId,
        mailbox: { id: mailbox.principalId, name: mailbox.displayName },
        principal: p,
        grantedBy: actor.user.email,
        grantedAt: now,
      });
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
    const row = await deleteRight(tx, tenant.tenantId, rightId);
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
