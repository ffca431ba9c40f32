/**
 * The Exchange archive's second half: a mailbox's calendars, contacts and To Do tasks, read after its
 * mail with Graph's delta queries (a calendar's calendar view, a contact folder, a To Do list), each
 * with its delta link kept per job as a mail folder's is, so that later runs read only the changes.
 * A changed item gets a new version, a deleted one is marked deleted (archive-data/mailbox-items.ts).
 *
 * The calendar view's window: Graph's event delta works on a calendar view only, which needs one,
 * given on the first round and carried by the links after. The archive takes five years back and two
 * forward from the first run, as backup products do; a link keeps the window it began with, so an
 * event beyond it (a meeting set more than two years ahead) comes in once Graph refuses the link and
 * the calendar is read again in full, with the window of that day.
 *
 * These items count apart from the mail: the run's items (found, done, failed), bytes, failures and
 * "Archived n messages" stay the mail's, and the run records its own counters beside them
 * (job_runs.mailbox_items), failures included, which its message names. An item that failed for a
 * reason that may pass (the store away, Graph's server errors after the client's retries) keeps the
 * delta link where it was, so that the next run reads it again; one that failed for good is left.
 */
import {
  type ArchivedChange,
  archiveContact,
  archiveEvent,
  archiveTask,
  type MailboxItemScope,
  markMailboxItemsDeleted,
} from '../../archive-data/mailbox-items.js';
import type { MailboxItemCounts } from '../../archive-data/mailbox-items-repository.js';
import { type DeltaPages, type GraphApi, GraphError } from '../../m365/graph-api.js';
import { counted } from '../../words.js';
import type { WorkPart } from '../progress.js';
import { includes } from '../repository.js';
import { type RunContext, RunStopped } from '../run-context.js';
import type { DataPlane } from './plane.js';

/** The parts of a mailbox besides its mail that a job may include. */
export const MAILBOX_ITEM_PARTS = ['calendars', 'contacts', 'tasks'] as const;

/** How far back and ahead of the first run a calendar view reads events. */
const CALENDAR_WINDOW = { yearsBack: 5, yearsAhead: 2 };

/** The calendar view's window from `now`. */
function calendarWindow(now: Date): { start: Date; end: Date } {
  const start = new Date(now);
  start.setUTCFullYear(start.getUTCFullYear() - CALENDAR_WINDOW.yearsBack);
  const end = new Date(now);
  end.setUTCFullYear(end.getUTCFullYear() + CALENDAR_WINDOW.yearsAhead);
  return { start, end };
}

export const emptyCounts = (): MailboxItemCounts => ({
  events: 0,
  contacts: 0,
  tasks: 0,
  attachments: 0,
  deleted: 0,
  failed: 0,
});

/** What the run's message says of the mailbox items, or nothing when there were none. */
export function countsMessage(counts: MailboxItemCounts): string {
  const { events, contacts, tasks, deleted, failed } = counts;
  if (events + contacts + tasks + deleted + failed === 0) return '';
  const deletions = deleted > 0 ? `; ${counted(deleted, 'deletion')} marked` : '';
  const failures = failed > 0 ? `; ${counted(failed, 'item')} or list could not be archived` : '';
  return ` Calendars, contacts and To Do: ${counted(events, 'event')}, ${counted(contacts, 'contact')} and ${counted(tasks, 'task')} new or changed${deletions}${failures}.`;
}

/**
 * Runs one item's work: its value, or (counted in `counts.failed`) whether it failed for good. A run
 * being stopped is not the item's failure.
 */
async function attempt<T>(
  rc: RunContext,
  counts: MailboxItemCounts,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; permanent: boolean }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof RunStopped || rc.signal.aborted) throw error;
    counts.failed += 1;
    return { ok: false, permanent: error instanceof GraphError && error.permanent };
  }
}

type Removable = { id?: string | null; '@removed'?: unknown };

/** The ids a page reports deleted, and the items it reports added or changed. */
function splitPage<T extends Removable>(page: T[]): { removed: string[]; items: T[] } {
  const removed: string[] = [];
  const items: T[] = [];
  for (const item of page) {
    if (item['@removed']) removed.push(item.id ?? '');
    else items.push(item);
  }
  return { removed, items };
}

/**
 * Reads one delta (a calendar view, a contact folder, a To Do list) to its end: each item archived
 * by `archive` as one item of the run, what Graph reports deleted marked, and the delta link kept
 * once every item before it is, and none failed for a reason that may pass.
 */
async function readDelta<T extends Removable>(
  rc: RunContext,
  part: WorkPart,
  key: string,
  pages: DeltaPages<T>,
  deleted: (ids: string[]) => Promise<number>,
  archive: (item: T) => Promise<ArchivedChange>,
  counts: MailboxItemCounts,
  count: (change: ArchivedChange) => void,
): Promise<void> {
  let readAgain = false;
  const read = await attempt(rc, counts, async () => {
    for await (const page of pages) {
      rc.checkStopped();
      const { removed, items } = splitPage(page);
      part.add(items.length, page.length);
      for (const item of items) {
        rc.checkStopped();
        const result = await attempt(rc, counts, () => archive(item));
        part.finish(1);
        if (result.ok) count(result.value);
        else if (!result.permanent) readAgain = true;
      }
      counts.deleted += await deleted(removed);
    }
  });
  if (!read.ok) {
    part.end();
    return;
  }
  const link = pages.deltaLink();
  if (link && !readAgain) await rc.saveDeltaLink(key, link);
  part.end();
}

/** Archives the mailbox's calendars, contacts and tasks, counting what it did into `counts`. */
export async function archiveMailboxItems(
  rc: RunContext,
  graph: GraphApi,
  plane: DataPlane,
  mailbox: string,
  part: WorkPart,
  counts: MailboxItemCounts,
): Promise<void> {
  const db = rc.ctx.db;
  const scope = (): MailboxItemScope => ({
    tenantId: rc.tenant.tenantId,
    mailbox,
    jobId: rc.job.jobId,
    locationId: rc.job.locationId,
    now: rc.ctx.now(),
  });
  // Only what the job includes is read; the others have no share of the work.
  const [withCalendars, withContacts, withTasks] = MAILBOX_ITEM_PARTS.map((p) => includes(rc.job, p));
  const [calendarsPart, contactsPart, tasksPart] = part.split(
    [withCalendars, withContacts, withTasks].map((on) => (on ? 1 : 0)),
  ) as [WorkPart, WorkPart, WorkPart];
  if (!withCalendars) calendarsPart.end();
  if (!withContacts) contactsPart.end();
  if (!withTasks) tasksPart.end();
  // A list Graph refuses (a permission not granted) is one failure; the other lists are still read.
  const listed = async <T>(of: WorkPart, list: () => AsyncIterable<T>) => {
    const result = await attempt(rc, counts, async () => {
      const all: T[] = [];
      for await (const item of list()) all.push(item);
      return all;
    });
    if (!result.ok) of.end();
    return result.ok ? result.value : undefined;
  };
  const tally = (kind: 'events' | 'contacts' | 'tasks') => (change: ArchivedChange) => {
    if (change !== 'unchanged') counts[kind] += 1;
  };

  const calendars = withCalendars ? await listed(calendarsPart, () => graph.calendars(mailbox)) : undefined;
  if (calendars) {
    const parts = calendarsPart.split(calendars.length);
    for (const [at, calendar] of calendars.entries()) {
      const calendarId = calendar.id ?? '';
      const calendarName = calendar.name ?? '';
      const key = `calendar:${mailbox}:${calendarId}`;
      const pages = graph.calendarViewDelta(mailbox, calendarId, calendarWindow(rc.ctx.now()), await rc.deltaLink(key));
      // A series' master is not in a calendar view: read once per run with the first of its instances.
      const masters = new Set<string>();
      const attachmentsOf = (eventId: string) => () => graph.eventAttachments(mailbox, eventId);
      const archiveOne = async (event: Parameters<typeof archiveEvent>[3]['event']) => {
        const result = await archiveEvent(db, plane.blobs, scope(), {
          calendarId,
          calendarName,
          event,
          attachments: attachmentsOf(event.id ?? ''),
        });
        counts.attachments += result.attachments;
        return result.change;
      };
      await readDelta(
        rc,
        parts[at] as WorkPart,
        key,
        pages,
        (ids) => markMailboxItemsDeleted(db, 'event', scope(), ids),
        async (event) => {
          const master = event.seriesMasterId;
          if (master && !masters.has(master)) {
            const change = await archiveOne(await graph.seriesMaster(mailbox, master));
            masters.add(master);
            tally('events')(change);
          }
          return archiveOne(event);
        },
        counts,
        tally('events'),
      );
    }
  }

  const folders = withContacts ? await listed(contactsPart, () => graph.contactFolders(mailbox)) : undefined;
  if (folders) {
    const parts = contactsPart.split(folders.length);
    for (const [at, folder] of folders.entries()) {
      const folderId = folder.id ?? '';
      const key = `contacts:${mailbox}:${folderId}`;
      await readDelta(
        rc,
        parts[at] as WorkPart,
        key,
        graph.contactsDelta(mailbox, folderId, await rc.deltaLink(key)),
        (ids) => markMailboxItemsDeleted(db, 'contact', scope(), ids),
        async (contact) =>
          (await archiveContact(db, plane.blobs, scope(), { folderId, folderPath: folder.path, contact })).change,
        counts,
        tally('contacts'),
      );
    }
  }

  const lists = withTasks ? await listed(tasksPart, () => graph.todoLists(mailbox)) : undefined;
  if (lists) {
    const parts = tasksPart.split(lists.length);
    for (const [at, list] of lists.entries()) {
      const listId = list.id ?? '';
      const key = `tasks:${mailbox}:${listId}`;
      await readDelta(
        rc,
        parts[at] as WorkPart,
        key,
        graph.tasksDelta(mailbox, listId, await rc.deltaLink(key)),
        (ids) => markMailboxItemsDeleted(db, 'task', scope(), ids),
        async (task) => {
          const checklistItems = [];
          for await (const step of graph.checklistItems(mailbox, listId, task.id ?? '')) checklistItems.push(step);
          const archived = await archiveTask(db, plane.blobs, scope(), {
            listId,
            listName: list.displayName ?? '',
            task,
            checklistItems,
          });
          return archived.change;
        },
        counts,
        tally('tasks'),
      );
    }
  }
}
