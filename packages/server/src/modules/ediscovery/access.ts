import { chatsOf } from '../../archive-data/archive-repository.js';
import { actedBy } from '../../audit/audit-by.js';
/**
 * Who may read which archived mail: the one rule behind eDiscovery's search and preview and the
 * archive's downloads and restores. A person reads the mailbox with their own address and those a
 * proxy right gives them, directly or through a group they belong to. Teams chats follow their
 * members: a chat is readable when one of its members' mailboxes is. Teams channel messages of the
 * organisation's teams are open to the people who act for it, as are the lists of mailboxes with
 * their names, sizes and counts; the content of a mail is not.
 */
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { mailboxesOfAddress, rightHolders } from './repository.js';

/** The refusal of a mailbox's archived mail to who may not read it. */
const NEEDS_PROXY_RIGHT = "You need a proxy right to read this mailbox's archive.";

/** The mailboxes whose archive `user` may read in `tenant`. */
export async function readableMailboxes(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
): Promise<string[]> {
  const email = user.email.toLowerCase();
  const own = await mailboxesOfAddress(ctx.db, tenant.tenantId, email);
  const rights = await rightHolders(ctx.db, tenant.tenantId);
  const readable = new Set(own);
  for (const r of rights)
    if (r.principal_kind === 'account' && r.principal_email.toLowerCase() === email) readable.add(r.mailbox_id);
  const groups = [
    ...new Set(rights.filter((r) => r.principal_kind === 'distributionGroup').map((r) => r.principal_id)),
  ];
  if (groups.length > 0) {
    try {
      const graph = await connect();
      for (const groupId of groups) {
        for await (const member of graph.groupMembers(groupId)) {
          const address = (member.mail ?? member.userPrincipalName ?? '').toLowerCase();
          if (address !== email) continue;
          for (const r of rights) if (r.principal_id === groupId) readable.add(r.mailbox_id);
          break;
        }
      }
    } catch (error) {
      // Without Microsoft 365 no group membership can be confirmed: those rights do not apply now.
      ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'group membership for proxy rights unavailable');
    }
  }
  return [...readable].sort();
}

/** May `user` see the archived item of `kind` from `source`? Mail and chats by the mailboxes rule. */
export async function mayReadItem(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  item: { kind: 'mail' | 'teams' | 'chat'; source: string },
): Promise<boolean> {
  if (item.kind === 'teams') return true;
  const mailboxes = await readableMailboxes(ctx, connect, tenant, user);
  if (item.kind === 'mail') return mailboxes.includes(item.source);
  return (await chatsOf(ctx.db, tenant.tenantId, mailboxes)).includes(item.source);
}

/**
 * Lets `actor` read the archived mail of `mailboxId` (its .eml or ZIP, a preview, a restore into
 * another mailbox) only by the rule above; a refusal is audited as a failure of `action` and answers
 * 403 with {@link NEEDS_PROXY_RIGHT}.
 */
export async function requireMailboxRead(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  mailboxId: string,
  action: string,
): Promise<void> {
  if ((await readableMailboxes(ctx, connect, tenant, actor.user)).includes(mailboxId)) return;
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action,
    target: mailboxId,
    outcome: 'failure',
    details: { reason: 'no right to read the mailbox' },
  });
  throw forbidden(NEEDS_PROXY_RIGHT);
}
