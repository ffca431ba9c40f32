/**
 * The Exchange archive's calendars, contacts and To Do tasks end to end: the real engine, executor,
 * Graph client, blob store (encrypted under the organisation's key) and archive against the simulated
 * tenant; archived, changed there (new, edited, deleted events, contacts and tasks), archived again,
 * and compared field for field with the simulator's model.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator, type SimUser } from '@compliance-portal/m365-simulator';
import type { Contact, Event, TodoTask } from '@microsoft/microsoft-graph-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReadVersion, readEventAttachments, readMailboxItems } from '../src/archive-data/mailbox-items.js';
import { type MailboxItemCounts, runCounts } from '../src/archive-data/mailbox-items-repository.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/** The latest version of each item, by its Graph id. */
const latest = <T>(versions: ReadVersion<T>[]) => {
  const byId = new Map<string, ReadVersion<T>>();
  for (const v of versions) byId.set(v.externalId, v);
  return byId;
};

describe('the Exchange archive of calendars, contacts and tasks', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-mailbox-items-engine-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let plane: DataPlane;
  let engine: JobEngine;
  let token = '';
  let mailboxes: SimUser[] = [];

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 3);
    plane = createDataPlane(server.ctx, createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-'))));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
  });
  afterAll(() => sim?.close());

  const api = () => jobsApi(server, tenantId, () => token);
  const archived = async <T>(kind: 'event' | 'contact' | 'task', mailbox: string) =>
    readMailboxItems<T>(server.ctx.db, plane.storeAt, kind, { tenantId, mailbox });

  /** Every item of the model is archived as it is now: live ones as their latest version, deleted ones marked. */
  async function compareWithModel() {
    for (const user of mailboxes) {
      const events = await archived<Event>('event', user.id);
      const lastEvents = latest(events);
      for (const model of user.events.values()) {
        const instances = [...lastEvents.values()].filter((v) => v.item.seriesMasterId === model.id);
        if (model.recurrence) {
          const master = lastEvents.get(model.id);
          expect(master?.item.type).toBe('seriesMaster');
          expect(master?.deletedAt !== null).toBe(model.deleted);
          expect(master?.item.recurrence).toEqual(model.recurrence);
          const cancelled = model.exceptions.filter((x) => x.cancelled);
          const named: { cancelledOccurrences?: string[] } = { ...master?.item };
          expect(named.cancelledOccurrences).toHaveLength(cancelled.length);
          const moved = model.exceptions.filter((x) => !x.cancelled);
          expect(master?.item.exceptionOccurrences?.map((x) => x.subject)).toEqual(
            moved.map((x) => x.subject ?? model.subject),
          );
          // The instances: an occurrence for each date of the pattern but the cancelled, the moved as exceptions.
          const live = instances.filter((v) => v.deletedAt === null);
          expect(live.filter((v) => v.item.type === 'exception')).toHaveLength(model.deleted ? 0 : moved.length);
          if (model.deleted) expect(live).toHaveLength(0);
          else expect(live.length).toBeGreaterThan(moved.length);
        } else {
          const event = lastEvents.get(model.id);
          expect(event, model.subject).toBeDefined();
          expect(event?.deletedAt !== null, model.subject).toBe(model.deleted);
          if (model.deleted) continue;
          const item = event?.item;
          expect(item?.subject).toBe(model.subject);
          expect(new Date(`${item?.start?.dateTime}Z`).getTime()).toBe(Date.parse(model.start));
          expect(new Date(`${item?.end?.dateTime}Z`).getTime()).toBe(Date.parse(model.end));
          expect(item?.isAllDay).toBe(model.isAllDay);
          expect(item?.location?.displayName).toBe(model.location);
          expect(item?.organizer?.emailAddress).toEqual({
            name: model.organizer.name,
            address: model.organizer.address,
          });
          expect(item?.attendees?.map((a) => [a.emailAddress?.address, a.type, a.status?.response])).toEqual(
            model.attendees.map((a) => [a.address, a.type, a.response]),
          );
          expect(item?.body?.content).toContain(model.body.content.split('\n')[0]?.slice(0, 20) ?? '');
          const files = await readEventAttachments(
            server.ctx.db,
            plane.storeAt,
            { tenantId, mailbox: user.id },
            model.id,
            event?.version ?? 0,
          );
          expect(files.map((f) => [f.name, f.contentType, f.isInline])).toEqual(
            model.attachments.map((a) => [a.name, a.contentType, a.isInline]),
          );
          for (const [n, file] of files.entries()) {
            expect(Buffer.from(file.content).equals(Buffer.from(model.attachments[n]?.content ?? []))).toBe(true);
          }
        }
      }

      const contacts = latest(await archived<Contact>('contact', user.id));
      for (const model of user.contacts.values()) {
        const contact = contacts.get(model.id);
        expect(contact, model.id).toBeDefined();
        expect(contact?.deletedAt !== null).toBe(model.deleted);
        if (model.deleted) continue;
        const folder = user.contactFolders.find((f) => f.id === model.folderId);
        expect(contact?.container.endsWith(folder?.name ?? '?')).toBe(true);
        const fields: Record<string, unknown> = { ...contact?.item };
        for (const [key, value] of Object.entries(model.properties)) expect(fields[key], key).toEqual(value);
      }

      const tasks = latest(await archived<TodoTask>('task', user.id));
      for (const model of user.tasks.values()) {
        const task = tasks.get(model.id);
        const list = user.taskLists.find((l) => l.id === model.listId);
        if (list?.deleted) continue;
        expect(task, model.title).toBeDefined();
        expect(task?.deletedAt !== null).toBe(model.deleted);
        if (model.deleted) continue;
        expect(task?.container).toBe(list?.name);
        expect([task?.item.title, task?.item.status, task?.item.importance]).toEqual([
          model.title,
          model.status,
          model.importance,
        ]);
        expect(task?.item.body?.content).toBe(model.body.content);
        expect(task?.item.recurrence ?? undefined).toEqual(model.recurrence);
        expect(task?.item.checklistItems?.map((c) => [c.id, c.displayName, c.isChecked])).toEqual(
          model.checklistItems.map((c) => [c.id, c.displayName, c.isChecked]),
        );
      }
    }
  }

  it('archives them beside the mail, then only what changed: new, edited and deleted items, earlier versions kept', async () => {
    const job = await api().create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
    });
    const first = await api().start(job.jobId, engine);
    expect(first.run).toMatchObject({ status: 'finished', items_failed: 0 });
    // The run's own counters stay the mail's.
    const messages = mailboxes.reduce((n, u) => n + u.messages.size, 0);
    expect(Number(first.run.items_done)).toBe(messages);
    const counts = (await runCounts(server.ctx.db, String(first.run.run_id))) as MailboxItemCounts;
    const instances = async () => {
      let n = 0;
      for (const u of mailboxes) n += (await archived<Event>('event', u.id)).length;
      return n;
    };
    expect(counts.events).toBe(await instances());
    expect(counts.contacts).toBe(mailboxes.reduce((n, u) => n + u.contacts.size, 0));
    expect(counts.tasks).toBe(mailboxes.reduce((n, u) => n + u.tasks.size, 0));
    expect(counts.attachments).toBe(
      mailboxes.reduce((n, u) => n + [...u.events.values()].filter((e) => e.attachments.length > 0).length, 0),
    );
    expect(counts.attachments).toBeGreaterThan(0);
    expect(counts.deleted).toBe(0);
    expect(counts.failed).toBe(0);
    expect(String(first.run.message)).toContain('Calendars, contacts and To Do:');
    await compareWithModel();

    const before = new Map<string, string>();
    for (const u of mailboxes)
      for (const [id, e] of latest(await archived<Event>('event', u.id))) before.set(id, e.item.subject ?? '');

    // Nothing changed: nothing new.
    const again = await api().start(job.jobId, engine);
    expect(await runCounts(server.ctx.db, String(again.run.run_id))).toEqual({
      events: 0,
      contacts: 0,
      tasks: 0,
      attachments: 0,
      deleted: 0,
      failed: 0,
    });

    evolve(sim.state.tenant(tenantId), {
      newEvents: 2,
      editedEvents: 2,
      deletedEvents: 1,
      newContacts: 2,
      editedContacts: 2,
      deletedContacts: 1,
      newTasks: 2,
      editedTasks: 2,
      deletedTasks: 1,
    });
    const third = await api().start(job.jobId, engine);
    expect(third.run).toMatchObject({ status: 'finished', items_failed: 0 });
    const changed = (await runCounts(server.ctx.db, String(third.run.run_id))) as MailboxItemCounts;
    expect(changed.events).toBeGreaterThanOrEqual(4);
    expect(changed.contacts).toBe(4);
    expect(changed.tasks).toBe(4);
    expect(changed.deleted).toBeGreaterThanOrEqual(3);
    expect(changed.failed).toBe(0);
    await compareWithModel();

    // An edited event keeps its version before the edit.
    let kept = 0;
    for (const u of mailboxes) {
      const events = await archived<Event>('event', u.id);
      for (const model of u.events.values()) {
        if (model.deleted || model.recurrence || !model.subject.endsWith('(moved)')) continue;
        const versions = events.filter((v) => v.externalId === model.id);
        expect(versions.map((v) => v.item.subject)).toEqual([before.get(model.id), model.subject]);
        kept += 1;
      }
    }
    expect(kept).toBe(2);
  });
});
