/**
 * Archived mailboxes as the email-archive screens show them: per mailbox its name (from discovery),
 * archived items, those a legal hold keeps, size and the last archiving; the largest ones; a mailbox's folders; archive figures
 * of the last 30 days.
 */
import {
  DASHBOARD_PERIOD_DAYS,
  DASHBOARD_TOP,
  type Mailbox,
  type MailboxMeta,
  type Page,
} from '@compliance-portal/sdk';
import { heldPerSource } from '../../archive-data/legal-hold.js';
import type { Database, Queryable, SqlValue } from '../../db/database.js';
import { csvText } from '../../http/csv.js';
import { ownValue } from '../../http/list-query.js';

const DAY = 86_400_000;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

interface MailboxRow {
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

function view(r: MailboxRow, held: ReadonlyMap<string, number>): Mailbox {
  return {
    mailboxId: r.source,
    name: r.name ?? r.email ?? r.source,
    email: r.email ?? (r.source.includes('@') ? r.source : ''),
    sizeBytes: Number(r.bytes),
    // The archive reads primary mailboxes; an Exchange Online archive is kept as its own source.
    kind: r.source.endsWith(':archive') ? 'onlineArchive' : 'primary',
    items: Number(r.items),
    held: held.get(r.source) ?? 0,
    lastArchived: iso(r.last),
  };
}

/** The items legal holds keep in each of these mailboxes. */
const heldIn = (db: Database, tenantId: string, rows: readonly MailboxRow[]) =>
  heldPerSource(
    db,
    tenantId,
    ['mail'],
    rows.map((r) => r.source),
  );

export async function listMailboxes(
  db: Database,
  tenantId: string,
  args: { page?: number; pageSize?: number; sort?: string; order?: 'asc' | 'desc'; search?: string },
): Promise<Page<Mailbox>> {
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
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  const grouped = `${MAILBOXES} group by a.source, d.display_name, d.email ${having}`;
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from (${grouped}) x`, params);
  const rows = await db.query<MailboxRow>(
    `${grouped} order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  const held = await heldIn(db, tenantId, rows);
  return { items: rows.map((r) => view(r, held)), total: Number(count?.n ?? 0), page, pageSize };
}

/** The largest archived mailboxes: the dashboard's top 10. */
export async function topMailboxes(
  db: Database,
  tenantId: string,
  limit: number = DASHBOARD_TOP.mailboxes,
): Promise<Mailbox[]> {
  const rows = await db.query<MailboxRow>(
    `${MAILBOXES} group by a.source, d.display_name, d.email order by sum(a.size) desc, a.source limit ${limit}`,
    [tenantId],
  );
  const held = await heldIn(db, tenantId, rows);
  return rows.map((r) => view(r, held));
}

export async function mailboxMeta(db: Queryable, tenantId: string, mailboxId: string): Promise<MailboxMeta | null> {
  const folders = await db.query<{ container: string; items: number; bytes: string; oldest: Date; newest: Date }>(
    `select container, count(*)::int as items, sum(size)::bigint as bytes, min(sent_at) as oldest, max(sent_at) as newest
       from archive_items where tenant_id = $1 and kind = 'mail' and source = $2 group by container order by container`,
    [tenantId, mailboxId],
  );
  if (folders.length === 0) return null;
  const dates = folders
    .flatMap((f) => [f.oldest, f.newest])
    .filter(Boolean)
    .map((d) => new Date(d).getTime());
  return {
    mailboxId,
    folders: folders.map((f) => ({ path: f.container, items: Number(f.items), sizeBytes: Number(f.bytes) })),
    oldest: dates.length ? new Date(Math.min(...dates)).toISOString() : null,
    newest: dates.length ? new Date(Math.max(...dates)).toISOString() : null,
  };
}

/** Every archived mailbox as CSV (name, email, kind, items, bytes, last archived), with a header; see csv.ts. */
export async function mailboxesCsv(db: Queryable, tenantId: string): Promise<string> {
  const rows = (
    await db.query<MailboxRow>(`${MAILBOXES} group by a.source, d.display_name, d.email order by 1`, [tenantId])
  ).map((r) => view(r, new Map()));
  return csvText([
    ['Name', 'Email', 'Kind', 'Items protected', 'Stored size (bytes)', 'Last archived'],
    ...rows.map((m) => [m.name, m.email, m.kind, m.items, m.sizeBytes, m.lastArchived]),
  ]);
}

/**
 * Per day since `$2` (a UTC midnight: dayStart), of the tenant's (`$1`) archive items of the kinds
 * `$3`: what was archived that day (the items there now and those deleted since, from the
 * deletions' record: a deletion does not change the day its items were archived) and what
 * retention deleted that day.
 */
export const ARCHIVED_AND_DELETED_PER_DAY = `
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

/** The start (UTC midnight) of the day `at` falls on: where a per-day series begins. */
export const dayStart = (at: Date) => new Date(at.toISOString().slice(0, 10));

/**
 * Mailboxes, items and bytes archived now, per day over the last 30 days what was archived and what
 * retention deleted (see ARCHIVED_AND_DELETED_PER_DAY), last successful job.
 */
export async function archiveStatistics(db: Queryable, tenantId: string, now: Date) {
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  // The totals, the days of the period and the last successful job in one statement.
  const [row] = await db.query<{
    mailboxes: number;
    items: number;
    bytes: string;
    days: { day: string; items: number; bytes: number; deleted_items: number; deleted_bytes: number }[];
    last: { job_id: string; name: string; finished: string } | null;
  }>(
    `select t.mailboxes, t.items, t.bytes,
            (select coalesce(json_agg(d), '[]') from (${ARCHIVED_AND_DELETED_PER_DAY}) d) as days,
            (select row_to_json(l) from (
               select r.job_id, j.name, r.finished from job_runs r join jobs j on j.job_id = r.job_id
                where j.tenant_id = $1 and j.type = 'exchangeArchive' and r.status = 'finished'
                order by r.finished desc, r.seq desc limit 1) l) as last
       from (select count(distinct source)::int as mailboxes, count(*)::int as items, coalesce(sum(size), 0)::bigint as bytes
               from archive_items where tenant_id = $1 and kind = 'mail') t`,
    [tenantId, dayStart(from), ['mail']],
  );
  const byDay = new Map((row?.days ?? []).map((d) => [d.day, d]));
  const growth = [];
  for (let t = from.getTime(); t <= now.getTime(); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    const d = byDay.get(date);
    growth.push({
      date,
      items: Number(d?.items ?? 0),
      bytes: Number(d?.bytes ?? 0),
      deletedItems: Number(d?.deleted_items ?? 0),
      deletedBytes: Number(d?.deleted_bytes ?? 0),
    });
  }
  const last = row?.last;
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    mailboxes: Number(row?.mailboxes ?? 0),
    items: Number(row?.items ?? 0),
    bytes: Number(row?.bytes ?? 0),
    growth,
    lastSuccessfulJob: last
      ? { jobId: last.job_id, jobName: last.name, finished: new Date(last.finished).toISOString() }
      : null,
  };
}
