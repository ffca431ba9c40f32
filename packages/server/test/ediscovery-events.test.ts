/**
 * eDiscovery over archived calendar events, through the SDK's client against the live server: the
 * Exchange archive fills the archive from the simulated tenant (the real engine and executor), then
 * searches find events by subject, organiser, attendee and start, only in the mailboxes the caller may
 * read, merged with mail in the search's order; an event's preview and .ics match the simulator's
 * model, and a case's export carries its events as .ics.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator, SimUser } from '@compliance-portal/m365-simulator';
import { ApiError, createClient, type EdiscoveryHit } from '@compliance-portal/sdk';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteArchivedBefore } from '../src/archive-data/archive.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, API_KEY, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';
import { readZip } from './zip-reader.js';

/** An event of the simulated mailbox's model. */
type SimEvent = SimUser['events'] extends Map<string, infer E> ? E : never;

// In order: the last test deletes the readable mailbox's mail, which the merge test counts on.
describe('eDiscovery over archived calendar events', { shuffle: false }, () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-ediscovery-events-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let token = '';
  let origin = '';
  /** The mailbox the administrator has a proxy right to, and one they have none to. */
  let readable: SimUser;
  let closed: SimUser;
  let plane: DataPlane;

  beforeAll(async () => {
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 3);
    // The server's own store: its routes read what the engine wrote.
    plane = createDataPlane(server.ctx, createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')));
    const engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    const mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
    const [first, second] = mailboxes;
    if (!first || !second) throw new Error('the simulated tenant has fewer than two mailboxes');
    readable = first;
    closed = second;
    const jobs = jobsApi(server, tenantId, () => token);
    const job = await jobs.create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
    });
    await jobs.start(job.jobId, engine);
    await server.ctx.db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                 principal_email, granted_by, granted_at)
       values ($1, $2, $3, $4, 'user:admin', 'account', 'Admin', $5, $5, $6)`,
      [randomUUID(), tenantId, readable.id, readable.displayName, ADMIN, server.ctx.now()],
    );
  });
  afterAll(() => sim?.close());

  const api = () => createClient({ origin, apiKey: API_KEY, token }).apollo.ediscovery;
  const search = (body: Parameters<ReturnType<typeof api>['search']>[0]['body']) => api().search({ tenantId, body });
  /** The mailbox's single events (no series) that are not deleted. */
  const singles = (user: SimUser): SimEvent[] =>
    [...user.events.values()].filter((e) => !e.recurrence && !e.deleted && e.subject.trim() !== '');
  const eventOf = (user: SimUser) => {
    const [event] = singles(user);
    if (!event) throw new Error(`${user.displayName} has no single event`);
    return event;
  };
  const events = (hits: EdiscoveryHit[]) => hits.filter((h) => h.kind === 'event');

  it('finds an event by subject in a mailbox the caller may read, with its organiser, attendees and start', async () => {
    const event = eventOf(readable);
    const found = await search({ query: `subject:"${event.subject}"`, kinds: ['events'], pageSize: 500 });
    const hit = found.items.find((h) => h.itemId === event.id);
    expect(hit).toMatchObject({
      kind: 'event',
      source: readable.id,
      subject: event.subject,
      sentAt: new Date(event.start).toISOString(),
      endsAt: new Date(event.end).toISOString(),
      sender: `${event.organizer.name} <${event.organizer.address}>`,
    });
    for (const attendee of event.attendees) expect(hit?.recipients).toContain(attendee.address);
    // Only events were asked for, and only of the readable mailbox.
    expect(found.items.every((h) => h.kind === 'event' && h.source === readable.id)).toBe(true);
    expect(found.total).toBe(found.items.length);
    expect(found.searchedMailboxes).toBe(1);
  });

  it('never finds an event of a mailbox the caller may not read, nor events unless they are asked for', async () => {
    const event = eventOf(closed);
    const asked = await search({ query: `subject:"${event.subject}"`, kinds: ['events'] });
    expect(asked.items.map((h) => h.source)).not.toContain(closed.id);
    const mine = eventOf(readable);
    const unasked = await search({ query: `subject:"${mine.subject}"` });
    expect(events(unasked.items)).toEqual([]);
  });

  it('finds events by organiser, attendee, words and the range their start is in', async () => {
    const event = eventOf(readable);
    const attendee = event.attendees[0];
    const byOrganiser = await search({ query: `from:${event.organizer.address}`, kinds: ['events'], pageSize: 500 });
    expect(byOrganiser.items.map((h) => h.itemId)).toContain(event.id);
    expect(byOrganiser.items.every((h) => h.sender.includes(event.organizer.address))).toBe(true);
    if (attendee) {
      const byAttendee = await search({ query: `to:${attendee.address}`, kinds: ['events'], pageSize: 500 });
      expect(byAttendee.items.map((h) => h.itemId)).toContain(event.id);
      expect(byAttendee.items.every((h) => h.recipients.includes(attendee.address))).toBe(true);
    }
    const word = event.subject.split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w)) ?? event.subject;
    const byWord = await search({ query: word, kinds: ['events'], pageSize: 500 });
    expect(byWord.items.map((h) => h.itemId)).toContain(event.id);
    expect(byWord.items.find((h) => h.itemId === event.id)?.snippet).toContain('<mark>');
    const start = Date.parse(event.start);
    const inside = await search({
      query: `subject:"${event.subject}"`,
      kinds: ['events'],
      from: new Date(start).toISOString(),
      to: new Date(start + 1000).toISOString(),
    });
    expect(inside.items.map((h) => h.itemId)).toEqual([event.id]);
    const after = await search({
      query: `subject:"${event.subject}"`,
      kinds: ['events'],
      from: new Date(start + 1000).toISOString(),
    });
    expect(after.items.map((h) => h.itemId)).not.toContain(event.id);
  });

  it('merges events with mail in date order, page by page, counting both', async () => {
    const mail = await search({ query: '', kinds: ['mail'], pageSize: 1 });
    const only = await search({ query: '', kinds: ['events'], pageSize: 1 });
    expect(mail.total).toBeGreaterThan(0);
    expect(only.total).toBeGreaterThan(0);
    const all = await search({ query: '', kinds: ['mail', 'events'], sort: 'date', order: 'asc', pageSize: 500 });
    expect(all.total).toBe(mail.total + only.total);
    const dates = all.items.map((h) => (h.sentAt ? Date.parse(h.sentAt) : Number.POSITIVE_INFINITY));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 7); page++) {
      const one = await search({ query: '', kinds: ['mail', 'events'], sort: 'date', order: 'asc', page, pageSize: 7 });
      paged.push(...one.items.map((h) => `${h.kind}:${h.itemId}`));
    }
    expect(paged).toEqual(all.items.map((h) => `${h.kind}:${h.itemId}`));
  });

  it("previews an event (organiser, attendees, when, location, text) and refuses another's mailbox", async () => {
    const event = eventOf(readable);
    const shown = await api().eventPreview({ tenantId, mailboxId: readable.id, eventId: event.id });
    expect(shown).toMatchObject({
      eventId: event.id,
      mailbox: readable.id,
      subject: event.subject,
      organizer: `${event.organizer.name} <${event.organizer.address}>`,
      start: new Date(event.start).toISOString(),
      end: new Date(event.end).toISOString(),
      isAllDay: event.isAllDay,
      location: event.location,
      attachments: event.attachments.map((a) => a.name).sort(),
      deletedAt: null,
    });
    expect(shown.attendees).toEqual(
      event.attendees.map((a) => ({ name: a.name, address: a.address, type: a.type, response: a.response })),
    );
    expect(shown.body).toContain(
      event.body.content
        .replace(/<[^>]+>/g, ' ')
        .trim()
        .split(/\s+/)[0],
    );
    const other = eventOf(closed);
    const refused = await api()
      .eventPreview({ tenantId, mailboxId: closed.id, eventId: other.id })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403 });
    const unknown = await api()
      .eventPreview({ tenantId, mailboxId: readable.id, eventId: 'not-archived' })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 404 });
  });

  it('downloads an event as an .ics file a standard parser reads, and refuses it of a closed mailbox', async () => {
    const event = eventOf(readable);
    const file = await api().eventFile({ tenantId, mailboxId: readable.id, eventId: event.id });
    const parsed = new ICAL.Component(ICAL.parse(await file.blob.text()));
    const vevent = parsed.getFirstSubcomponent('vevent');
    expect(vevent?.getFirstPropertyValue('summary')).toBe(event.subject);
    expect(vevent?.getFirstPropertyValue('location') ?? '').toBe(event.location);
    const refused = await api()
      .eventFile({ tenantId, mailboxId: closed.id, eventId: eventOf(closed).id })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403 });
  });

  it("exports a case's events as .ics files listed in its manifest", async () => {
    const event = eventOf(readable);
    const saved = await api().createCase({
      tenantId,
      body: { name: `Events ${randomUUID()}`, search: { query: `subject:"${event.subject}"`, kinds: ['events'] } },
    });
    expect(saved.hits).toBeGreaterThan(0);
    const exported = await api().exportCase({ tenantId, caseId: saved.caseId });
    const zip = readZip(Buffer.from(await exported.blob.arrayBuffer()));
    const ics = [...zip.keys()].filter((n) => n.endsWith('.ics'));
    expect(ics).toHaveLength(saved.hits);
    expect(zip.get('manifest.csv')?.toString('utf8')).toContain(event.id);
    const texts = ics.map((n) => zip.get(n)?.toString('utf8') ?? '');
    expect(texts.some((t) => t.includes(`SUMMARY:${event.subject.replace(/[,;]/g, (c) => `\\${c}`)}`))).toBe(true);
    await api().deleteCase({ tenantId, caseId: saved.caseId });
  });

  it("keeps a held case's events, and every other, when a deletion job removes the mailbox's mail", async () => {
    const event = eventOf(readable);
    const saved = await api().createCase({
      tenantId,
      body: {
        name: `Held ${randomUUID()}`,
        search: { query: '', kinds: ['mail', 'events'], mailboxes: [readable.id] },
      },
    });
    await server.ctx.db.query('update users set ediscovery_manager = true where email = $1', [ADMIN]);
    const held = await api().holdCase({ tenantId, caseId: saved.caseId });
    const events = await search({ query: '', kinds: ['events'], pageSize: 1 });
    // The hold keeps the mailbox's mail; a deletion past every retention removes the rest of it.
    await deleteArchivedBefore(server.ctx.db, plane.storeAt, tenantId, {
      kind: 'mail',
      before: new Date(Date.now() + 365 * 86_400_000),
      sources: [readable.id],
    });
    const mail = await search({ query: '', kinds: ['mail'], pageSize: 1 });
    expect(mail.total).toBe(held.hold?.items);
    expect((await search({ query: '', kinds: ['events'], pageSize: 1 })).total).toBe(events.total);
    expect((await api().eventPreview({ tenantId, mailboxId: readable.id, eventId: event.id })).subject).toBe(
      event.subject,
    );
    const file = await api().eventFile({ tenantId, mailboxId: readable.id, eventId: event.id });
    expect(await file.blob.text()).toContain('BEGIN:VEVENT');
    await api().releaseCase({ tenantId, caseId: saved.caseId });
    await deleteArchivedBefore(server.ctx.db, plane.storeAt, tenantId, {
      kind: 'mail',
      before: new Date(Date.now() + 365 * 86_400_000),
      sources: [readable.id],
    });
    expect((await search({ query: '', kinds: ['mail'], pageSize: 1 })).total).toBe(0);
    expect((await search({ query: '', kinds: ['events'], pageSize: 1 })).total).toBe(events.total);
    expect((await api().eventFile({ tenantId, mailboxId: readable.id, eventId: event.id })).blob.size).toBeGreaterThan(
      0,
    );
  });
});
