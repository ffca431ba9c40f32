/**
 * How many calendar events, contacts and To Do tasks a tenant's mail archive holds, for the figures
 * (the archive dashboard, the overview). An item counts once however many versions it has, and also
 * when it was deleted in the mailbox since: the archive keeps it, as it keeps a deleted mail.
 */
import type { Queryable } from '../db/database.js';

/** The kinds' totals of tenant `$1`, as one row (events, contacts, tasks); an SQL fragment to embed. */
export const MAILBOX_ITEM_TOTALS = `select
    (select count(*)::int from (select distinct mailbox, external_id from archived_events where tenant_id = $1) e) as events,
    (select count(*)::int from (select distinct mailbox, external_id from archived_contacts where tenant_id = $1) c) as contacts,
    (select count(*)::int from (select distinct mailbox, external_id from archived_tasks where tenant_id = $1) t) as tasks`;

export interface MailboxItemTotals {
  events: number;
  contacts: number;
  tasks: number;
}

export async function mailboxItemTotals(db: Queryable, tenantId: string): Promise<MailboxItemTotals> {
  const [row] = await db.query<MailboxItemTotals>(MAILBOX_ITEM_TOTALS, [tenantId]);
  return { events: Number(row?.events ?? 0), contacts: Number(row?.contacts ?? 0), tasks: Number(row?.tasks ?? 0) };
}
