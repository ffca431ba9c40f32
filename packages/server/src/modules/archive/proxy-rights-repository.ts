/**
 * The SQL of proxy rights (`proxy_rights`) and of the holders they may name: the tenant's accounts
 * with a mailbox as discovery found them, and the portal's people of the organisation and its partner.
 */
import type { ProxyPrincipal } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';

/** A proxy right as stored: the mailbox and the holder by name, as they were when it was granted. */
export interface RightRow {
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

/** The tenant's accounts with a mailbox, as discovery found them. */
export async function mailboxAccounts(
  db: Queryable,
  tenantId: string,
): Promise<{ source_id: string; display_name: string; email: string | null }[]> {
  return db.query<{ source_id: string; display_name: string; email: string | null }>(
    `select source_id, display_name, email from discovered_sources where tenant_id = $1 and application = 'exchange'`,
    [tenantId],
  );
}

/** The portal's users of the organisation and of its partner, by address. */
export async function organisationPeople(
  db: Queryable,
  organisationId: string,
): Promise<{ id: string; display_name: string; email: string }[]> {
  return db.query<{ id: string; display_name: string; email: string }>(
    `select u.id, u.display_name, u.email from users u join organisations o on o.id = $1
      where u.organisation_id = o.id or u.organisation_id = o.partner_id order by u.email`,
    [organisationId],
  );
}

/** The tenant's rights, of one mailbox or one holder when given, by mailbox and holder name. */
export async function rightsOf(
  db: Queryable,
  tenantId: string,
  filter: { mailboxId?: string; principalId?: string },
): Promise<RightRow[]> {
  return db.query<RightRow>(
    `select * from proxy_rights where tenant_id = $1 and ($2::text is null or mailbox_id = $2)
        and ($3::text is null or principal_id = $3) order by mailbox_name, principal_name, right_id`,
    [tenantId, filter.mailboxId ?? null, filter.principalId ?? null],
  );
}

/** Stores a right; undefined when the holder holds one on the mailbox already. */
export async function insertRight(
  db: Queryable,
  right: {
    rightId: string;
    tenantId: string;
    mailbox: { id: string; name: string };
    principal: ProxyPrincipal;
    grantedBy: string;
    grantedAt: Date;
  },
): Promise<RightRow | undefined> {
  const [row] = await db.query<RightRow>(
    `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind,
                               principal_name, principal_email, granted_by, granted_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     on conflict (tenant_id, mailbox_id, principal_id) do nothing returning *`,
    [
      right.rightId,
      right.tenantId,
      right.mailbox.id,
      right.mailbox.name,
      right.principal.principalId,
      right.principal.kind,
      right.principal.displayName,
      right.principal.email,
      right.grantedBy,
      right.grantedAt,
    ],
  );
  return row;
}

/** Deletes a right of the tenant; answers it, or undefined when there was none. */
export async function deleteRight(db: Queryable, tenantId: string, rightId: string): Promise<RightRow | undefined> {
  const [row] = await db.query<RightRow>(
    'delete from proxy_rights where tenant_id = $1 and right_id = $2 returning *',
    [tenantId, rightId],
  );
  return row;
}
