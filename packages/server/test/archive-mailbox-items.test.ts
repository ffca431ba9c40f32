/**
 * Browsing a mailbox's archived calendar events, contacts and To Do tasks through the SDK's client:
 * the simulated tenant archived by the real engine, read back as lists, items with their versions
 * (after a change in the tenant and a second run) and standard files, which a standard parser reads
 * back as the source. Mail's rule applies: no proxy right, no read.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator, type SimUser } from '@compliance-portal/m365-simulator';
import { ApiError, createClient, type PortalClient } from '@compliance-portal/sdk';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, API_KEY, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

// The second run (the last test) changes what the others read: in order.
describe("a mailbox's archived calendars, contacts and tasks, browsed", { shuffle: false }, () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-mailbox-items-browse-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';
  let client: PortalClient;
  let user: SimUser;
  let job: { jobId: string };

  const grant = (mailbox: string) =>
    server.ctx.db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind,
                                 principal_name, principal_email, granted_by, granted_at)
       values ($1, $2, $3, 'Mailbox', 'user:admin', 'account', 'Admin', $4, 'test', $5)`,
      [randomUUID(), tenantId, mailbox, ADMIN, server.ctx.now()],
    );

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 3);
    // The server's own store, which its routes read.
    const plane = createDataPlane(server.ctx, createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    const mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
    // The mailbox browsed has a single event with attendees and attachments to compare.
    const found = mailboxes.find((u) =>
      [...u.events.values()].some((e) => !e.recurrence && e.attendees.length > 0 && e.attachments.length > 0),
    );
    if (!found) throw new Error('no mailbox with an event with attendees and attachments');
    user = found;
    const api = jobsApi(server, tenantId, () => token);
    job = await api.create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
    });
    const first = await api.start(job.jobId, engine);
    expect(first.run).toMatchObject({ status: 'finished', items_failed: 0 });
    // The administrator reads this mailbox by a proxy right, no other.
    await grant(user.id);
    const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    client = createClient({ origin, apiKey: API_KEY, token });
  });
  afterAll(() => sim?.close());

  const browse = (kind: 'event' | 'contact' | 'task', more: object = {}) =>
    client.apollo.archive.browseMailboxItems({ tenantId, body: { mailboxId: user.id, kind, pageSize: 500, ...more } });

  it('refuses a caller without the right to read the mailbox, and records the refusal', async () => {
    const other = sim.state.tenant(tenantId).users.find((u) => u.id !== user.id)?.id ?? 'nobody@contoso.example';
    for (const call of [
      () => client.apollo.archive.browseMailboxItems({ tenantId, body: { mailboxId: other, kind: 'event' } }),
      () => client.apollo.archive.mailboxItem({ tenantId, body: { mailboxId: other, kind: 'contact', itemId: 'any' } }),
      () =>
        client.apollo.archive.mailboxItemFile({
          tenantId,
          body: { mailboxId: other, kind: 'contact', itemId: 'any' },
        }),
    ]) {
      const refused = await call().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 403, message: "You need a proxy right to read this mailbox's archive." });
    }
    const [audited] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from audit_log where target = $1 and outcome = 'failure'",
      [other],
    );
    expect(audited?.n).toBe(3);
  });

  it('lists events, contacts and tasks by their latest version, searchable and sorted, and gives their files', async () => {
    const events = await browse('event', { sort: 'start' });
    const live = [...user.events.values()].filter((e) => !e.deleted);
    // A series is listed once, by its master; its occurrences are the pattern repeated.
    const masters = events.items.filter((e) => live.some((m) => m.id === e.itemId));
    expect(masters.map((e) => e.itemId).sort()).toEqual(live.map((e) => e.id).sort());
    const starts = events.items.map((e) => e.start ?? '9999');
    expect(starts).toEqual([...starts].sort());
    for (const row of masters) {
      const model = user.events.get(row.itemId);
      expect([row.title, row.organizer, row.attendees, row.versions, row.deleted]).toEqual([
        model?.subject,
        model?.organizer.name,
        model?.attendees.length,
        1,
        false,
      ]);
      const calendar = user.calendars.find((c) => c.id === model?.calendarId);
      expect(row.container).toBe(calendar?.name);
    }

    const single = live.find((e) => !e.recurrence && e.attendees.length > 0 && e.attachments.length > 0);
    if (!single) throw new Error('no single event with attendees and attachments in the model');
    const searched = await browse('event', { search: single.subject.slice(0, 12).toUpperCase() });
    expect(searched.items.map((e) => e.itemId)).toContain(single.id);

    const opened = await client.apollo.archive.mailboxItem({
      tenantId,
      body: { mailboxId: user.id, kind: 'event', itemId: single.id },
    });
    expect(opened.event?.attendees.map((a) => [a.address, a.type, a.response])).toEqual(
      single.attendees.map((a) => [a.address, a.type, a.response]),
    );
    expect(opened.event?.organizer?.address).toBe(single.organizer.address);
    expect(opened.event?.location).toBe(single.location);
    expect(opened.event?.attachments.map((a) => [a.name, a.contentType, a.sizeBytes])).toEqual(
      single.attachments.map((a) => [a.name, a.contentType, a.content.length]),
    );
    expect([opened.contact, opened.task]).toEqual([null, null]);
    expect(opened.jobId).toBe(job.jobId);

    const series = live.find((e) => e.recurrence);
    if (series) {
      const repeated = await client.apollo.archive.mailboxItem({
        tenantId,
        body: { mailboxId: user.id, kind: 'event', itemId: series.id },
      });
      expect(repeated.event?.recurrence).toMatchObject({
        type: series.recurrence?.pattern.type,
        interval: series.recurrence?.pattern.interval,
        daysOfWeek: series.recurrence?.pattern.daysOfWeek,
        range: series.recurrence?.range.type,
      });
    }

    const ics = await client.apollo.archive.mailboxItemFile({
      tenantId,
      body: { mailboxId: user.id, kind: 'event', itemId: single.id },
    });
    expect(ics.blob.type).toContain('text/calendar');
    const calendar = new ICAL.Component(ICAL.parse(await ics.blob.text()));
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') ?? undefined);
    expect([event.uid, event.summary, event.location ?? '']).toEqual([single.iCalUId, single.subject, single.location]);
    if (!single.isAllDay) expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(single.start));
    expect(event.attendees.map((a) => a.getFirstValue())).toEqual(single.attendees.map((a) => `mailto:${a.address}`));

    const contacts = await browse('contact', { sort: 'email', order: 'desc' });
    const liveContacts = [...user.contacts.values()].filter((c) => !c.deleted);
    expect(contacts.total).toBe(liveContacts.length);
    const emails = contacts.items.map((c) => (c.email ?? '').toLowerCase());
    expect(emails).toEqual([...emails].sort().reverse());
    const source = liveContacts[0];
    if (!source) throw new Error('no contact in the model');
    const p = source.properties as { displayName: string; emailAddresses: { address: string }[]; companyName: string };
    const vcf = await client.apollo.archive.mailboxItemFile({
      tenantId,
      body: { mailboxId: user.id, kind: 'contact', itemId: source.id },
    });
    expect(vcf.blob.type).toContain('text/vcard');
    const card = new ICAL.Component(ICAL.parse(await vcf.blob.text()));
    expect(card.getFirstPropertyValue('fn')).toBe(p.displayName);
    expect(card.getAllProperties('email').map((e) => e.getFirstValue())).toEqual(
      p.emailAddresses.map((e) => e.address),
    );
    expect((card.getFirstPropertyValue('org') as string[] | null)?.[0]).toBe(p.companyName);
    const contact = await client.apollo.archive.mailboxItem({
      tenantId,
      body: { mailboxId: user.id, kind: 'contact', itemId: source.id },
    });
    expect(contact.contact?.displayName).toBe(p.displayName);
    expect(contact.contact?.emails.map((e) => e.address)).toEqual(p.emailAddresses.map((e) => e.address));
    expect(contact.contact?.companyName).toBe(p.companyName);

    const tasks = await browse('task', { sort: 'due' });
    const listed = new Map(tasks.items.map((t) => [t.itemId, t]));
    for (const model of user.tasks.values()) {
      if (model.deleted || user.taskLists.find((l) => l.id === model.listId)?.deleted) continue;
      const row = listed.get(model.id);
      expect([row?.title, row?.status, row?.container]).toEqual([
        model.title,
        model.status,
        user.taskLists.find((l) => l.id === model.listId)?.name,
      ]);
    }
    const withList = [...user.tasks.values()].find((t) => !t.deleted && t.checklistItems.length > 0);
    if (withList) {
      const task = await client.apollo.archive.mailboxItem({
        tenantId,
        body: { mailboxId: user.id, kind: 'task', itemId: withList.id },
      });
      expect(task.task?.checklist).toEqual(
        withList.checklistItems.map((c) => ({ displayName: c.displayName, isChecked: c.isChecked })),
      );
      expect(task.task?.importance).toBe(withList.importance);
    }

    // A sort the kind has not, an item the mailbox does not keep.
    await expect(browse('contact', { sort: 'due' })).rejects.toMatchObject({ status: 400 });
    await expect(
      client.apollo.archive.mailboxItem({ tenantId, body: { mailboxId: user.id, kind: 'task', itemId: 'none' } }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('keeps the versions of a changed item and marks a deleted one, after a second run', async () => {
    const before = new Map((await browse('contact')).items.map((c) => [c.itemId, c.title]));
    const was = new Map([...user.contacts.values()].map((c) => [c.id, JSON.stringify(c.properties)]));
    evolve(sim.state.tenant(tenantId), { editedContacts: 4, deletedContacts: 2, editedTasks: 1 });
    const edits = [...user.contacts.values()]
      .filter((c) => !c.deleted && was.has(c.id) && was.get(c.id) !== JSON.stringify(c.properties))
      .map((c) => c.id);
    // The evolution spreads over the tenant's mailboxes: this one has some of each change.
    expect(edits.length).toBeGreaterThan(0);
    const again = await jobsApi(server, tenantId, () => token).start(job.jobId, engine);
    expect(again.run).toMatchObject({ status: 'finished', items_failed: 0 });

    const changed = await browse('contact', { sort: 'versions', order: 'desc' });
    const twice = changed.items.filter((c) => c.versions === 2 && !c.deleted);
    expect(twice.map((c) => c.itemId).sort()).toEqual(edits.sort());
    // Most versions first.
    expect(changed.items.slice(0, twice.length).every((c) => c.versions === 2)).toBe(true);
    const edited = twice[0];
    const item = await client.apollo.archive.mailboxItem({
      tenantId,
      body: { mailboxId: user.id, kind: 'contact', itemId: edited?.itemId ?? '' },
    });
    expect(item.version).toBe(2);
    expect(item.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(item.versions[1]?.title).toBe(before.get(edited?.itemId ?? ''));
    const model = user.contacts.get(edited?.itemId ?? '')?.properties as { displayName: string };
    expect(item.contact?.displayName).toBe(model.displayName);
    const older = await client.apollo.archive.mailboxItem({
      tenantId,
      body: { mailboxId: user.id, kind: 'contact', itemId: edited?.itemId ?? '', version: 1 },
    });
    expect(older.version).toBe(1);
    expect(older.contact?.displayName).toBe(before.get(edited?.itemId ?? ''));

    const deleted = await browse('contact', { deleted: true });
    const gone = [...user.contacts.values()].filter((c) => c.deleted).map((c) => c.id);
    expect(deleted.items.map((c) => c.itemId).sort()).toEqual(gone.sort());
    for (const row of deleted.items) expect(row.deletedAt).not.toBeNull();
    const kept = await browse('contact', { deleted: false });
    expect(kept.total + deleted.total).toBe(changed.total);
  });
});
