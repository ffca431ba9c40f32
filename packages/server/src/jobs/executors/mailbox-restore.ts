/**
 * Restore of a mailbox's archived calendars, contacts and To Do tasks, beside its mail (mail-restore.ts):
 * the items the job names (`event:{id}`, `contact:{id}`, `task:{id}`: the version archived at the
 * snapshot's date, also of an item deleted since) and whole containers (`calendar:{id}`,
 * `contactFolder:{id}`, `taskList:{id}`: every item of it not deleted at that date), mixed freely with
 * archived mail's numeric ids.
 *
 * Into the original mailbox an item goes to its own calendar, contact folder or list (found by id,
 * else by name, else made with the archived name), and one that is still there follows the conflict
 * policy: skip leaves it, overwrite writes the archived version over it, keep both makes a new one
 * beside it. Into another mailbox everything goes to a calendar, contact folder and list named
 * "Restored", as mail goes to its "Restored" folder. As a download: a ZIP of standard files (events
 * and tasks as iCalendar, contacts as vCard; mail as .eml).
 *
 * An event goes back with its times in the zone it was made in, and a series with its pattern, its
 * moved or changed occurrences patched and its cancelled ones deleted, then its file attachments. What
 * Graph does not let an application write comes back as Graph makes it: the mailbox's owner
 * organises an event made in their calendar, and its attendees have not answered yet (Outlook sends
 * them the invitation again, as for any meeting made through Graph).
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RestoreSpec } from '@compliance-portal/sdk';
import type { ChecklistItem, Contact, Event, TodoTask } from '@microsoft/microsoft-graph-types';
import { readEventAttachments } from '../../archive-data/mailbox-items.js';
import { type ChosenVersion, type MailboxItemKind, versionsAt } from '../../archive-data/mailbox-items-repository.js';
import { mailFileName } from '../../archive-data/mime.js';
import { contactToVCard, eventToICalendar, todoToICalendar } from '../../archive-data/standard-files.js';
import { dateIn, instantOf, inZone } from '../../archive-data/time-zones.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { sealFile } from '../../storage/file-encryption.js';
import { counted } from '../../words.js';
import { findJob } from '../repository.js';
import type { RunContext } from '../run-context.js';
import { createZip } from '../zip.js';
import { chosenMails, RESTORED_FOLDER, restoreMail } from './mail-restore.js';
import type { DataPlane } from './plane.js';
import { restoreArchiveName } from './restore.js';

/** A node id of an item or a container, by its kind. */
const ITEM_PREFIX: Record<string, MailboxItemKind> = { event: 'event', contact: 'contact', task: 'task' };
const CONTAINER_PREFIX: Record<string, MailboxItemKind> = {
  calendar: 'event',
  contactFolder: 'contact',
  taskList: 'task',
};
const KINDS: readonly MailboxItemKind[] = ['event', 'contact', 'task'];

/** The items and containers of each kind the node ids choose, and the mail ids among them. */
function parseNodeIds(nodeIds: readonly string[]) {
  const chosen = Object.fromEntries(
    KINDS.map((k) => [k, { ids: [] as string[], containers: [] as string[] }]),
  ) as Record<MailboxItemKind, { ids: string[]; containers: string[] }>;
  const mail: string[] = [];
  for (const nodeId of nodeIds) {
    if (/^\d+$/.test(nodeId)) {
      mail.push(nodeId);
      continue;
    }
    const colon = nodeId.indexOf(':');
    const prefix = colon > 0 ? nodeId.slice(0, colon) : '';
    const id = nodeId.slice(colon + 1);
    const item = ITEM_PREFIX[prefix];
    const container = CONTAINER_PREFIX[prefix];
    if (item && id) chosen[item].ids.push(id);
    else if (container && id) chosen[container].containers.push(id);
    else throw new Error(`"${nodeId}" names nothing a mailbox restore can restore.`);
  }
  return { chosen, mail };
}

/** An item chosen for the restore, with its archived JSON. */
interface Chosen<T> {
  kind: MailboxItemKind;
  row: ChosenVersion;
  item: T;
}

/**
 * The archived versions the node ids choose, read back. An occurrence or exception of a series
 * stands for its series (restored whole from its master); a container brings its single events and
 * series, whose occurrences come with them.
 */
async function chosenItems(
  rc: RunContext,
  plane: DataPlane,
  spec: RestoreSpec,
  chosen: ReturnType<typeof parseNodeIds>['chosen'],
) {
  const key = { tenantId: rc.tenant.tenantId, mailbox: spec.sourceId };
  const at = new Date(spec.snapshot);
  const decoder = new TextDecoder();
  const out: Chosen<Event | Contact | TodoTask>[] = [];
  for (const kind of KINDS) {
    const { ids, containers } = chosen[kind];
    /** The items of `wanted` as of the chosen date; one archived only after it as its latest version. */
    const byId = async (wanted: readonly string[]) => {
      const found = await versionsAt(rc.ctx.db, kind, key, at, { ids: wanted, containers: [] });
      const missing = wanted.filter((id) => !found.some((r) => r.externalId === id));
      if (missing.length > 0)
        found.push(...(await versionsAt(rc.ctx.db, kind, key, null, { ids: missing, containers: [] })));
      return found;
    };
    let rows = [...(await byId(ids)), ...(await versionsAt(rc.ctx.db, kind, key, at, { ids: [], containers }))];
    if (kind === 'event') {
      const masters = [...new Set(rows.flatMap((r) => (r.seriesMasterId ? [r.seriesMasterId] : [])))];
      const known = new Set(rows.map((r) => r.externalId));
      rows.push(...(await byId(masters.filter((m) => !known.has(m)))));
      rows = rows.filter((r) => r.eventType === 'singleInstance' || r.eventType === 'seriesMaster');
    }
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.externalId)) continue;
      seen.add(row.externalId);
      const bytes = await (await plane.storeAt(row.locationId)).get(row.blobHash);
      out.push({ kind, row, item: JSON.parse(decoder.decode(bytes)) as Event | Contact | TodoTask });
    }
  }
  return out;
}

// ——— What Graph takes back of each item ———

/** An event's writable properties as the archive kept them; times in the zone the event was made in. */
function eventFields(event: Event): Event {
  const start = instantOf(event.start);
  const end = instantOf(event.end);
  const fields: Event = {
    subject: event.subject ?? '',
    body: { contentType: event.body?.contentType ?? 'html', content: event.body?.content ?? '' },
    isAllDay: event.isAllDay ?? false,
    location: { displayName: event.location?.displayName ?? '' },
    attendees: (event.attendees ?? []).map((a) => ({
      type: a.type ?? 'required',
      emailAddress: { address: a.emailAddress?.address ?? '', name: a.emailAddress?.name ?? '' },
    })),
    categories: event.categories ?? [],
    importance: event.importance ?? 'normal',
    sensitivity: event.sensitivity ?? 'normal',
    showAs: event.showAs ?? 'busy',
    isReminderOn: event.isReminderOn ?? true,
    reminderMinutesBeforeStart: event.reminderMinutesBeforeStart ?? 15,
  };
  if (start) fields.start = inZone(start, event.originalStartTimeZone);
  if (end) fields.end = inZone(end, event.originalEndTimeZone ?? event.originalStartTimeZone);
  if (event.type === 'seriesMaster' && event.recurrence) fields.recurrence = event.recurrence;
  return fields;
}

/** What an occurrence of a series differs by: its subject and times (in the series' zone). */
function occurrenceFields(occurrence: Event, master: Event): Event {
  const start = instantOf(occurrence.start);
  const end = instantOf(occurrence.end);
  const zone = master.originalStartTimeZone;
  return {
    subject: occurrence.subject ?? master.subject ?? '',
    ...(start ? { start: inZone(start, zone) } : {}),
    ...(end ? { end: inZone(end, master.originalEndTimeZone ?? zone) } : {}),
  };
}

/** Properties of a contact Graph sets itself: never written back. */
const CONTACT_READ_ONLY = new Set(['id', 'changeKey', 'createdDateTime', 'lastModifiedDateTime', 'parentFolderId']);

/** A contact's every property the archive kept but those Graph sets itself; null ones clear them. */
function contactFields(contact: Contact): Contact {
  return Object.fromEntries(
    Object.entries(contact).filter(([name]) => !name.startsWith('@') && !CONTACT_READ_ONLY.has(name)),
  ) as Contact;
}

const TASK_DATES = ['dueDateTime', 'startDateTime', 'reminderDateTime', 'completedDateTime'] as const;

/** A task's writable properties; its absent dates and recurrence null, so an update clears them. */
function taskFields(task: TodoTask): TodoTask {
  const fields: TodoTask = {
    title: task.title ?? '',
    body: { contentType: task.body?.contentType ?? 'text', content: task.body?.content ?? '' },
    status: task.status ?? 'notStarted',
    importance: task.importance ?? 'normal',
    isReminderOn: task.isReminderOn ?? false,
    categories: task.categories ?? [],
    recurrence: task.recurrence ?? null,
  };
  for (const name of TASK_DATES) fields[name] = task[name] ?? null;
  return fields;
}

/** A checklist item as it is written: its name and whether it was ticked. */
const stepFields = (step: ChecklistItem): ChecklistItem => ({
  displayName: step.displayName ?? '',
  isChecked: step.isChecked ?? false,
});

// ——— Where the items go ———

interface Destination {
  mailbox: string;
  /** Into the original mailbox: each item's own container and the conflict policy apply. */
  original: boolean;
}

/** The containers of the destination mailbox, found or made once per run. */
function containersOf(graph: GraphApi, destination: Destination) {
  const cache = new Map<string, Promise<string>>();
  const once = (key: string, find: () => Promise<string>) => {
    let found = cache.get(key);
    if (!found) {
      found = find();
      // A failure is not kept: the next item tries again.
      found.catch(() => cache.delete(key));
      cache.set(key, found);
    }
    return found;
  };
  const same = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();
  const { mailbox } = destination;
  return {
    calendar: (row: ChosenVersion) => {
      const name = destination.original ? row.containerName : RESTORED_FOLDER;
      return once(`calendar:${destination.original ? row.containerId : ''}`, async () => {
        const calendars = [];
        for await (const c of graph.calendars(mailbox)) calendars.push(c);
        const found =
          (destination.original ? calendars.find((c) => c.id === row.containerId) : undefined) ??
          calendars.find((c) => same(c.name, name));
        return (found ?? (await graph.createCalendar(mailbox, name))).id ?? '';
      });
    },
    contactFolder: (row: ChosenVersion) => {
      const path = destination.original ? row.containerName : RESTORED_FOLDER;
      return once(`contactFolder:${destination.original ? row.containerId : ''}`, async () => {
        const folders = [];
        for await (const f of graph.contactFolders(mailbox)) folders.push(f);
        const found =
          (destination.original ? folders.find((f) => f.id === row.containerId) : undefined) ??
          folders.find((f) => same(f.path, path));
        // A folder that is gone comes back at the top of the mailbox, under its own name.
        const name = path.split('/').filter(Boolean).at(-1) ?? RESTORED_FOLDER;
        return (found ?? (await graph.createContactFolder(mailbox, name))).id ?? '';
      });
    },
    taskList: (row: ChosenVersion) => {
      const name = destination.original ? row.containerName : RESTORED_FOLDER;
      return once(`taskList:${destination.original ? row.containerId : ''}`, async () => {
        const lists = [];
        for await (const l of graph.todoLists(mailbox)) lists.push(l);
        const found =
          (destination.original ? lists.find((l) => l.id === row.containerId) : undefined) ??
          lists.find((l) => same(l.displayName, name));
        return (found ?? (await graph.createTodoList(mailbox, name))).id ?? '';
      });
    },
  };
}

const DAY = 86_400_000;

/**
 * Makes a series' occurrences what the archived master says: each archived exception patched (its
 * subject and times), each cancelled occurrence deleted, and (over an existing series) an occurrence
 * moved since but not in the archive set back to its pattern.
 */
async function applyOccurrences(graph: GraphApi, mailbox: string, seriesId: string, master: Event) {
  const exceptions = master.exceptionOccurrences ?? [];
  const named: { cancelledOccurrences?: string[] } = { ...master };
  const cancelledDates = new Set(
    (named.cancelledOccurrences ?? []).flatMap((id) => /\.(\d{4}-\d{2}-\d{2})$/.exec(id)?.[1] ?? []),
  );
  const start = instantOf(master.start);
  if (!start) return;
  const originals = exceptions.flatMap((x) => (x.originalStart ? [Date.parse(x.originalStart)] : []));
  const cancelled = [...cancelledDates].map((d) => Date.parse(`${d}T00:00:00Z`));
  const end = Math.max(
    start.getTime(),
    ...originals,
    ...cancelled,
    ...exceptions.map((x) => instantOf(x.end)?.getTime() ?? 0),
  );
  const zone = master.recurrence?.range?.recurrenceTimeZone || master.originalStartTimeZone;
  const duration = (instantOf(master.end)?.getTime() ?? start.getTime()) - start.getTime();
  const window = { start: new Date(start.getTime() - DAY), end: new Date(end + 2 * DAY) };
  for await (const instance of graph.eventInstances(mailbox, seriesId, window)) {
    const original = instance.originalStart ? new Date(instance.originalStart) : undefined;
    if (!original || !instance.id) continue;
    const exception = exceptions.find((x) => x.originalStart && Date.parse(x.originalStart) === original.getTime());
    if (cancelledDates.has(dateIn(original, zone))) await graph.deleteEvent(mailbox, instance.id);
    else if (exception) await graph.updateEvent(mailbox, instance.id, occurrenceFields(exception, master));
    else if (instance.type === 'exception') {
      await graph.updateEvent(mailbox, instance.id, {
        subject: master.subject ?? '',
        start: inZone(original, master.originalStartTimeZone),
        end: inZone(
          new Date(original.getTime() + duration),
          master.originalEndTimeZone ?? master.originalStartTimeZone,
        ),
      });
    }
  }
}

/** What restoring one item did: put it back, or left what was there (skip). */
type Outcome = 'restored' | 'skipped';

// ——— The run ———

export async function restoreMailboxItems(rc: RunContext, plane: DataPlane, spec: RestoreSpec) {
  const { chosen, mail } = parseNodeIds(spec.nodeIds);
  // Mail alone into a mailbox is mail-restore.ts's; a download is a ZIP whatever it holds.
  if (spec.target !== 'download' && KINDS.every((k) => chosen[k].ids.length + chosen[k].containers.length === 0)) {
    return restoreMail(rc, plane, spec);
  }
  const items = await chosenItems(rc, plane, spec, chosen);
  if (items.length === 0 && mail.length === 0) {
    throw new Error('None of the chosen events, contacts or tasks is in the archive.');
  }
  const retry = rc.retry?.kind === 'items' ? rc.retry.keys : null;
  const keyOf = (c: Chosen<unknown>) => `restore:${c.kind}:${c.row.externalId}`;
  const work = retry ? items.filter((c) => retry.has(keyOf(c))) : items;
  if (spec.target === 'download') return downloadMailboxItems(rc, plane, spec, work, mail);

  const destination: Destination =
    spec.target === 'other' && spec.targetId
      ? { mailbox: spec.targetId, original: false }
      : { mailbox: spec.sourceId, original: true };
  const { mailbox } = destination;
  const graph = await plane.graph(rc.tenant);
  const containers = containersOf(graph, destination);
  const archiveKey = { tenantId: rc.tenant.tenantId, mailbox: spec.sourceId };
  const policy = spec.conflictPolicy;
  // One event per archived item and run: Graph makes it once for a transaction id, whatever a retry sends.
  const transactionId = (id: string) =>
    createHash('sha256').update(`${rc.run.run_id}:${id}`).digest('hex').slice(0, 32);

  const restoreEvent = async ({ row, item }: Chosen<Event>): Promise<Outcome> => {
    const existing = destination.original ? await graph.event(mailbox, row.externalId) : null;
    if (existing && policy === 'skip') return 'skipped';
    const attachments = await readEventAttachments(rc.ctx.db, plane.storeAt, archiveKey, row.externalId, row.version);
    let eventId: string;
    let present = new Set<string>();
    if (existing && policy === 'overwrite') {
      eventId = existing.id ?? row.externalId;
      await graph.updateEvent(mailbox, eventId, eventFields(item));
      for await (const a of graph.eventAttachments(mailbox, eventId)) present.add(a.name ?? '');
    } else {
      const calendarId = await containers.calendar(row);
      const made = await graph.createEvent(mailbox, calendarId, {
        ...eventFields(item),
        transactionId: transactionId(row.externalId),
      });
      eventId = made.id ?? '';
      // A retried creation answers the event made the first time, with what it already holds.
      if (made.hasAttachments) {
        present = new Set();
        for await (const a of graph.eventAttachments(mailbox, eventId)) present.add(a.name ?? '');
      }
    }
    if (item.type === 'seriesMaster') await applyOccurrences(graph, mailbox, eventId, item);
    for (const file of attachments) {
      if (present.has(file.name)) continue;
      await graph.addEventAttachment(mailbox, eventId, file);
    }
    return 'restored';
  };

  const restoreContact = async ({ row, item }: Chosen<Contact>): Promise<Outcome> => {
    const existing = destination.original ? await graph.contact(mailbox, row.externalId) : null;
    if (existing && policy === 'skip') return 'skipped';
    if (existing && policy === 'overwrite') {
      await graph.updateContact(mailbox, existing.id ?? row.externalId, contactFields(item));
      return 'restored';
    }
    await graph.createContact(mailbox, await containers.contactFolder(row), contactFields(item));
    return 'restored';
  };

  const restoreTask = async ({ row, item }: Chosen<TodoTask>): Promise<Outcome> => {
    const steps = (item.checklistItems ?? []).map(stepFields);
    const existing = destination.original ? await graph.todoTask(mailbox, row.containerId, row.externalId) : null;
    if (existing && policy === 'skip') return 'skipped';
    if (existing && policy === 'overwrite') {
      const taskId = existing.id ?? row.externalId;
      await graph.updateTodoTask(mailbox, row.containerId, taskId, taskFields(item));
      // The steps become the archived ones: those there now go, the archived ones are made again.
      const now = [];
      for await (const step of graph.checklistItems(mailbox, row.containerId, taskId)) now.push(step);
      for (const step of now) await graph.deleteChecklistItem(mailbox, row.containerId, taskId, step.id ?? '');
      for (const step of steps) await graph.createChecklistItem(mailbox, row.containerId, taskId, step);
      return 'restored';
    }
    const listId = await containers.taskList(row);
    await graph.createTodoTask(mailbox, listId, { ...taskFields(item), checklistItems: steps });
    return 'restored';
  };

  // What a run put back before it was interrupted counts in its message too: the checkpoint keeps it.
  const done = new Set((rc.checkpoint.done as string[] | undefined) ?? []);
  const before = rc.checkpoint.items as { restored: Record<MailboxItemKind, number>; skipped: number } | undefined;
  const restored: Record<MailboxItemKind, number> = { event: 0, contact: 0, task: 0, ...before?.restored };
  let skipped = before?.skipped ?? 0;
  const checkpoint = () => rc.saveCheckpoint({ ...rc.checkpoint, done: [...done], items: { restored, skipped } });
  rc.progress({ total: work.length, source: mailbox });
  for (const chosenItem of work) {
    const key = keyOf(chosenItem);
    if (done.has(key)) {
      rc.progress({ done: 1, source: mailbox });
      continue;
    }
    rc.checkStopped();
    const name = nameOf(chosenItem);
    const result = await rc.item({ key, name, source: mailbox }, () => {
      if (chosenItem.kind === 'event') return restoreEvent(chosenItem as Chosen<Event>);
      if (chosenItem.kind === 'contact') return restoreContact(chosenItem as Chosen<Contact>);
      return restoreTask(chosenItem as Chosen<TodoTask>);
    });
    if (result.ok) {
      rc.progress({ done: 1, bytes: 0, source: mailbox });
      if (result.value === 'skipped') skipped += 1;
      else restored[chosenItem.kind] += 1;
    }
    done.add(key);
    // Every item: a contact or task made again after an interruption would be there twice.
    await checkpoint();
  }
  await checkpoint();

  const into = destination.original
    ? `into ${mailbox}'s own calendars, contact folders and To Do lists`
    : `into "${RESTORED_FOLDER}" of ${mailbox}`;
  const skippedText =
    skipped > 0
      ? `; ${counted(skipped, 'item')} still there ${skipped === 1 ? 'was' : 'were'} left as ${skipped === 1 ? 'it was' : 'they were'}`
      : '';
  let message = `Restored ${itemCounts(work, restored)} ${into}${skippedText}.`;
  if (mail.length > 0) message += ` ${(await restoreMail(rc, plane, spec)).message}`;
  return { message };
}

/**
 * "3 events, 2 contacts and 1 task": the kinds the restore chose, each with how many went back (and
 * `more`, such as the mails of a download, after them).
 */
function itemCounts(
  work: readonly Chosen<unknown>[],
  counts: Record<MailboxItemKind, number>,
  more: readonly string[] = [],
): string {
  const nouns: Record<MailboxItemKind, string> = { event: 'event', contact: 'contact', task: 'task' };
  const parts = [
    ...KINDS.filter((k) => work.some((c) => c.kind === k)).map((k) => counted(counts[k], nouns[k])),
    ...more,
  ];
  if (parts.length === 0) return counted(0, 'item');
  return parts.length === 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** An item's name in the run's report: an event's or task's subject, a contact's display name. */
function nameOf(c: Chosen<Event | Contact | TodoTask>): string {
  const item = c.item as Event & Contact & TodoTask;
  return (c.kind === 'contact' ? item.displayName : c.kind === 'task' ? item.title : item.subject) || c.row.externalId;
}

/** A name a ZIP entry can take: no path separators or characters Windows refuses. */
const safe = (name: string, fallback: string) =>
  name
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
    .trim()
    .slice(0, 80) || fallback;

/** A short, stable tag of an id: two items of one name stay two files. */
const tag = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 8);

/**
 * Restore as a download: the chosen items as standard files in a ZIP (events as .ics under
 * Calendars, contacts as .vcf under Contacts, tasks as .ics under To Do, each in a folder of its
 * calendar, contact folder or list; mail as .eml under Mail), kept as a file restore's download is.
 */
async function downloadMailboxItems(
  rc: RunContext,
  plane: DataPlane,
  spec: RestoreSpec,
  work: readonly Chosen<Event | Contact | TodoTask>[],
  mail: readonly string[],
) {
  const source = await findJob(rc.ctx.db, spec.sourceJobId);
  if (!source) throw new Error('The archive job of this restore was removed.');
  const mails = mail.length > 0 ? await chosenMails(rc, spec) : [];
  if (work.length === 0 && mails.length === 0) throw new Error('None of the chosen items is in the archive.');
  const name = restoreArchiveName(rc.run.run_id);
  const path = join(rc.ctx.config.dataDir, name);
  await mkdir(dirname(path), { recursive: true });
  const zip = await createZip(path);
  const archiveKey = { tenantId: rc.tenant.tenantId, mailbox: spec.sourceId };
  const encoder = new TextEncoder();
  const counts: Record<MailboxItemKind, number> = { event: 0, contact: 0, task: 0 };
  rc.progress({ total: work.length + mails.length, source: spec.sourceId });
  for (const c of work) {
    rc.checkStopped();
    const result = await rc.item(
      { key: `restore:${c.kind}:${c.row.externalId}`, name: nameOf(c), source: spec.sourceId },
      async () => {
        const folder = safe(c.row.containerName, c.kind);
        const file = `${safe(nameOf(c), c.kind)}-${tag(c.row.externalId)}`;
        let entry: { name: string; text: string };
        if (c.kind === 'event') {
          const attachments = await readEventAttachments(
            rc.ctx.db,
            plane.storeAt,
            archiveKey,
            c.row.externalId,
            c.row.version,
          );
          entry = { name: `Calendars/${folder}/${file}.ics`, text: eventToICalendar(c.item as Event, attachments) };
        } else if (c.kind === 'contact') {
          entry = { name: `Contacts/${folder}/${file}.vcf`, text: contactToVCard(c.item as Contact) };
        } else {
          entry = { name: `To Do/${folder}/${file}.ics`, text: todoToICalendar(c.item as TodoTask) };
        }
        const bytes = encoder.encode(entry.text);
        await zip.add(entry.name, bytes);
        return bytes.length;
      },
    );
    if (result.ok) {
      counts[c.kind] += 1;
      rc.progress({ done: 1, bytes: result.value, source: spec.sourceId });
    }
  }
  let mailCount = 0;
  for (const m of mails) {
    rc.checkStopped();
    const result = await rc.item({ key: `restore:mail:${m.id}`, name: m.subject, source: spec.sourceId }, async () => {
      const mime = await (await plane.storeAt(m.location_id)).get(m.blob_hash);
      await zip.add(`Mail/${mailFileName(m.subject, m.id)}`, mime);
      return mime.length;
    });
    if (result.ok) {
      mailCount += 1;
      rc.progress({ done: 1, bytes: result.value, source: spec.sourceId });
    }
  }
  const size = await zip.close();
  // Kept encrypted under the organisation's key, as its blobs are.
  const sealed = `${path}.sealed`;
  await sealFile(await plane.keys.ensure(rc.tenant.organisationId), path, sealed);
  await rm(path, { force: true });
  await (await plane.filesAt(source.locationId)).keep(name, sealed);
  await rc.saveCheckpoint({ archive: name, size });
  const mailText = mails.length > 0 ? [counted(mailCount, 'mail')] : [];
  return { message: `Prepared a download of ${itemCounts(work, counts, mailText)}.` };
}
