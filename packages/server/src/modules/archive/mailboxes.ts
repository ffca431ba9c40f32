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
import { mailboxItemTotals } from '../../archive-data/mailbox-item-totals-repository.js';
import type { Database, Queryable } from '../../db/database.js';
import { csvText } from '../../http/csv.js';
import {
  everyMailbox,
  largestMailboxes,
  type MailboxRow,
  mailArchiveFigures,
  mailboxFolders,
  mailboxPage,
} from './mailboxes-repository.js';

const DAY = 86_400_000;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

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
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  const { rows, total } = await mailboxPage(db, tenantId, { ...args, page, pageSize });
  const held = await heldIn(db, tenantId, rows);
  return { items: rows.map((r) => view(r, held)), total, page, pageSize };
}

/** The largest archived mailboxes: the dashboard's top 10. */
export async function topMailboxes(
  db: Database,
  tenantId: string,
  limit: number = DASHBOARD_TOP.mailboxes,
): Promise<Mailbox[]> {
  const rows = await largestMailboxes(db, tenantId, limit);
  const held = await heldIn(db, tenantId, rows);
  return rows.map((r) => view(r, held));
}

export async function mailboxMeta(db: Queryable, tenantId: string, mailboxId: string): Promise<MailboxMeta | null> {
  const folders = await mailboxFolders(db, tenantId, mailboxId);
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
  const rows = (await everyMailbox(db, tenantId)).map((r) => view(r, new Map()));
  return csvText([
    ['Name', 'Email', 'Kind', 'Items protected', 'Stored size (bytes)', 'Last archived'],
    ...rows.map((m) => [m.name, m.email, m.kind, m.items, m.sizeBytes, m.lastArchived]),
  ]);
}

/** The start (UTC midnight) of the day `at` falls on: where a per-day series begins. */
export const dayStart = (at: Date) => new Date(at.toISOString().slice(0, 10));

/**
 * Mailboxes, items (mails, events, contacts and tasks, by kind) and the mails' bytes archived now, per
 * day over the last 30 days the mails archived and retention deleted (see mailboxes-repository.ts),
 * last successful job.
 */
export async function archiveStatistics(db: Queryable, tenantId: string, now: Date) {
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  // The totals, the days of the period and the last successful job in one statement.
  // Calendars, contacts and tasks are counted beside the mails, their tables apart from mail's.
  const [row, others] = await Promise.all([
    mailArchiveFigures(db, tenantId, dayStart(from)),
    mailboxItemTotals(db, tenantId),
  ]);
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
  const mails = Number(row?.items ?? 0);
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    mailboxes: Number(row?.mailboxes ?? 0),
    items: mails + others.events + others.contacts + others.tasks,
    itemsByKind: { mails, ...others },
    bytes: Number(row?.bytes ?? 0),
    growth,
    lastSuccessfulJob: last
      ? { jobId: last.job_id, jobName: last.name, finished: new Date(last.finished).toISOString() }
      : null,
  };
}
