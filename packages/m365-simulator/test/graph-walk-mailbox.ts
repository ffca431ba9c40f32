/**
 * The schema walk's part for a mailbox's calendars, contacts and To Do: every path read, following
 * next links and delta rounds, then the writes a restore makes. Called by walkEverything.
 */
import type { Graph } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };

/** A wide window around the generated content (September and October 2026). */
const WINDOW = 'startDateTime=2026-08-25T00:00:00Z&endDateTime=2026-11-01T00:00:00Z';

/** Reads must succeed; the walk fails on the first that does not. */
function succeeding({ call: anyCall }: Graph) {
  return async (method: string, url: string, init: Parameters<Graph['call']>[2] = {}) => {
    const answer = await anyCall(method, url, init);
    if (answer.status >= 400) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  };
}

/** Every read of one mailbox's calendars, contacts and To Do. */
export async function walkMailboxItems(graph: Graph, userId: string) {
  const { all, get: anyGet } = graph;
  const call = succeeding(graph);
  const get = (url: string, headers?: Record<string, string>) => call('GET', url, headers ? { headers } : {});
  const u = `/users/${encodeURIComponent(userId)}`;
  const e = encodeURIComponent;

  // Calendars and events.
  const calendars = await all<Row>(`${u}/calendars`);
  await get(`${u}/calendar`);
  await all(`${u}/events`);
  await all(`${u}/calendar/events`);
  await all(`${u}/calendarView?${WINDOW}`);
  await all(`${u}/calendar/calendarView?${WINDOW}`);
  await all(`${u}/calendarView/delta?${WINDOW}`);
  // Times in another zone, bodies as text.
  await all(`${u}/calendarView?${WINDOW}`, {
    prefer: 'outlook.timezone="W. Europe Standard Time", outlook.body-content-type="text"',
  });
  for (const calendar of calendars) {
    const c = `${u}/calendars/${e(calendar.id)}`;
    await get(c);
    const events = await all<Row>(`${c}/events`);
    await all(`${c}/calendarView?${WINDOW}`);
    await all(`${c}/calendarView/delta?${WINDOW}`);
    for (const event of events) {
      await get(`${u}/events/${e(event.id)}`);
      if (event.type === 'seriesMaster') {
        await get(`${u}/events/${e(event.id)}?$select=subject,start,end,cancelledOccurrences`);
        await get(`${u}/events/${e(event.id)}?$expand=exceptionOccurrences`);
        for (const instance of await all<Row>(`${u}/events/${e(event.id)}/instances?${WINDOW}`)) {
          await get(`${u}/events/${e(instance.id)}`);
        }
      }
      if (event.hasAttachments) {
        for (const attachment of await all<Row>(`${u}/events/${e(event.id)}/attachments`)) {
          await get(`${u}/events/${e(event.id)}/attachments/${e(attachment.id)}`);
          await get(`${u}/events/${e(event.id)}/attachments/${e(attachment.id)}/$value`);
        }
      }
    }
  }
  // A calendar view without its window, and an unknown event: Outlook's 400 and 404.
  await anyGet(`${u}/calendarView`);
  await anyGet(`${u}/events/no-such-event`);

  // Contacts.
  const folders = await all<Row>(`${u}/contactFolders`);
  await all(`${u}/contacts`);
  for (const folder of folders) {
    const f = `${u}/contactFolders/${e(folder.id)}`;
    await get(f);
    for (const child of await all<Row>(`${f}/childFolders`)) {
      await get(`${u}/contactFolders/${e(child.id)}`);
      await all(`${u}/contactFolders/${e(child.id)}/contacts`);
    }
    const contacts = await all<Row>(`${f}/contacts`);
    await all(`${f}/contacts/delta`);
    for (const contact of contacts.slice(0, 2)) {
      await get(`${u}/contacts/${e(contact.id)}`);
      await get(`${f}/contacts/${e(contact.id)}`);
    }
  }

  // To Do.
  const lists = await all<Row>(`${u}/todo/lists`);
  await all(`${u}/todo/lists/delta`);
  for (const list of lists) {
    const l = `${u}/todo/lists/${e(list.id)}`;
    await get(l);
    const tasks = await all<Row>(`${l}/tasks`);
    await all(`${l}/tasks?$expand=checklistItems,linkedResources`);
    await all(`${l}/tasks/delta`);
    for (const task of tasks) {
      await get(`${l}/tasks/${e(task.id)}`);
      await all(`${l}/tasks/${e(task.id)}/checklistItems`);
      await all(`${l}/tasks/${e(task.id)}/linkedResources`);
    }
  }
}

/** The writes a restore of a mailbox's calendars, contacts and tasks makes. */
export async function writeMailboxItems(graph: Graph, userId: string) {
  const call = succeeding(graph);
  const json = { 'content-type': 'application/json' };
  const post = (url: string, body: unknown) => call('POST', url, { body: JSON.stringify(body), headers: json });
  const u = `/users/${encodeURIComponent(userId)}`;
  const e = encodeURIComponent;

  const calendar = (await post(`${u}/calendars`, { name: 'Restored calendar' })).body as Row;
  const event = {
    subject: 'Restored meeting',
    body: { contentType: 'HTML', content: '<p>Agenda</p>' },
    start: { dateTime: '2026-09-15T12:00:00', timeZone: 'Pacific Standard Time' },
    end: { dateTime: '2026-09-15T13:00:00', timeZone: 'Pacific Standard Time' },
    location: { displayName: 'Room 2' },
    attendees: [{ emailAddress: { address: 'someone@fabrikam.example', name: 'Someone' }, type: 'required' }],
  };
  const created = (await post(`${u}/calendars/${e(calendar.id)}/events`, event)).body as Row;
  await post(`${u}/events`, { ...event, subject: 'Restored into the default calendar' });
  const { id: seriesId } = (
    await post(`${u}/calendar/events`, {
      ...event,
      subject: 'Restored series',
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['tuesday'] },
        range: { type: 'numbered', startDate: '2026-09-15', numberOfOccurrences: 3 },
      },
    })
  ).body as Row;
  const patch = (url: string, body: unknown) => call('PATCH', url, { body: JSON.stringify(body), headers: json });
  await patch(`${u}/events/${e(created.id)}`, { subject: 'Restored meeting, overwritten', categories: ['Red'] });
  const series = (
    await call(
      'GET',
      `${u}/events/${e(seriesId)}/instances?startDateTime=2026-09-01T00:00:00Z&endDateTime=2026-10-31T00:00:00Z`,
    )
  ).body as { value: Row[] };
  const [moved, cancelled] = series.value;
  await patch(`${u}/events/${e(moved?.id ?? '')}`, {
    subject: 'Moved occurrence',
    start: { dateTime: '2026-09-15T15:00:00', timeZone: 'Pacific Standard Time' },
    end: { dateTime: '2026-09-15T16:00:00', timeZone: 'Pacific Standard Time' },
  });
  await call('DELETE', `${u}/events/${e(cancelled?.id ?? '')}`);
  const gone = (await post(`${u}/events`, { ...event, subject: 'Deleted again' })).body as Row;
  await call('DELETE', `${u}/events/${e(gone.id)}`);
  await post(`${u}/events/${e(created.id)}/attachments`, {
    '@odata.type': '#microsoft.graph.fileAttachment',
    name: 'agenda.txt',
    contentType: 'text/plain',
    contentBytes: Buffer.from('agenda').toString('base64'),
  });

  const folder = (await post(`${u}/contactFolders`, { displayName: 'Restored contacts' })).body as Row;
  await post(`${u}/contactFolders/${e(folder.id)}/childFolders`, { displayName: 'Below' });
  const contact = {
    givenName: 'Pavel',
    surname: 'Bansky',
    emailAddresses: [{ address: 'pavelb@fabrikam.onmicrosoft.com', name: 'Pavel Bansky' }],
    businessPhones: ['+1 732 555 0102'],
  };
  const inFolder = (await post(`${u}/contactFolders/${e(folder.id)}/contacts`, contact)).body as Row;
  const inDefault = (await post(`${u}/contacts`, contact)).body as Row;
  await patch(`${u}/contactFolders/${e(folder.id)}/contacts/${e(inFolder.id)}`, { jobTitle: 'Engineer' });
  await patch(`${u}/contacts/${e(inDefault.id)}`, { mobilePhone: '+1 425 555 0100' });

  const list = (await post(`${u}/todo/lists`, { displayName: 'Restored list' })).body as Row;
  const task = (
    await post(`${u}/todo/lists/${e(list.id)}/tasks`, {
      title: 'A new task',
      linkedResources: [{ webUrl: 'http://microsoft.com', applicationName: 'Microsoft', displayName: 'Microsoft' }],
      checklistItems: [{ displayName: 'First step' }],
    })
  ).body as Row;
  const t = `${u}/todo/lists/${e(list.id)}/tasks/${e(task.id)}`;
  await patch(t, { status: 'inProgress', dueDateTime: { dateTime: '2026-10-01T00:00:00', timeZone: 'UTC' } });
  const step = (await post(`${t}/checklistItems`, { displayName: 'Second step', isChecked: true })).body as Row;
  await call('DELETE', `${t}/checklistItems/${e(step.id)}`);
}
