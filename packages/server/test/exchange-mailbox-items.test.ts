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
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archivedContactVCard,
  archivedEventICalendar,
  type ReadVersion,
  readEventAttachments,
  readMailboxItems,
} from '../src/archive-data/mailbox-items.js';
import { type MailboxItemCounts, runCounts } from '../src/archive-data/mailbox-items-repository.js';
import { stripHtml } from '../src/archive-data/mime.js';
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
  let job: { jobId: string };
  let first: { run: Record<string, unknown> };

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 3);
    plane = createDataPlane(server.ctx, createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-'))));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
    // Archived once before any test (they run in a random order): the archive holds the model as it is.
    job = await api().create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
    });
    first = await api().start(job.jobId, engine);
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
  it('gives an archived event as iCalendar and a contact as vCard 4.0, which a standard parser reads back as the source', async () => {
    const PARTSTAT: Record<string, string> = {
      accepted: 'ACCEPTED',
      tentativelyAccepted: 'TENTATIVE',
      declined: 'DECLINED',
      organizer: 'ACCEPTED',
      none: 'NEEDS-ACTION',
      notResponded: 'NEEDS-ACTION',
    };
    const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
    let series = 0;
    let withFiles = 0;
    let singles = 0;
    for (const user of mailboxes) {
      const key = { tenantId, mailbox: user.id };
      for (const model of user.events.values()) {
        const ics = await archivedEventICalendar(server.ctx.db, plane.storeAt, key, model.id);
        expect(ics, model.subject).toBeDefined();
        // Lines folded at 75 octets, ended by CRLF.
        for (const line of (ics ?? '').split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
        const calendar = new ICAL.Component(ICAL.parse(ics ?? ''));
        expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
        const vevents = calendar.getAllSubcomponents('vevent');
        const main = vevents.find((v) => !v.hasProperty('recurrence-id'));
        const event = new ICAL.Event(main);
        expect(event.uid).toBe(model.iCalUId);
        expect(event.summary).toBe(model.subject);
        expect(event.location ?? '').toBe(model.location);
        const body = model.body.contentType === 'html' ? stripHtml(model.body.content) : model.body.content;
        expect(event.description ?? '').toBe(body.trim());
        if (model.isAllDay) {
          expect(event.startDate.isDate).toBe(true);
          expect(event.startDate.toString()).toBe(model.start.slice(0, 10));
          expect(event.endDate.toString()).toBe(model.end.slice(0, 10));
        } else {
          expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(model.start));
          expect(event.endDate.toJSDate().getTime()).toBe(Date.parse(model.end));
        }
        const organizer = main?.getFirstProperty('organizer');
        expect(organizer?.getFirstValue()).toBe(`mailto:${model.organizer.address}`);
        expect(organizer?.getParameter('cn')).toBe(model.organizer.name);
        expect(
          event.attendees.map((a) => [a.getFirstValue(), a.getParameter('cn'), a.getParameter('partstat')]),
        ).toEqual(model.attendees.map((a) => [`mailto:${a.address}`, a.name, PARTSTAT[a.response]]));
        const files = (main?.getAllProperties('attach') ?? []).map((a) => ({
          name: a.getParameter('x-filename'),
          type: a.getParameter('fmttype'),
          bytes: Buffer.from(String(a.getFirstValue()), 'base64'),
        }));
        expect(files.map((f) => [f.name, f.type])).toEqual(model.attachments.map((a) => [a.name, a.contentType]));
        for (const [n, file] of files.entries())
          expect(file.bytes.equals(Buffer.from(model.attachments[n]?.content ?? []))).toBe(true);
        if (files.length > 0) withFiles += 1;

        if (!model.recurrence) {
          expect(vevents).toHaveLength(1);
          singles += 1;
          continue;
        }
        series += 1;
        const rule = main?.getFirstPropertyValue('rrule') as ICAL.Recur;
        expect(rule.freq).toBe('WEEKLY');
        expect(rule.count).toBe(model.recurrence.range.numberOfOccurrences);
        expect(rule.parts.BYDAY).toEqual(model.recurrence.pattern.daysOfWeek.map((d) => d.slice(0, 2).toUpperCase()));
        const cancelled = model.exceptions.filter((x) => x.cancelled);
        const exdates = (main?.getAllProperties('exdate') ?? []).map((p) =>
          (p.getFirstValue() as ICAL.Time).toJSDate().getTime(),
        );
        expect(exdates).toEqual(cancelled.map((x) => Date.parse(x.originalStart)));
        const moved = model.exceptions.filter((x) => !x.cancelled);
        const overrides = vevents.filter((v) => v.hasProperty('recurrence-id')).map((v) => new ICAL.Event(v));
        expect(
          overrides.map((o) => [
            o.uid,
            o.recurrenceId.toJSDate().getTime(),
            o.startDate.toJSDate().getTime(),
            o.endDate.toJSDate().getTime(),
          ]),
        ).toEqual(
          moved.map((x) => [
            model.iCalUId,
            Date.parse(x.originalStart),
            Date.parse(x.start ?? ''),
            Date.parse(x.end ?? ''),
          ]),
        );
        // Expanded by the parser: the pattern's dates but the cancelled ones, the moved one where it went.
        const expanded = new ICAL.Event(main, { exceptions: vevents.filter((v) => v.hasProperty('recurrence-id')) });
        const iterator = expanded.iterator();
        const starts: number[] = [];
        for (let next = iterator.next(); next; next = iterator.next()) {
          starts.push(expanded.getOccurrenceDetails(next).startDate.toJSDate().getTime());
        }
        expect(starts).toHaveLength((model.recurrence.range.numberOfOccurrences ?? 0) - cancelled.length);
        for (const x of moved) expect(starts).toContain(Date.parse(x.start ?? ''));
        for (const x of model.exceptions) expect(starts).not.toContain(Date.parse(x.originalStart));
      }

      for (const model of user.contacts.values()) {
        const vcf = await archivedContactVCard(server.ctx.db, plane.storeAt, key, model.id);
        const card = new ICAL.Component(ICAL.parse(vcf ?? ''));
        const p = model.properties as {
          displayName: string;
          givenName: string;
          surname: string;
          emailAddresses: { address: string }[];
          businessPhones: string[];
          mobilePhone: string | null;
          companyName: string;
          department: string;
          jobTitle: string;
          businessAddress: { street: string; city: string; state: string; postalCode: string; countryOrRegion: string };
          birthday?: string;
          personalNotes: string;
        };
        expect(card.name).toBe('vcard');
        expect(card.getFirstPropertyValue('version')).toBe('4.0');
        expect(card.getFirstPropertyValue('fn')).toBe(p.displayName);
        expect(card.getFirstPropertyValue('n')).toEqual([p.surname, p.givenName, '', '', '']);
        expect(card.getAllProperties('email').map((e) => e.getFirstValue())).toEqual(
          p.emailAddresses.map((e) => e.address),
        );
        const phones = card
          .getAllProperties('tel')
          .map((t) => [String(t.getParameter('type')), digits(t.getFirstValue())]);
        expect(phones).toEqual([
          ...p.businessPhones.map((n) => ['work,voice', digits(n)]),
          ...(p.mobilePhone ? [['cell,voice', digits(p.mobilePhone)]] : []),
        ]);
        expect(card.getFirstPropertyValue('org')).toEqual([p.companyName, p.department]);
        expect(card.getFirstPropertyValue('title')).toBe(p.jobTitle);
        const work = card.getAllProperties('adr').find((a) => a.getParameter('type') === 'work');
        const a = p.businessAddress;
        expect(work?.getFirstValue()).toEqual(['', '', a.street, a.city, a.state, a.postalCode, a.countryOrRegion]);
        expect(card.getFirstPropertyValue('bday')?.toString() ?? null).toBe(
          p.birthday ? p.birthday.slice(0, 10) : null,
        );
        expect(card.getFirstPropertyValue('note') ?? '').toBe(p.personalNotes);
      }
    }
    expect(series).toBeGreaterThan(0);
    expect(withFiles).toBeGreaterThan(0);
    expect(singles).toBeGreaterThan(0);
  });
});
