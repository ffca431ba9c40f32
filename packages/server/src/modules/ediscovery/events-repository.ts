/**
 * The SQL of eDiscovery over archived calendar events (archived_events, migrations 39 and 40): each
 * event as it was last archived (its latest version, deleted or not), searched by the columns kept
 * beside its blob. What maps to which column is search.ts's and the SDK's to say.
 */
import type { Queryable, SqlValue } from '../../db/database.js';

/** What an event search asks, the query already parsed. */
export interface EventQuery {
  /** The mailboxes searched (those the reader may read); none: nothing is found. */
  mailboxes: readonly string[];
  /** Words in web-search syntax over subject, location, organiser and attendees. */
  text?: string;
  organizer?: string;
  attendee?: string;
  subject?: string;
  hasAttachments?: boolean;
  /** Starting at or after. */
  from?: Date;
  /** Starting before. */
  to?: Date;
  sort: 'relevance' | 'date';
  order: 'asc' | 'desc';
}

/** An event that matches, with its rank for the text searched (0 without). */
export interface EventHitRow {
  mailbox: string;
  external_id: string;
  calendar_name: string;
  subject: string;
  organizer: string;
  attendees: string;
  location: string;
  has_attachments: boolean;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  size: number | string;
  rank: number | string;
  /** The searched text with the words between the markers given; empty without words. */
  headline: string;
}

/** The text an event is searched by (the same columns as its headline shows). */
const DOCUMENT = `(e.subject || ' ' || e.location || ' ' || e.organizer || ' ' || e.attendees)`;

/**
 * The events of the tenant that `query` matches, `limit` of them after the first `offset` in its order, and how many match in
 * all. Series masters are left out: a series is found by its occurrences and exceptions, each with its
 * own start. Headlines mark the words between `markers`.
 */
export async function searchEventRows(
  db: Queryable,
  tenantId: string,
  query: EventQuery,
  window: { offset: number; limit: number },
  markers: { start: string; stop: string },
): Promise<{ rows: EventHitRow[]; total: number }> {
  const params: SqlValue[] = [tenantId, [...query.mailboxes]];
  const where = [`e.event_type <> 'seriesMaster'`];
  const add = (clause: string, value: SqlValue) => {
    params.push(value);
    where.push(clause.replaceAll('?', `$${params.length}`));
  };
  const vector = `(to_tsvector('english', ${DOCUMENT}) || to_tsvector('german', ${DOCUMENT}))`;
  let rank = '0';
  let headline = `''`;
  if (query.text) {
    params.push(query.text);
    const n = params.length;
    const tsquery = `(websearch_to_tsquery('english', $${n}) || websearch_to_tsquery('german', $${n}))`;
    where.push(`${vector} @@ ${tsquery}`);
    rank = `ts_rank(${vector}, ${tsquery})`;
    params.push(`StartSel=${markers.start}, StopSel=${markers.stop}, HighlightAll=true`);
    headline = `ts_headline('english', ${DOCUMENT}, ${tsquery}, $${params.length})`;
  }
  if (query.organizer) add(`e.organizer ilike '%' || ? || '%'`, query.organizer);
  if (query.attendee) add(`e.attendees ilike '%' || ? || '%'`, query.attendee);
  if (query.subject) add(`e.subject ilike '%' || ? || '%'`, query.subject);
  if (query.hasAttachments !== undefined) add('e.has_attachments = ?', query.hasAttachments);
  if (query.from) add('e.starts_at >= ?', query.from);
  if (query.to) add('e.starts_at < ?', query.to);
  const direction = query.order === 'asc' ? 'asc' : 'desc';
  const orderBy =
    query.text && query.sort === 'relevance'
      ? `rank ${direction}, starts_at desc nulls last, mailbox, external_id`
      : `starts_at ${direction} nulls last, mailbox, external_id`;
  params.push(window.limit, window.offset);
  const rows = await db.query<EventHitRow & { total: number | string }>(
    `with latest as (
       select distinct on (mailbox, external_id) * from archived_events
        where tenant_id = $1 and mailbox = any($2::text[])
        order by mailbox, external_id, version desc)
     select e.mailbox, e.external_id, e.calendar_name, e.subject, e.organizer, e.attendees, e.location,
            e.has_attachments, e.starts_at, e.ends_at, e.size, ${rank} as rank, ${headline} as headline,
            count(*) over () as total
       from latest e where ${where.join(' and ')}
      order by ${orderBy} limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/** The latest archived version of an event of a mailbox: where its JSON is, its calendar, and its deletion. */
export interface EventVersionRef {
  version: number;
  calendarName: string;
  subject: string;
  blobHash: string;
  locationId: string | null;
  deletedAt: Date | null;
}

export async function latestEventVersion(
  db: Queryable,
  tenantId: string,
  mailbox: string,
  eventId: string,
): Promise<EventVersionRef | undefined> {
  const [row] = await db.query<{
    version: number;
    calendar_name: string;
    subject: string;
    blob_hash: string;
    location_id: string | null;
    deleted_at: Date | string | null;
  }>(
    `select version, calendar_name, subject, blob_hash, location_id, deleted_at from archived_events
      where tenant_id = $1 and mailbox = $2 and external_id = $3 order by version desc limit 1`,
    [tenantId, mailbox, eventId],
  );
  if (!row) return undefined;
  return {
    version: Number(row.version),
    calendarName: row.calendar_name,
    subject: row.subject,
    blobHash: row.blob_hash,
    locationId: row.location_id,
    deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
  };
}
