/**
 * Calendars as Outlook answers them: a mailbox's calendars (default, others, a colleague's shared read
 * only), events and series masters, the calendar view with a series expanded (a moved occurrence as
 * an exception, a cancelled one left out), instances, one occurrence, attachments and their bytes,
 * times in the zone asked, calendar view delta across changes (its tokens carry the window) with
 * Outlook's 410s, the writes a restore makes, and what each permission reads. Microsoft's documented
 * examples serve as fixtures where they fit.
 */
import { describe, expect, it } from 'vitest';
import { evolve, expireDeltaTokens } from '../src/model.js';
import type { GraphAccess } from '../src/permissions.js';
import { graphOver } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };
type Page = { value: Row[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };

const WINDOW = 'startDateTime=2026-08-25T00:00:00Z&endDateTime=2026-11-01T00:00:00Z';
const json = { 'content-type': 'application/json' };

describe('calendars', () => {
  const graph = graphOver({ users: 3, extraCalendars: 2, eventsPerCalendar: 5, sharedCalendars: true }, 50);
  const { tenant, get, call, all } = graph;
  const [user, colleague] = tenant.users;
  if (!user || !colleague) throw new Error('no users');
  const base = `/users/${user.id}`;
  const series = () => [...user.events.values()].find((e) => e.recurrence) ?? expect.unreachable('a series');

  it('lists the default calendar, the others and a colleague’s shared with the mailbox, as Graph shows them', async () => {
    const calendars = await all<Row>(`${base}/calendars`);
    expect(calendars.map((c) => c.name)).toEqual([
      'Calendar',
      'Project deadlines',
      'Team events',
      colleague.displayName,
    ]);
    const [own, , , shared] = calendars;
    expect(own).toMatchObject({
      isDefaultCalendar: true,
      canEdit: true,
      canShare: true,
      isRemovable: false,
      owner: { name: user.displayName, address: user.upn },
    });
    // As a share recipient with read rights sees it: named after its owner, who owns it.
    expect(shared).toMatchObject({
      isDefaultCalendar: false,
      canEdit: false,
      canShare: false,
      canViewPrivateItems: false,
      isRemovable: true,
      owner: { name: colleague.displayName, address: colleague.upn },
    });
    expect((await get(`${base}/calendar`)).body.id).toBe(own?.id);
    // Its events are the colleague's default calendar's.
    const theirs = await all<Row>(`/users/${colleague.id}/calendar/events`);
    const seen = await all<Row>(`${base}/calendars/${shared?.id}/events`);
    expect(seen.map((e) => e.id)).toEqual(theirs.map((e) => e.id));
    const refused = await call('POST', `${base}/calendars/${shared?.id}/events`, {
      body: JSON.stringify({
        subject: 'x',
        start: { dateTime: '2026-09-01T10:00:00' },
        end: { dateTime: '2026-09-01T11:00:00' },
      }),
      headers: json,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ErrorAccessDenied' });
    expect((await get(`${base}/calendars/no-such-calendar`)).status).toBe(404);
  });

  it('lists single events and series masters, never their occurrences', async () => {
    const events = await all<Row>(`${base}/events`);
    expect(events).toHaveLength(5);
    expect(events.map((e) => e.type).sort()).toEqual([
      'seriesMaster',
      'singleInstance',
      'singleInstance',
      'singleInstance',
      'singleInstance',
    ]);
    const master = events.find((e) => e.type === 'seriesMaster');
    expect(master?.recurrence).toMatchObject({
      pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'] },
      range: { type: 'numbered', startDate: '2026-09-07', numberOfOccurrences: 6 },
    });
    const allDay = events.find((e) => e.isAllDay);
    expect(allDay?.start).toEqual({ dateTime: '2026-09-04T00:00:00.0000000', timeZone: 'UTC' });
    expect(allDay?.end).toEqual({ dateTime: '2026-09-05T00:00:00.0000000', timeZone: 'UTC' });
    // A colleague's invitation: the mailbox's owner attends, with their response.
    const invitation = events.find((e) => e.isOrganizer === false) ?? expect.unreachable('an invitation');
    expect(invitation.responseStatus).toMatchObject({ response: 'accepted' });
    expect((invitation.attendees as Row[]).map((a) => (a.emailAddress as Row).address)).toContain(user.upn);
    const meeting =
      events.find((e) => e.isOrganizer === true && (e.attendees as Row[]).length > 0) ??
      expect.unreachable('a meeting');
    expect((meeting.attendees as { status: { response: string } }[])[0]?.status.response).toMatch(
      /^(accepted|tentativelyAccepted|declined|none)$/,
    );
    expect((await all<Row>(`${base}/calendar/events`)).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('expands a series in the calendar view: a moved occurrence is an exception, a cancelled one is left out', async () => {
    const view = await all<Row>(`${base}/calendarView?${WINDOW}`);
    const master = series();
    const instances = view.filter((e) => e.seriesMasterId === master.id);
    expect(instances.map((e) => e.type)).toEqual(['occurrence', 'occurrence', 'exception', 'occurrence', 'occurrence']);
    expect(instances.map((e) => (e.start as Row).dateTime)).toEqual([
      '2026-09-07T09:00:00.0000000',
      '2026-09-14T09:00:00.0000000',
      '2026-09-22T10:00:00.0000000',
      '2026-09-28T09:00:00.0000000',
      '2026-10-12T09:00:00.0000000',
    ]);
    expect(instances[2]?.originalStart).toBe('2026-09-21T09:00:00.000Z');
    expect(instances.every((e) => e.recurrence === null)).toBe(true);
    // Ordered by start, and a window cuts: the lowercase names of Microsoft's example work too.
    const starts = view.map((e) => Date.parse(`${(e.start as Row).dateTime}Z`));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const narrow = await all<Row>(
      `${base}/calendarView?startdatetime=2026-09-14T00:00:00&enddatetime=2026-09-15T00:00:00`,
    );
    expect(narrow.map((e) => e.id)).toEqual(instances.slice(1, 2).map((e) => e.id));
    for (const path of ['calendarView', 'calendarView?startDateTime=2026-09-01T00:00:00Z']) {
      const refused = await get(`${base}/${path}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'ErrorInvalidParameter',
        message:
          'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
      });
    }
    const other = user.calendars.find((c) => !c.isDefault && !c.sharedFrom);
    const otherView = await all<Row>(`${base}/calendars/${other?.id}/calendarView?${WINDOW}`);
    expect(otherView).toHaveLength(5);
    expect(otherView.every((e) => e.type === 'singleInstance')).toBe(true);
  });

  it("answers a series' instances as Microsoft's example does, and each occurrence by its id", async () => {
    const master = series();
    // learn.microsoft.com, List instances: the answer to …/instances?…&$select=subject,bodyPreview,seriesMasterId,type,recurrence,start,end.
    const documented = {
      '@odata.etag': 'W/"x3IAvB5fbUWf4XNcBFLNUwAAKuA3yQ=="',
      id: 'AAMkAGUzYAgI1sE1TatAAEYAAAAAlNFb2CNPe0ucP9you',
      subject: 'Review strategy for Q3',
      bodyPreview: 'Changing meeting from 4/15 to 4/16.',
      seriesMasterId: 'AAMkAGUzYRgWAAA=',
      type: 'exception',
      recurrence: null,
      start: { dateTime: '2019-04-16T20:30:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2019-04-16T21:00:00.0000000', timeZone: 'UTC' },
    };
    const select = 'subject,bodyPreview,seriesMasterId,type,recurrence,start,end';
    const answer = await get(`${base}/events/${master.id}/instances?${WINDOW}&$select=${select}`);
    expect(answer.status).toBe(200);
    expect(String(answer.body['@odata.context'])).toMatch(
      new RegExp(`#users\\('${user.id}'\\)/events\\('${master.id}'\\)/instances\\(${select}\\)$`),
    );
    const rows = (answer.body as Page).value;
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(Object.keys(documented).sort());
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(['occurrence', 'exception']));
    for (const row of rows) {
      const one = await get(`${base}/events/${row.id}`);
      expect(one.body).toMatchObject({ id: row.id, type: row.type, seriesMasterId: master.id, start: row.start });
    }
    // The cancelled occurrence has no id left; the master names it among its cancelled occurrences.
    expect((await get(`${base}/events/${master.id}_20261005`)).status).toBe(404);
    const withCancelled = await get(`${base}/events/${master.id}?$select=subject,cancelledOccurrences`);
    expect(withCancelled.body.cancelledOccurrences).toEqual([`OID.${master.id}.2026-10-05`]);
    expect((await get(`${base}/events/${master.id}`)).body).not.toHaveProperty('cancelledOccurrences');
    const expanded = await get(`${base}/events/${master.id}?$expand=exceptionOccurrences`);
    expect((expanded.body.exceptionOccurrences as Row[]).map((e) => e.type)).toEqual(['exception']);
    // A single event has no instances.
    const single = [...user.events.values()].find((e) => !e.recurrence);
    expect(((await get(`${base}/events/${single?.id}/instances?${WINDOW}`)).body as Page).value).toEqual([]);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('answers times in the zone Prefer asks for, and bodies as text', async () => {
    const master = series();
    const prefer = { prefer: 'outlook.timezone="Pacific Standard Time", outlook.body-content-type="text"' };
    const answer = await get(`${base}/events/${master.id}`, prefer);
    // 09:00 UTC on 7 September 2026 is 02:00 in Pacific daylight time.
    expect(answer.body.start).toEqual({ dateTime: '2026-09-07T02:00:00.0000000', timeZone: 'Pacific Standard Time' });
    expect(answer.body.body).toEqual({ contentType: 'text', content: master.body.content });
    expect(answer.headers?.['preference-applied']).toBe(
      'outlook.timezone="Pacific Standard Time", outlook.body-content-type="text"',
    );
    const html = await get(`${base}/events/${master.id}`);
    expect(html.body.start).toEqual({ dateTime: '2026-09-07T09:00:00.0000000', timeZone: 'UTC' });
    expect((html.body.body as Row).contentType).toBe('html');
    expect(String((html.body.body as Row).content)).toContain(`<body>\r\n${master.body.content}\r\n</body>`);
  });

  it('serves attachments with their bytes, and adds one as Microsoft’s example does', async () => {
    const event = [...user.events.values()].find((e) => e.attachments.length > 0) ?? expect.unreachable('one');
    const [attachment] = (await get(`${base}/events/${event.id}/attachments`)).body.value as Row[];
    expect(attachment).toMatchObject({ '@odata.type': '#microsoft.graph.fileAttachment', contentType: 'text/plain' });
    const bytes = await get(`${base}/events/${event.id}/attachments/${attachment?.id}/$value`);
    expect(Buffer.from(bytes.bytes ?? []).toString('base64')).toBe(attachment?.contentBytes);
    expect(bytes.headers?.['content-type']).toBe('text/plain');
    expect((await get(`${base}/events/${event.id}/attachments/${attachment?.id}`)).body).toMatchObject({
      id: attachment?.id,
      size: bytes.bytes?.length,
    });
    // learn.microsoft.com, Add attachment (file attachment), its request as documented.
    const target = [...user.events.values()].find((e) => e.attachments.length === 0 && !e.recurrence);
    const added = await call('POST', `${base}/events/${target?.id}/attachments`, {
      body: JSON.stringify({
        '@odata.type': '#microsoft.graph.fileAttachment',
        name: 'menu.txt',
        contentBytes: 'bWFjIGFuZCBjaGVlc2UgdG9kYXk=',
      }),
      headers: json,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      '@odata.type': '#microsoft.graph.fileAttachment',
      name: 'menu.txt',
      contentType: 'text/plain',
      size: 'mac and cheese today'.length,
      isInline: false,
      contentId: null,
      contentLocation: null,
      contentBytes: 'bWFjIGFuZCBjaGVlc2UgdG9kYXk=',
    });
    expect(String(added.body['@odata.context'])).toMatch(/\/events\('[^']+'\)\/attachments\/\$entity$/);
    expect((await get(`${base}/events/${target?.id}`)).body.hasAttachments).toBe(true);
    const item = await call('POST', `${base}/events/${target?.id}/attachments`, {
      body: JSON.stringify({ '@odata.type': '#microsoft.graph.itemAttachment', name: 'Holiday event' }),
      headers: json,
    });
    expect(item.status).toBe(400);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('updates and deletes events: an occurrence patched becomes an exception, one deleted is cancelled', async () => {
    const send = (method: string, url: string, body?: unknown) =>
      call(method, url, body === undefined ? {} : { body: JSON.stringify(body), headers: json });
    const zone = 'W. Europe Standard Time';
    const made = await send('POST', `${base}/events`, {
      subject: 'Weekly',
      start: { dateTime: '2026-09-07T09:00:00', timeZone: zone },
      end: { dateTime: '2026-09-07T09:30:00', timeZone: zone },
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'] },
        range: { type: 'numbered', startDate: '2026-09-07', numberOfOccurrences: 4 },
      },
    });
    const id = String(made.body.id);
    const instances = async () => (await get(`${base}/events/${id}/instances?${WINDOW}`)).body.value as Row[];
    const [, second, third] = await instances();
    // A moved occurrence: its own subject and times; its id stays the occurrence's.
    const moved = await send('PATCH', `${base}/events/${second?.id}`, {
      subject: 'Moved to Tuesday',
      start: { dateTime: '2026-09-15T11:00:00', timeZone: zone },
      end: { dateTime: '2026-09-15T12:00:00', timeZone: zone },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: second?.id, type: 'exception', subject: 'Moved to Tuesday' });
    expect((await send('DELETE', `${base}/events/${third?.id}`)).status).toBe(204);
    expect((await get(`${base}/events/${third?.id}`)).status).toBe(404);
    const after = await instances();
    expect(after.map((i) => [i.type, i.subject, (i.start as { dateTime: string }).dateTime])).toEqual([
      ['occurrence', 'Weekly', '2026-09-07T07:00:00.0000000'],
      ['exception', 'Moved to Tuesday', '2026-09-15T09:00:00.0000000'],
      ['occurrence', 'Weekly', '2026-09-28T07:00:00.0000000'],
    ]);
    const master = await get(`${base}/events/${id}?$select=subject,cancelledOccurrences`);
    expect(master.body.cancelledOccurrences).toEqual([`OID.${id}.2026-09-21`]);
    // The series takes new properties; deleted, it is gone with its occurrences.
    const changed = await send('PATCH', `${base}/events/${id}`, { subject: 'Weekly, renamed', categories: ['Red'] });
    expect(changed.body).toMatchObject({ subject: 'Weekly, renamed', categories: ['Red'], type: 'seriesMaster' });
    expect((await instances()).map((i) => i.subject)).toEqual([
      'Weekly, renamed',
      'Moved to Tuesday',
      'Weekly, renamed',
    ]);
    expect(
      (await send('PATCH', `${base}/events/${id}`, { end: { dateTime: '2026-09-01T00:00:00', timeZone: zone } }))
        .status,
    ).toBe(400);
    expect((await send('DELETE', `${base}/events/${id}`)).status).toBe(204);
    expect((await get(`${base}/events/${id}`)).status).toBe(404);
    expect((await get(`${base}/events/${second?.id}`)).status).toBe(404);
  });

  it('creates an event in a calendar as Microsoft’s example answers it, once per transaction id', async () => {
    const calendar = user.calendars.find((c) => !c.isDefault && !c.sharedFrom);
    // learn.microsoft.com, Create event, example 1: the request as documented.
    const request = {
      subject: "Let's go for lunch",
      body: { contentType: 'HTML', content: 'Does mid month work for you?' },
      start: { dateTime: '2019-03-15T12:00:00', timeZone: 'Pacific Standard Time' },
      end: { dateTime: '2019-03-15T14:00:00', timeZone: 'Pacific Standard Time' },
      location: { displayName: "Harry's Bar" },
      attendees: [
        { emailAddress: { address: 'adelev@contoso.onmicrosoft.com', name: 'Adele Vance' }, type: 'required' },
      ],
      transactionId: '7E163156-7762-4BEB-A1C6-729EA81755A7',
    };
    const created = await call('POST', `${base}/calendars/${calendar?.id}/events`, {
      body: JSON.stringify(request),
      headers: json,
    });
    expect(created.status).toBe(201);
    expect(String(created.body['@odata.context'])).toMatch(
      new RegExp(`#users\\('${user.id}'\\)/calendars\\('${calendar?.id}'\\)/events/\\$entity$`),
    );
    // The documented answer's values, but for its ids, dates and the organizer (the mailbox's owner here).
    expect(created.body).toMatchObject({
      originalStartTimeZone: 'Pacific Standard Time',
      originalEndTimeZone: 'Pacific Standard Time',
      reminderMinutesBeforeStart: 15,
      isReminderOn: true,
      hasAttachments: false,
      hideAttendees: false,
      subject: "Let's go for lunch",
      bodyPreview: 'Does mid month work for you?',
      importance: 'normal',
      sensitivity: 'normal',
      isAllDay: false,
      isCancelled: false,
      isDraft: false,
      isOrganizer: true,
      responseRequested: true,
      seriesMasterId: null,
      transactionId: '7E163156-7762-4BEB-A1C6-729EA81755A7',
      showAs: 'busy',
      type: 'singleInstance',
      onlineMeetingUrl: null,
      isOnlineMeeting: false,
      onlineMeetingProvider: 'unknown',
      onlineMeeting: null,
      recurrence: null,
      responseStatus: { response: 'organizer', time: '0001-01-01T00:00:00Z' },
      start: { dateTime: '2019-03-15T12:00:00.0000000', timeZone: 'Pacific Standard Time' },
      end: { dateTime: '2019-03-15T14:00:00.0000000', timeZone: 'Pacific Standard Time' },
      location: {
        displayName: "Harry's Bar",
        locationType: 'default',
        uniqueId: "Harry's Bar",
        uniqueIdType: 'private',
      },
      locations: [
        { displayName: "Harry's Bar", locationType: 'default', uniqueId: "Harry's Bar", uniqueIdType: 'private' },
      ],
      attendees: [
        {
          type: 'required',
          status: { response: 'none', time: '0001-01-01T00:00:00Z' },
          emailAddress: { name: 'Adele Vance', address: 'adelev@contoso.onmicrosoft.com' },
        },
      ],
      organizer: { emailAddress: { name: user.displayName, address: user.upn } },
    });
    expect((created.body.body as Row).content).toBe(
      '<html>\r\n<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\r\n</head>\r\n<body>\r\nDoes mid month work for you?\r\n</body>\r\n</html>\r\n',
    );
    const id = String(created.body.id);
    // Read back in UTC: 12:00 Pacific daylight time is 19:00 UTC.
    expect((await get(`${base}/events/${id}`)).body.start).toEqual({
      dateTime: '2019-03-15T19:00:00.0000000',
      timeZone: 'UTC',
    });
    const again = await call('POST', `${base}/calendars/${calendar?.id}/events`, {
      body: JSON.stringify(request),
      headers: json,
    });
    expect(again.body.id).toBe(id);
    expect([...user.events.values()].filter((e) => e.transactionId === request.transactionId)).toHaveLength(1);
    // A series comes back as a series master with its pattern filled out.
    const weekly = await call('POST', `${base}/events`, {
      body: JSON.stringify({
        ...request,
        transactionId: undefined,
        recurrence: {
          pattern: { type: 'weekly', interval: 1, daysOfWeek: ['Friday'] },
          range: { type: 'numbered', startDate: '2019-03-15', numberOfOccurrences: 3 },
        },
      }),
      headers: json,
    });
    expect(weekly.body).toMatchObject({
      type: 'seriesMaster',
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['friday'], firstDayOfWeek: 'sunday', index: 'first' },
        range: { type: 'numbered', startDate: '2019-03-15', endDate: '0001-01-01', numberOfOccurrences: 3 },
      },
    });
    const instances = await all<Row>(
      `${base}/events/${weekly.body.id}/instances?startDateTime=2019-03-01T00:00:00Z&endDateTime=2019-04-30T00:00:00Z`,
    );
    expect(instances.map((i) => (i.start as Row).dateTime)).toEqual([
      '2019-03-15T19:00:00.0000000',
      '2019-03-22T19:00:00.0000000',
      '2019-03-29T19:00:00.0000000',
    ]);
    const unknownZone = await call('POST', `${base}/events`, {
      body: JSON.stringify({
        ...request,
        transactionId: undefined,
        start: { dateTime: '2019-03-15T12:00:00', timeZone: 'Mars Standard Time' },
      }),
      headers: json,
    });
    expect(unknownZone.status).toBe(400);
    expect(unknownZone.body.error).toMatchObject({
      code: 'TimeZoneNotSupportedException',
      message:
        "A valid TimeZone value must be specified. The following TimeZone value is not supported: 'Mars Standard Time'.",
    });
    const calendarMade = await call('POST', `${base}/calendars`, {
      body: JSON.stringify({ name: 'Volunteer' }),
      headers: json,
    });
    expect(calendarMade.status).toBe(201);
    expect(calendarMade.body).toMatchObject({ name: 'Volunteer', isDefaultCalendar: false, canEdit: true });
    const twice = await call('POST', `${base}/calendars`, {
      body: JSON.stringify({ name: 'volunteer' }),
      headers: json,
    });
    expect(twice.status).toBe(409);
    expect(graph.validation?.mismatches).toEqual([]);
  });
});

describe('calendar view delta', () => {
  const graph = graphOver({ users: 2, eventsPerCalendar: 5, extraCalendars: 1 }, 3);
  const { tenant, get } = graph;
  const [user, colleague] = tenant.users;
  if (!user || !colleague) throw new Error('no users');
  const base = `/users/${user.id}`;
  const deltaUrl = `${base}/calendarView/delta?${WINDOW}`;
  const maxPage = { prefer: 'odata.maxpagesize=2' };

  /** A delta round to its end: the rows, the links followed and the delta link. */
  async function round(url: string, headers?: Record<string, string>) {
    const rows: Row[] = [];
    const links: string[] = [];
    let next: string | undefined = url;
    let deltaLink = '';
    while (next) {
      const answer = await get(next, headers);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const body = answer.body as Page;
      rows.push(...body.value);
      next = body['@odata.nextLink'];
      if (next) links.push(next);
      deltaLink = body['@odata.deltaLink'] ?? deltaLink;
    }
    return { rows, links, deltaLink };
  }

  it('runs a round as Microsoft’s example does: pages of two, the window in the tokens, then only the changes', async () => {
    const full = await round(deltaUrl, maxPage);
    const view = await graph.all<Row>(`${base}/calendarView?${WINDOW}`);
    expect(full.rows.map((r) => r.id)).toEqual(view.map((r) => r.id));
    expect(full.rows.every((r) => r['@odata.type'] === '#microsoft.graph.event')).toBe(true);
    expect(full.links).toHaveLength(Math.ceil(view.length / 2) - 1);
    // As documented: the links carry a $skiptoken, then a $deltatoken, and not the window.
    for (const link of full.links) expect(link).toMatch(/\/calendarView\/delta\?\$skiptoken=[^&]+$/);
    expect(full.deltaLink).toMatch(/\/calendarView\/delta\?\$deltatoken=[^&]+$/);
    const first = await get(deltaUrl, maxPage);
    expect(String(first.body['@odata.context'])).toMatch(/\$metadata#Collection\(microsoft\.graph\.event\)$/);

    expect((await round(full.deltaLink)).rows).toEqual([]);
    const before = tenant.clock;
    const change = evolve(tenant, { newEvents: 2, editedEvents: 2, deletedEvents: 1, at: '2026-09-20T10:00:00Z' });
    const mine = [...user.events.values()].filter(
      (e) => e.changed === change && e.calendarId === user.calendars[0]?.id,
    );
    expect(change).toBe(before + 1);
    const next = await round(full.deltaLink, maxPage);
    const removed = next.rows.filter((r) => r['@removed']);
    const live = next.rows.filter((r) => !r['@removed']);
    for (const event of mine.filter((e) => e.deleted && !e.recurrence)) {
      expect(removed).toContainEqual({
        '@odata.type': '#microsoft.graph.event',
        id: event.id,
        '@removed': { reason: 'deleted' },
      });
    }
    for (const event of mine.filter((e) => !e.deleted && !e.recurrence)) {
      expect(live.map((r) => r.id)).toContain(event.id);
    }
    expect(next.rows.length).toBeGreaterThan(0);
    expect(next.rows.length).toBeLessThan(full.rows.length);
    expect((await round(next.deltaLink)).rows).toEqual([]);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('keeps each calendar’s tokens to itself, and answers Outlook’s 410s', async () => {
    const second = user.calendars.find((c) => !c.isDefault) ?? expect.unreachable('a second calendar');
    const secondDelta = `${base}/calendars/${second.id}/calendarView/delta`;
    const own = await round(`${secondDelta}?${WINDOW}`);
    expect(own.rows).toHaveLength(5);
    const token = new URL(own.deltaLink).searchParams.get('$deltatoken') ?? '';
    // Its token is not the default calendar's, nor one altered by hand; another user has no such calendar.
    const statuses = [];
    for (const url of [
      `${base}/calendarView/delta?$deltatoken=${encodeURIComponent(token)}`,
      `${secondDelta}?$deltatoken=${encodeURIComponent(`${token.slice(0, -3)}AAA`)}`,
      `/users/${colleague.id}/calendars/${second.id}/calendarView/delta?$deltatoken=${encodeURIComponent(token)}`,
    ]) {
      statuses.push((await get(url)).status);
    }
    expect(statuses).toEqual([410, 410, 404]);
    const refused = await get(`${base}/calendarView/delta?$deltatoken=${encodeURIComponent(token)}`);
    expect(refused.status).toBe(410);
    expect(refused.body.error).toMatchObject({ code: 'syncStateInvalid' });
    expect(refused.headers?.location).toMatch(/\/calendarView\/delta$/);
    expireDeltaTokens(tenant);
    const expired = await get(own.deltaLink);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'syncStateNotFound' });
    // Starting again works, and `$deltatoken=latest` answers only a link.
    expect((await round(`${secondDelta}?${WINDOW}`)).rows).toHaveLength(5);
    const latest = await get(`${base}/calendarView/delta?${WINDOW}&$deltatoken=latest`);
    expect((latest.body as Page).value).toEqual([]);
    expect((await round(String(latest.body['@odata.deltaLink']))).rows).toEqual([]);
    // The Kiota SDKs' call form.
    expect((await get(`${base}/calendarView/delta()?${WINDOW}`)).status).toBe(200);
  });

  it('reports a deleted series as each of its occurrences removed', async () => {
    const { deltaLink } = await round(deltaUrl);
    const master = [...user.events.values()].find((e) => e.recurrence) ?? expect.unreachable('a series');
    master.deleted = true;
    master.changed = ++tenant.clock;
    const { rows } = await round(deltaLink);
    expect(rows.every((r) => r['@removed'])).toBe(true);
    expect(rows.map((r) => r.id)).toEqual([
      `${master.id}_20260907`,
      `${master.id}_20260914`,
      `${master.id}_20260921`,
      `${master.id}_20260928`,
      `${master.id}_20261012`,
    ]);
    expect((await get(`${base}/events/${master.id}`)).status).toBe(404);
  });
});

describe('what each permission reads of a calendar', () => {
  const graph = graphOver({ users: 2 }, 50);
  const [user, other] = graph.tenant.users;
  if (!user || !other) throw new Error('no users');
  const app = (...roles: string[]): { access: GraphAccess } => ({ access: { kind: 'application', roles } });
  const asUser = (...scopes: string[]): { access: GraphAccess } => ({
    access: { kind: 'delegated', userId: user.id, scopes },
  });
  const event = [...user.events.values()].find((e) => e.attachments.length > 0) ?? expect.unreachable('one');
  const eventPath = `/users/${user.id}/events/${event.id}`;

  it('reads events without bodies with Calendars.ReadBasic, and no attachments', async () => {
    const basic = await graph.call('GET', eventPath, app('Calendars.ReadBasic'));
    expect(basic.status).toBe(200);
    expect(basic.body).not.toHaveProperty('body');
    expect(basic.body).not.toHaveProperty('bodyPreview');
    expect(basic.body.subject).toBe(event.subject);
    const full = await graph.call('GET', eventPath, app('Calendars.Read'));
    expect(full.body).toHaveProperty('body');
    expect((await graph.call('GET', `${eventPath}/attachments`, app('Calendars.ReadBasic'))).status).toBe(403);
    expect((await graph.call('GET', `${eventPath}/attachments`, app('Calendars.Read'))).status).toBe(200);
    const none = await graph.call('GET', eventPath, app('Mail.ReadWrite'));
    expect(none.status).toBe(403);
    expect(none.body.error).toMatchObject({ code: 'ErrorAccessDenied' });
  });

  it('writes only with Calendars.ReadWrite; a user reads another’s calendar only with a .Shared scope', async () => {
    const body = JSON.stringify({
      subject: 'x',
      start: { dateTime: '2026-09-01T10:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-09-01T11:00:00', timeZone: 'UTC' },
    });
    const post = (as: { access: GraphAccess }) =>
      graph.call('POST', `/users/${user.id}/events`, { body, headers: json, ...as });
    expect((await post(app('Calendars.Read'))).status).toBe(403);
    expect((await post(app('Calendars.ReadWrite'))).status).toBe(201);
    expect((await graph.call('GET', `/users/${user.id}/calendars`, asUser('Calendars.Read'))).status).toBe(200);
    expect((await graph.call('GET', `/users/${other.id}/calendars`, asUser('Calendars.Read'))).status).toBe(403);
    expect((await graph.call('GET', `/users/${other.id}/calendars`, asUser('Calendars.Read.Shared'))).status).toBe(200);
    expect((await graph.call('GET', '/me/calendar', asUser('Calendars.ReadBasic'))).body.owner).toEqual({
      name: user.displayName,
      address: user.upn,
    });
  });
});
