/**
 * The SQL of archived mailboxes: per mailbox its name (from discovery), items, size and last
 * archiving; a mailbox's folders; and the archive's figures per day (archived, and deleted by
 * retention). How mailboxes.ts and teams.ts show them is theirs.
 */
import type { Queryable, SqlValue } from '../../db/database.js';
import { ownValue } from '../../http/list-query.js';

/** An archived mailbox with what discovery knows of it (null: nothing). */
export interface MailboxRow {
  source: string;
  name: string | null;
  email: string | null;
  items: number;
  bytes: string;
  last: Date | null;
}

const MAILBOXES = `
  select a.source, d.display_name as name, d.email, count(*)::int as items, sum(a.size)::bigint as bytes,
         max(a.archived_at) as last
    from archive_items a
    left join discovered_sources d on d.tenant_id = a.tenant_id and d.application = 'exchange' and d.source_id = a.source
   where a.tenant_id = $1 and a.kind = 'mail'`;

/**
 * One page of the tenant's archived mailboxes, those whose name, address or id contains `search`
 * (case-insensitive, taken literally), in the order of `sort`; and how many there are over all pages.
 */
export async function mailboxPage(
  db: Queryable,
  tenantId: string,
  args: { sort?: string; order?: 'asc' | 'desc'; search?: string; page: number; pageSize: number },
): Promise<{ rows: MailboxRow[]; total: number }> {
  const params: SqlValue[] = [tenantId];
  let having = '';
  if (args.search?.trim()) {
    params.push(
      `%${args.search
        .trim()
        .toLowerCase()
        .replace(/[%_\\]/g, '\\$&')}%`,
    );
    const n = params.length;
    having = `having lower(coalesce(d.display_name, '')) like $${n} or lower(coalesce(d.email, '')) like $${n} or lower(a.source) like $${n}`;
  }
  const sortable: Record<string, string> = {
    name: 'lower(coalesce(d.display_name, d.email, a.source))',
    email: 'lower(coalesce(d.email, a.source))',
    sizeBytes: 'sum(a.size)',
    items: 'count(*)',
    lastArchived: 'max(a.archived_at)',
  };
  const direction = args.order === 'desc' ? 'desc' : 'asc';
  const order = `${ownValue(sortable, args.sort, sortable.name as string)} ${direction}, a.source`;
  const grouped = `${MAILBOXES} group by a.source, d.display_name, d.email ${having}`;
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from (${grouped}) x`, params);
  const rows = await db.query<MailboxRow>(
    `${grouped} order by ${order} limit ${args.pageSize} offset ${(args.page - 1) * args.pageSize}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** The tenant's `limit` largest archived mailboxes. */
export async function largestMailboxes(db: Queryable, tenantId: string, limit: number): Promise<MailboxRow[]> {
  return db.query<MailboxRow>(
    `${MAILBOXES} group by a.source, d.display_name, d.email order by sum(a.size) desc, a.source limit ${limit}`,
    [tenantId],
  );
}

/** Every archived mailbox of the tenant, by id. */
export async function everyMailbox(db: Queryable, tenantId: string): Promise<MailboxRow[]> {
  return db.query<MailboxRow>(`${MAILBOXES} group by a.source, d.display_name, d.email order by 1`, [tenantId]);
}

/** The folders of a mailbox's archived mail, in order, with their items, bytes and sending times. */
export async function mailboxFolders(
  db: Queryable,
  tenantId: string,
  mailboxId: string,
): Promise<{ container: string; items: number; bytes: string; oldest: Date; newest: Date }[]> {
  return db.query<{ container: string; items: number; bytes: string; oldest: Date; newest: Date }>(
    `select container, count(*)::int as items, sum(size)::bigint as bytes, min(sent_at) as oldest, max(sent_at) as newest
       from archive_items where tenant_id = $1 and kind = 'mail' and source = $2 group by container order by container`,
    [tenantId, mailboxId],
  );
}

/**
 * Per day since `$2` (a UTC midnight), of the tenant's (`$1`) archive items of the kinds
 * `$3`: what was archived that day (the items there now and those deleted since, from the
 * deletions' record: a deletion does not change the day its items were archived) and what
 * retention deleted that day.
 */
const ARCHIVED_AND_DELETED_PER_DAY = `
  select day, sum(items)::int as items, sum(bytes)::bigint as bytes,
         sum(deleted_items)::int as deleted_items, sum(deleted_bytes)::bigint as deleted_bytes
    from (select to_char(date_trunc('day', archived_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
                 count(*) as items, sum(size) as bytes, 0 as deleted_items, 0 as deleted_bytes
            from archive_items where tenant_id = $1 and kind = any($3::text[]) and archived_at >= $2::timestamptz group by 1
          union all
          select to_char(archived_day, 'YYYY-MM-DD'), sum(items), sum(bytes), 0, 0
            from archive_deletions where tenant_id = $1 and kind = any($3::text[]) and archived_day >= ($2::timestamptz at time zone 'UTC')::date group by 1
          union all
          select to_char(date_trunc('day', deleted_at at time zone 'UTC'), 'YYYY-MM-DD'), 0, 0, sum(items), sum(bytes)
            from archive_deletions where tenant_id = $1 and kind = any($3::text[]) and deleted_at >= $2::timestamptz group by 1) x
   group by day`;

/** What was archived and what retention deleted on one day (`YYYY-MM-DD`). */
export interface DayFigures {
  day: string;
  items: number;
  bytes: number | string;
  deleted_items: number;
  deleted_bytes: number | string;
}

/**
 * Per day since `since` (a UTC midnight) that has any, of the tenant's archive items of `kinds`:
 * what was archived that day and what retention deleted that day (see ARCHIVED_AND_DELETED_PER_DAY).
 */
export async function archivedAndDeletedPerDay(
  db: Queryable,
  tenantId: string,
  since: Date,
  kinds: readonly string[],
): Promise<DayFigures[]> {
  return db.query<DayFigures>(ARCHIVED_AND_DELETED_PER_DAY, [tenantId, since, [...kinds]]);
}

/** The mail archive's figures as one statement reads them (see mailArchiveFigures). */
export interface MailArchiveFigures {
  mailboxes: number;
  items: number;
  bytes: string;
  days: { day: string; items: number; bytes: number; deleted_items: number; deleted_bytes: number }[];
  last: { job_id: string; name: string; finished: string } | null;
}

/**
 * The tenant's mail archive in one statement: its mailboxes, items and bytes now, per day since `since`
 * (a UTC midnight) what was archived and deleted, and its last successful archiving job.
 */
export async function mailArchiveFigures(
  db: Queryable,
  tenantId: string,
  since: Date,
): Promise<MailArchiveFigures | undefined> {
  const [row] = await db.query<MailArchiveFigures>(
    `select t.mailboxes, t.items, t.bytes,
            (select coalesce(json_agg(d), '[]') from (${ARCHIVED_AND_DELETED_PER_DAY}) d) as days,
            (select row_to_json(l) from (
               select r.job_id, j.name, r.finished from job_runs r join jobs j on j.job_id = r.job_id
                where j.tenant_id = $1 and j.type = 'exchangeArchive' and r.status = 'finished'
                order by r.finished desc, r.seq desc limit 1) l) as last
       from (select count(distinct source)::int as mailboxes, count(*)::int as items, coalesce(sum(size), 0)::bigint as bytes
               from archive_items where tenant_id = $1 and kind = 'mail') t`,
    [tenantId, since, ['mail']],
  );
  return row;
}
