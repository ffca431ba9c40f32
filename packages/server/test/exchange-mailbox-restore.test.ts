/**
 * Restore of a mailbox's archived calendars, contacts and To Do tasks end to end: the real engine,
 * executors, Graph client and blob store against the simulated tenant. A mailbox is archived, changed
 * (a series in Berlin time with a moved and a cancelled occurrence and an attachment, a task with
 * steps), archived again, items deleted at the source and archived once more; then restored into the
 * original mailbox, into another one and as a download, and compared field for field with what the
 * simulator held before (the ZIP's files read back by ical.js).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator, type SimUser } from '@compliance-portal/m365-simulator';
import type { Contact, TodoTask } from '@microsoft/microsoft-graph-types';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { executors } from '../src/jobs/executors.js';
import type { GraphApi } from '../src/m365/graph-api.js';
import { insertRight } from '../src/modules/archive/proxy-rights-repository.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, jobsApi, sessionToken, simulatedTenant, simulatorGraph, TENANTS, useTestServer } from './helpers.js';
import { readZip } from './zip-reader.js';

/** An event of the simulator's model. */
type SimEvent = SimUser['events'] extends Map<string, infer E> ? E : never;

const DAY = 86_400_000;
const ZONE = 'W. Europe Standard Time';

/** Graph's answer for an item without what Graph sets itself on every new item. */
function fields(item: object | null, extra: string[] = []) {
  const own = ['id', '@odata.etag', '@odata.context', 'changeKey', 'createdDateTime', 'lastModifiedDateTime', ...extra];
  return Object.fromEntries(Object.entries(item ?? {}).filter(([key]) => !own.includes(key)));
}

/** A body as Outlook shows it: its text, whether it was kept as text or as the HTML Graph answers for it. */
const bodyText = (body: SimEvent['body']) =>
  body.content
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** An event of the model as a restore must bring it back (ids, stamps and the organiser's response aside). */
function eventModel(e: SimEvent) {
  return {
    subject: e.subject,
    body: bodyText(e.body),
    start: e.start,
    end: e.end,
    startTimeZone: e.startTimeZone,
    endTimeZone: e.endTimeZone,
    isAllDay: e.isAllDay,
    location: e.location,
    attendees: e.attendees.map((a) => [a.address, a.type]),
    recurrence: e.recurrence,
    exceptions: e.exceptions
      .map((x) => ({
        originalStart: Date.parse(x.originalStart),
        start: x.start ? Date.parse(x.start) : undefined,
        end: x.end ? Date.parse(x.end) : undefined,
        subject: x.cancelled ? undefined : (x.subject ?? e.subject),
        cancelled: x.cancelled ?? false,
      }))
      .sort((a, b) => a.originalStart - b.originalStart),
    attachments: e.attachments.map((a) => [
      a.name,
      a.contentType,
      a.isInline,
      Buffer.from(a.content).toString('base64'),
    ]),
    importance: e.importance,
    sensitivity: e.sensitivity,
    showAs: e.showAs,
    categories: e.categories,
    isReminderOn: e.isReminderOn,
    reminderMinutesBeforeStart: e.reminderMinutesBeforeStart,
  };
}

describe('the restore of a mailbox’s calendars, contacts and tasks', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-mailbox-restore-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let plane: DataPlane;
  let graph: GraphApi;
  let token = '';
  let source: SimUser;
  let other: SimUser;
  let archiveJob: { jobId: string };
  /** The items deleted at the source after they were archived, as they were. */
  const gone = {
    series: undefined as SimEvent | undefined,
    contact: {} as Contact,
    contactId: '',
    contactFolderId: '',
    task: {} as TodoTask,
    taskId: '',
    steps: [] as [string, boolean][],
  };

  const api = () => jobsApi(server, tenantId, () => token);
  const archive = async () => (await api().start(archiveJob.jobId, engine)).run;

  /** Runs a restore of the source mailbox's `nodeIds`: its run when it ended. */
  async function restore(
    nodeIds: string[],
    target: { target: 'original' | 'download' } | { target: 'other'; targetId: string },
    conflictPolicy: 'skip' | 'keepBoth' | 'overwrite' = 'keepBoth',
    beforeRun?: (runId: string) => Promise<void>,
  ) {
    const job = await api().create({
      name: `Restore ${randomUUID().slice(0, 8)}`,
      type: 'restore',
      application: 'exchange',
      sources: [target.target === 'other' ? target.targetId : source.id],
      restore: {
        sourceJobId: archiveJob.jobId,
        snapshot: new Date(Date.now() + DAY).toISOString(),
        sourceId: source.id,
        nodeIds,
        conflictPolicy,
        ...target,
      },
    });
    const run = async () =>
      (
        await server.ctx.db.query<{ run_id: string; status: string; message: string; items_failed: number }>(
          'select run_id, status, message, items_failed from job_runs where job_id = $1 order by seq desc limit 1',
          [job.jobId],
        )
      )[0];
    if (beforeRun) await beforeRun((await run())?.run_id ?? '');
    await engine.runUntilIdle();
    return { jobId: job.jobId, run: await run() };
  }

  /** The ids of the mailbox's live events, contacts and tasks now. */
  const liveIds = (u: SimUser) =>
    new Set([
      ...[...u.events.values()].filter((e) => !e.deleted).map((e) => e.id),
      ...[...u.contacts.values()].filter((c) => !c.deleted).map((c) => c.id),
      ...[...u.tasks.values()].filter((t) => !t.deleted).map((t) => t.id),
    ]);
  const newSince = (u: SimUser, before: Set<string>) => ({
    events: [...u.events.values()].filter((e) => !e.deleted && !before.has(e.id)),
    contacts: [...u.contacts.values()].filter((c) => !c.deleted && !before.has(c.id)),
    tasks: [...u.tasks.values()].filter((t) => !t.deleted && !before.has(t.id)),
  });
  const steps = async (mailbox: string, listId: string, taskId: string) => {
    const out: [string, boolean][] = [];
    for await (const s of graph.checklistItems(mailbox, listId, taskId))
      out.push([s.displayName ?? '', s.isChecked ?? false]);
    return out;
  };

  /** Items of the source whose latest archived version is not deleted, and that are still there unchanged by a restore. */
  async function archivedLive(table: 'archived_events' | 'archived_contacts' | 'archived_tasks') {
    const rows = await server.ctx.db.query<{ external_id: string }>(
      `select external_id from (select distinct on (external_id) external_id, deleted_at from ${table}
         where tenant_id = $1 and mailbox = $2 order by external_id, version desc) v where deleted_at is null
       order by external_id`,
      [tenantId, source.id],
    );
    return new Set(rows.map((r) => r.external_id));
  }

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 3);
    plane = createDataPlane(server.ctx, createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-'))));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    graph = simulatorGraph(sim, tenantId);
    [source, other] = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox) as [SimUser, SimUser];
    // Restoring into another mailbox or as a download reads the source's archive: the administrator
    // holds a proxy right to it.
    await insertRight(server.ctx.db, {
      rightId: randomUUID(),
      tenantId,
      mailbox: { id: source.id, name: source.displayName },
      principal: { principalId: randomUUID(), kind: 'account', displayName: 'Admin', email: ADMIN },
      grantedBy: ADMIN,
      grantedAt: new Date(),
    });
    archiveJob = await api().create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [source.id, other.id],
    });
    expect(await archive()).toMatchObject({ status: 'finished', items_failed: 0 });

    // Changed at the source: a series made in Berlin time, its second meeting moved and its fourth
    // cancelled, with a binary attachment; a task with steps; then the generated items evolve.
    const calendar = [...source.calendars].find((c) => c.isDefault);
    const monday = new Date(Date.now() + 7 * DAY);
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7));
    const date = monday.toISOString().slice(0, 10);
    const series = await graph.createEvent(source.id, calendar?.id ?? '', {
      subject: 'Berlin stand-up',
      body: { contentType: 'html', content: '<p>The <b>plan</b></p>' },
      start: { dateTime: `${date}T09:30:00`, timeZone: ZONE },
      end: { dateTime: `${date}T10:00:00`, timeZone: ZONE },
      location: { displayName: 'Room Spree' },
      attendees: [{ type: 'optional', emailAddress: { address: other.upn, name: other.displayName } }],
      categories: ['Blue category'],
      importance: 'high',
      sensitivity: 'private',
      showAs: 'tentative',
      isReminderOn: true,
      reminderMinutesBeforeStart: 30,
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'], firstDayOfWeek: 'monday' },
        range: { type: 'numbered', startDate: date, numberOfOccurrences: 6, recurrenceTimeZone: ZONE },
      },
    });
    const instances = [];
    for await (const i of graph.eventInstances(source.id, series.id ?? '', {
      start: new Date(monday.getTime() - DAY),
      end: new Date(monday.getTime() + 40 * DAY),
    }))
      instances.push(i);
    expect(instances).toHaveLength(6);
    const second = new Date(monday.getTime() + 8 * DAY).toISOString().slice(0, 10);
    await graph.updateEvent(source.id, instances[1]?.id ?? '', {
      subject: 'Berlin stand-up, on Tuesday',
      start: { dateTime: `${second}T11:00:00`, timeZone: ZONE },
      end: { dateTime: `${second}T11:45:00`, timeZone: ZONE },
    });
    await graph.deleteEvent(source.id, instances[3]?.id ?? '');
    await graph.addEventAttachment(source.id, series.id ?? '', {
      name: 'plan.bin',
      contentType: 'application/octet-stream',
      isInline: false,
      content: randomBytes(50_000),
    });
    const list = source.taskLists.find((l) => l.wellknownListName === 'defaultList');
    const task = await graph.createTodoTask(source.id, list?.id ?? '', {
      title: 'File the report',
      body: { contentType: 'text', content: 'Before Friday' },
      importance: 'high',
      status: 'inProgress',
      categories: ['Orange category'],
      dueDateTime: { dateTime: `${date}T00:00:00`, timeZone: 'UTC' },
      reminderDateTime: { dateTime: `${date}T08:00:00`, timeZone: ZONE },
      isReminderOn: true,
      checklistItems: [
        { displayName: 'Draft', isChecked: true },
        { displayName: 'Review', isChecked: false },
        { displayName: 'Send', isChecked: false },
      ],
    });
    evolve(sim.state.tenant(tenantId), { newEvents: 2, editedEvents: 2, editedContacts: 2, editedTasks: 1 });
    expect(await archive()).toMatchObject({ status: 'finished', items_failed: 0 });

    // Deleted at the source, then archived again: the archive keeps them, marked deleted.
    gone.series = structuredClone(source.events.get(series.id ?? ''));
    const contact = [...source.contacts.values()].find(
      (c) => !c.deleted && source.contactFolders.find((f) => f.id === c.folderId)?.parentId !== null,
    );
    gone.contactId = contact?.id ?? '';
    gone.contactFolderId = contact?.folderId ?? '';
    gone.contact = (await graph.contact(source.id, gone.contactId)) ?? {};
    gone.taskId = task.id ?? '';
    gone.task = (await graph.todoTask(source.id, list?.id ?? '', gone.taskId)) ?? {};
    gone.steps = await steps(source.id, list?.id ?? '', gone.taskId);
    await graph.deleteEvent(source.id, series.id ?? '');
    const clock = sim.state.tenant(tenantId);
    for (const item of [contact, source.tasks.get(gone.taskId)]) {
      if (!item) continue;
      clock.clock += 1;
      item.deleted = true;
      item.changed = clock.clock;
    }
    expect(await archive()).toMatchObject({ status: 'finished', items_failed: 0 });
  });
  afterAll(() => sim?.close());

  it('puts deleted items back into their own calendar, folder and list, field for field', async () => {
    const before = liveIds(source);
    const { run } = await restore(
      [`event:${gone.series?.id}`, `contact:${gone.contactId}`, `task:${gone.taskId}`],
      { target: 'original' },
      'skip',
    );
    expect(run).toMatchObject({ status: 'finished', items_failed: 0 });
    expect(run?.message).toBe(
      `Restored 1 event, 1 contact and 1 task into ${source.id}'s own calendars, contact folders and To Do lists.`,
    );
    const made = newSince(source, before);
    expect(made.events).toHaveLength(1);
    const [event] = made.events;
    // The series in its own calendar and zone, its moved meeting moved, its cancelled one cancelled,
    // its attachment byte for byte.
    expect(event?.calendarId).toBe(gone.series?.calendarId);
    expect(eventModel(event as SimEvent)).toEqual(eventModel(gone.series as SimEvent));
    expect(event?.startTimeZone).toBe(ZONE);
    expect(event?.exceptions.filter((x) => x.cancelled)).toHaveLength(1);

    expect(made.contacts).toHaveLength(1);
    expect(made.contacts[0]?.folderId).toBe(gone.contactFolderId);
    const contact = await graph.contact(source.id, made.contacts[0]?.id ?? '');
    expect(fields(contact)).toEqual(fields(gone.contact));

    expect(made.tasks).toHaveLength(1);
    const [task] = made.tasks;
    const restoredTask = await graph.todoTask(source.id, task?.listId ?? '', task?.id ?? '');
    expect(fields(restoredTask, ['bodyLastModifiedDateTime'])).toEqual(fields(gone.task, ['bodyLastModifiedDateTime']));
    expect(await steps(source.id, task?.listId ?? '', task?.id ?? '')).toEqual(gone.steps);
    expect(gone.steps.length).toBe(3);
  });

  it('follows the conflict policy for an item still there: skip leaves it, overwrite writes the archive over it, keep both adds one', async () => {
    // A single event, a contact and a task as archived, changed at the source since.
    const [events, contacts, tasks] = await Promise.all([
      archivedLive('archived_events'),
      archivedLive('archived_contacts'),
      archivedLive('archived_tasks'),
    ]);
    const single = [...source.events.values()].find((e) => !e.deleted && !e.recurrence && events.has(e.id));
    const contact = [...source.contacts.values()].find((c) => !c.deleted && contacts.has(c.id));
    const task = [...source.tasks.values()].find((t) => !t.deleted && tasks.has(t.id) && t.checklistItems.length > 0);
    const archived = {
      event: eventModel(single as SimEvent),
      contact: fields(await graph.contact(source.id, contact?.id ?? '')),
      task: fields(await graph.todoTask(source.id, task?.listId ?? '', task?.id ?? ''), ['bodyLastModifiedDateTime']),
      steps: await steps(source.id, task?.listId ?? '', task?.id ?? ''),
    };
    await graph.updateEvent(source.id, single?.id ?? '', { subject: 'Changed since', categories: ['Green category'] });
    await graph.updateContact(source.id, contact?.id ?? '', { jobTitle: 'Changed since', nickName: 'Since' });
    await graph.updateTodoTask(source.id, task?.listId ?? '', task?.id ?? '', { title: 'Changed since' });
    await graph.createChecklistItem(source.id, task?.listId ?? '', task?.id ?? '', { displayName: 'Added since' });
    const nodeIds = [`event:${single?.id}`, `contact:${contact?.id}`, `task:${task?.id}`];
    const changed = {
      event: eventModel(single as SimEvent),
      contact: fields(await graph.contact(source.id, contact?.id ?? '')),
      steps: await steps(source.id, task?.listId ?? '', task?.id ?? ''),
    };
    expect(changed.event).not.toEqual(archived.event);

    let before = liveIds(source);
    const skip = await restore(nodeIds, { target: 'original' }, 'skip');
    expect(skip.run?.message).toBe(
      `Restored 0 events, 0 contacts and 0 tasks into ${source.id}'s own calendars, contact folders and To Do lists; 3 items still there were left as they were.`,
    );
    expect(Object.values(newSince(source, before)).flat()).toEqual([]);
    expect(eventModel(single as SimEvent)).toEqual(changed.event);
    expect(fields(await graph.contact(source.id, contact?.id ?? ''))).toEqual(changed.contact);

    const keepBoth = await restore(nodeIds, { target: 'original' }, 'keepBoth');
    expect(keepBoth.run).toMatchObject({ status: 'finished', items_failed: 0 });
    const both = newSince(source, before);
    expect([both.events.length, both.contacts.length, both.tasks.length]).toEqual([1, 1, 1]);
    expect(eventModel(both.events[0] as SimEvent)).toEqual(archived.event);
    expect(eventModel(single as SimEvent)).toEqual(changed.event);
    expect(fields(await graph.contact(source.id, both.contacts[0]?.id ?? ''))).toEqual(archived.contact);
    expect(await steps(source.id, task?.listId ?? '', both.tasks[0]?.id ?? '')).toEqual(archived.steps);

    before = liveIds(source);
    const overwrite = await restore(nodeIds, { target: 'original' }, 'overwrite');
    expect(overwrite.run).toMatchObject({ status: 'finished', items_failed: 0 });
    expect(overwrite.run?.message).toMatch(/^Restored 1 event, 1 contact and 1 task into /);
    expect(Object.values(newSince(source, before)).flat()).toEqual([]);
    expect(eventModel(single as SimEvent)).toEqual(archived.event);
    expect(fields(await graph.contact(source.id, contact?.id ?? ''))).toEqual(archived.contact);
    expect(
      fields(await graph.todoTask(source.id, task?.listId ?? '', task?.id ?? ''), ['bodyLastModifiedDateTime']),
    ).toEqual(archived.task);
    expect(await steps(source.id, task?.listId ?? '', task?.id ?? '')).toEqual(archived.steps);
  });

  it('restores whole calendars, folders and lists with mail into "Restored" of another mailbox', async () => {
    const calendar = source.calendars.find((c) => c.isDefault);
    const folder = source.contactFolders.find((f) => f.isDefault);
    const list = source.taskLists.find((l) => l.wellknownListName === 'defaultList');
    const [mail] = await server.ctx.db.query<{ id: string }>(
      `select id::text from archive_items where tenant_id = $1 and source = $2 and kind = 'mail' limit 1`,
      [tenantId, source.id],
    );
    const before = liveIds(other);
    const { run } = await restore(
      [`calendar:${calendar?.id}`, `contactFolder:${folder?.id}`, `taskList:${list?.id}`, mail?.id ?? ''],
      { target: 'other', targetId: other.id },
    );
    expect(run).toMatchObject({ status: 'finished', items_failed: 0 });
    // What the source holds now, as archived: its single events and series, contacts and tasks.
    const events = [...source.events.values()].filter((e) => !e.deleted && e.calendarId === calendar?.id);
    const contacts = [...source.contacts.values()].filter((c) => !c.deleted && c.folderId === folder?.id);
    const tasks = [...source.tasks.values()].filter((t) => !t.deleted && t.listId === list?.id);
    expect(run?.message).toContain(`into "Restored" of ${other.id}. Restored 1 mail into Restored.`);
    const made = newSince(other, before);
    const restoredCalendar = other.calendars.find((c) => c.name === 'Restored');
    expect(restoredCalendar).toBeDefined();
    expect(made.events.every((e) => e.calendarId === restoredCalendar?.id)).toBe(true);
    const restoredFolder = other.contactFolders.find((f) => f.name === 'Restored');
    expect(made.contacts.every((c) => c.folderId === restoredFolder?.id)).toBe(true);
    const restoredList = other.taskLists.find((l) => l.name === 'Restored');
    expect(made.tasks.every((t) => t.listId === restoredList?.id)).toBe(true);
    const subjects = (xs: { subject: string }[]) => xs.map((x) => x.subject).sort();
    const archivedIds = new Set(
      (
        await server.ctx.db.query<{ external_id: string }>(
          'select distinct external_id from archived_events where tenant_id = $1 and mailbox = $2',
          [tenantId, source.id],
        )
      ).map((r) => r.external_id),
    );
    // Items other tests restored into the source came after its last archive run: they are not in it.
    expect(subjects(made.events)).toEqual(subjects(events.filter((e) => archivedIds.has(e.id))));
    expect(made.events.length).toBeGreaterThan(0);
    const names = (xs: { properties: Record<string, unknown> }[]) =>
      xs.map((x) => String(x.properties.displayName)).sort();
    const archivedContacts = new Set(
      (
        await server.ctx.db.query<{ external_id: string }>(
          'select distinct external_id from archived_contacts where tenant_id = $1 and mailbox = $2',
          [tenantId, source.id],
        )
      ).map((r) => r.external_id),
    );
    expect(names(made.contacts)).toEqual(names(contacts.filter((c) => archivedContacts.has(c.id))));
    const archivedTasks = new Set(
      (
        await server.ctx.db.query<{ external_id: string }>(
          'select distinct external_id from archived_tasks where tenant_id = $1 and mailbox = $2',
          [tenantId, source.id],
        )
      ).map((r) => r.external_id),
    );
    expect(made.tasks.map((t) => t.title).sort()).toEqual(
      tasks
        .filter((t) => archivedTasks.has(t.id))
        .map((t) => t.title)
        .sort(),
    );
    // A series comes with its exceptions into the other mailbox too.
    const series = made.events.find((e) => e.recurrence);
    const original = events.find((e) => e.recurrence && e.subject === series?.subject);
    expect(series && eventModel(series).exceptions).toEqual(original && eventModel(original).exceptions);
  });

  it('restores a whole series for one of its occurrences, once however many of them are chosen', async () => {
    const occurrences = await server.ctx.db.query<{ external_id: string; series_master_id: string }>(
      `select distinct external_id, series_master_id from archived_events
        where tenant_id = $1 and mailbox = $2 and event_type = 'occurrence' and deleted_at is null
        order by external_id limit 2`,
      [tenantId, source.id],
    );
    expect(occurrences).toHaveLength(2);
    expect(occurrences[0]?.series_master_id).toBe(occurrences[1]?.series_master_id);
    const master = source.events.get(occurrences[0]?.series_master_id ?? '') as SimEvent;
    const before = liveIds(other);
    const { run } = await restore(
      occurrences.map((o) => `event:${o.external_id}`),
      { target: 'other', targetId: other.id },
    );
    expect(run?.message).toBe(`Restored 1 event into "Restored" of ${other.id}.`);
    const made = newSince(other, before);
    expect(made.events).toHaveLength(1);
    expect(eventModel(made.events[0] as SimEvent)).toEqual(eventModel(master));
  });

  it('resumes an interrupted run without putting back twice what it restored before', async () => {
    const live = await archivedLive('archived_events');
    const single = [...source.events.values()].find((e) => !e.deleted && !e.recurrence && live.has(e.id));
    const nodeIds = [`event:${single?.id}`, `contact:${gone.contactId}`, `task:${gone.taskId}`];
    const before = liveIds(other);
    const { run } = await restore(nodeIds, { target: 'other', targetId: other.id }, 'keepBoth', async (runId) => {
      // As an interrupted run leaves it: the contact put back, then the worker gone.
      await server.ctx.db.query('update job_runs set checkpoint = $2 where run_id = $1', [
        runId,
        JSON.stringify({
          done: [`restore:contact:${gone.contactId}`],
          items: { restored: { event: 0, contact: 1, task: 0 }, skipped: 0 },
        }),
      ]);
    });
    expect(run).toMatchObject({ status: 'finished', items_failed: 0 });
    expect(run?.message).toBe(`Restored 1 event, 1 contact and 1 task into "Restored" of ${other.id}.`);
    const made = newSince(other, before);
    expect([made.events.length, made.contacts.length, made.tasks.length]).toEqual([1, 0, 1]);
  });

  it('prepares a download of standard files: events and tasks as iCalendar, contacts as vCard', async () => {
    const [mail] = await server.ctx.db.query<{ id: string; subject: string; blob_hash: string }>(
      `select id::text, subject, blob_hash from archive_items where tenant_id = $1 and source = $2 and kind = 'mail' limit 1`,
      [tenantId, source.id],
    );
    const { jobId, run } = await restore(
      [`event:${gone.series?.id}`, `contact:${gone.contactId}`, `task:${gone.taskId}`, mail?.id ?? ''],
      { target: 'download' },
    );
    expect(run).toMatchObject({ status: 'finished', items_failed: 0 });
    expect(run?.message).toBe('Prepared a download of 1 event, 1 contact, 1 task and 1 mail.');
    const zip = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/download-restore-archive',
      token,
      body: { jobId },
    });
    expect(zip.statusCode, zip.body).toBe(200);
    const files = readZip(zip.rawPayload);
    const named = (prefix: string) => [...files].find(([name]) => name.startsWith(prefix))?.[1]?.toString('utf8') ?? '';
    expect([...files.keys()].map((n) => n.split('/')[0]).sort()).toEqual(['Calendars', 'Contacts', 'Mail', 'To Do']);
    // The mail as the MIME it was archived as.
    const eml = await (await plane.storeAt(null)).get(mail?.blob_hash ?? '');
    expect(
      Buffer.from(eml).equals(files.get([...files.keys()].find((n) => n.startsWith('Mail/')) ?? '') ?? Buffer.alloc(0)),
    ).toBe(true);

    const series = gone.series as SimEvent;
    const calendar = new ICAL.Component(ICAL.parse(named('Calendars/')));
    const vevents = calendar.getAllSubcomponents('vevent');
    const main = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id')));
    expect(main.summary).toBe(series.subject);
    expect(main.startDate.toJSDate().getTime()).toBe(Date.parse(series.start));
    expect(main.location).toBe(series.location);
    const attach = vevents[0]?.getFirstProperty('attach');
    expect(
      Buffer.from(String(attach?.getFirstValue()), 'base64').equals(Buffer.from(series.attachments[0]?.content ?? [])),
    ).toBe(true);
    const exdates = vevents[0]
      ?.getAllProperties('exdate')
      .map((p) => (p.getFirstValue() as ICAL.Time).toJSDate().getTime());
    expect(exdates).toEqual(series.exceptions.filter((x) => x.cancelled).map((x) => Date.parse(x.originalStart)));
    const moved = vevents.filter((v) => v.hasProperty('recurrence-id')).map((v) => new ICAL.Event(v));
    expect(moved.map((m) => [m.summary, m.startDate.toJSDate().getTime()])).toEqual(
      series.exceptions.filter((x) => !x.cancelled).map((x) => [x.subject, Date.parse(x.start ?? '')]),
    );

    const card = new ICAL.Component(ICAL.parse(named('Contacts/')));
    expect(card.getFirstPropertyValue('fn')).toBe(gone.contact.displayName);
    expect(card.getAllProperties('email').map((e) => e.getFirstValue())).toEqual(
      (gone.contact.emailAddresses ?? []).map((e) => e.address),
    );
    expect(card.getFirstPropertyValue('title') ?? null).toBe(gone.contact.jobTitle ?? null);

    const todo = new ICAL.Component(ICAL.parse(named('To Do/')));
    const [vtodo, ...subtasks] = todo.getAllSubcomponents('vtodo');
    expect(vtodo?.getFirstPropertyValue('summary')).toBe(gone.task.title);
    expect(vtodo?.getFirstPropertyValue('description')).toBe(gone.task.body?.content);
    expect(vtodo?.getFirstPropertyValue('status')).toBe('IN-PROCESS');
    expect(vtodo?.getFirstPropertyValue('priority')).toBe(1);
    const due = vtodo?.getFirstPropertyValue('due') as ICAL.Time | undefined;
    expect(due?.toJSDate().getTime()).toBe(Date.parse(`${gone.task.dueDateTime?.dateTime?.slice(0, 19)}Z`));
    expect(vtodo?.getFirstPropertyValue('categories')).toBe(gone.task.categories?.[0]);
    const alarm = vtodo?.getFirstSubcomponent('valarm');
    expect(alarm?.getFirstPropertyValue('trigger')).toBeDefined();
    expect(
      subtasks.map((s) => [s.getFirstPropertyValue('summary'), s.getFirstPropertyValue('status') === 'COMPLETED']),
    ).toEqual(gone.steps);
    expect(subtasks.every((s) => s.getFirstPropertyValue('related-to') === gone.taskId)).toBe(true);
  });
});
