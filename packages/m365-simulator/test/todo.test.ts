/**
 * Microsoft To Do as Graph answers it: the lists (the default "Tasks" list, others), their tasks with
 * status, importance, due date, reminder, recurrence, checklist items and linked resources (expanded,
 * or on their own paths), list and task delta across changes (deleted tasks as `@removed`), the writes
 * a restore makes, and the permissions (Tasks.Read.All for an app, the user's own tasks only for a
 * signed-in user). Microsoft's documented examples serve as fixtures where they fit.
 */
import { describe, expect, it } from 'vitest';
import { evolve, expireDeltaTokens } from '../src/model.js';
import type { GraphAccess } from '../src/permissions.js';
import { graphOver } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };
type Page = { value: Row[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };

const json = { 'content-type': 'application/json' };

describe('To Do', () => {
  const graph = graphOver({ users: 3, extraTaskLists: 1, tasksPerList: 4 }, 3);
  const { tenant, get, call, all } = graph;
  const [user, other] = tenant.users;
  if (!user || !other) throw new Error('no users');
  const base = `/users/${user.id}/todo/lists`;
  const tasksList = () =>
    user.taskLists.find((l) => l.wellknownListName === 'defaultList') ?? expect.unreachable('Tasks');

  /** A delta round to its end. */
  async function round(start: string) {
    const rows: Row[] = [];
    let next: string | undefined = start;
    let deltaLink = '';
    while (next) {
      const answer = await get(next);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      rows.push(...(answer.body as Page).value);
      next = (answer.body as Page)['@odata.nextLink'];
      deltaLink = (answer.body as Page)['@odata.deltaLink'] ?? deltaLink;
    }
    return { rows, deltaLink };
  }

  it("lists the default Tasks list and the others as Microsoft's example shows them", async () => {
    // learn.microsoft.com, List lists: the documented answer's shape.
    const documented = [
      {
        id: 'AAMkADIyAAAAABrJAAA=',
        displayName: 'Tasks',
        isOwner: true,
        isShared: false,
        wellknownListName: 'defaultList',
      },
      {
        id: 'AAMkADIyAAAEFTTrJAAA=',
        displayName: 'Monthly Tasks',
        isOwner: true,
        isShared: false,
        wellknownListName: 'none',
      },
    ];
    const lists = await all<Row>(base);
    expect(lists).toHaveLength(2);
    const strip = ({ id: _id, '@odata.etag': _etag, ...rest }: Row) => rest;
    const [tasks, monthly] = documented.map(strip);
    // The second list is this tenant's own, shared: its name and isShared differ from the example's.
    expect(lists.map(strip)).toEqual([tasks, { ...monthly, displayName: 'Project Falcon', isShared: true }]);
    expect((await get(`${base}/${lists[0]?.id}`)).body).toMatchObject({ displayName: 'Tasks' });
    expect((await get(`${base}/no-such-list`)).status).toBe(404);
  });

  it('answers tasks with status, importance, dates, recurrence, and checklist items and linked resources', async () => {
    const list = tasksList();
    const tasks = await all<Row>(`${base}/${list.id}/tasks`);
    expect(tasks).toHaveLength(4);
    expect(new Set(tasks.map((t) => t.status))).toEqual(new Set(['notStarted', 'inProgress', 'completed']));
    for (const task of tasks) {
      expect(task).toMatchObject({
        title: expect.any(String),
        body: { contentType: 'text' },
        importance: expect.any(String),
      });
      expect(task).not.toHaveProperty('checklistItems');
    }
    const recurring = tasks.find((t) => t.recurrence) ?? expect.unreachable('a repeating task');
    expect(recurring.recurrence).toMatchObject({ pattern: { type: 'weekly', interval: 1 }, range: { type: 'noEnd' } });
    expect(recurring.dueDateTime).toEqual({ dateTime: expect.stringMatching(/T00:00:00\.0000000$/), timeZone: 'UTC' });
    const completed = tasks.find((t) => t.status === 'completed');
    expect(completed?.completedDateTime).toMatchObject({ timeZone: 'UTC' });
    const withReminder = tasks.find((t) => t.reminderDateTime);
    expect(withReminder?.isReminderOn).toBe(true);
    // Expanded, or each on its own path.
    const expanded = await all<Row>(`${base}/${list.id}/tasks?$expand=checklistItems,linkedResources`);
    const checked = expanded.find((t) => (t.checklistItems as Row[]).length > 0) ?? expect.unreachable('a checklist');
    const items = await all<Row>(`${base}/${list.id}/tasks/${checked.id}/checklistItems`);
    expect(items).toEqual(checked.checklistItems);
    expect(items[0]).toMatchObject({
      displayName: expect.any(String),
      isChecked: expect.any(Boolean),
      createdDateTime: expect.any(String),
    });
    const linked = expanded.find((t) => (t.linkedResources as Row[]).length > 0) ?? expect.unreachable('a link');
    expect(await all(`${base}/${list.id}/tasks/${linked.id}/linkedResources`)).toEqual(linked.linkedResources);
    expect((linked.linkedResources as Row[])[0]).toMatchObject({
      applicationName: 'Outlook',
      webUrl: expect.stringMatching(/^https:/),
    });
    const one = await get(`${base}/${list.id}/tasks/${checked.id}?$expand=checklistItems`);
    expect(one.body.checklistItems).toEqual(checked.checklistItems);
    // A task is found in its own list only.
    const second = user.taskLists.find((l) => l !== list);
    expect((await get(`${base}/${second?.id}/tasks/${checked.id}`)).status).toBe(404);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it("creates lists and tasks as Microsoft's examples do, what was written coming back", async () => {
    const list = await call('POST', base, { body: JSON.stringify({ displayName: 'Travel items' }), headers: json });
    expect(list.status).toBe(201);
    expect(list.body).toMatchObject({
      displayName: 'Travel items',
      isOwner: true,
      isShared: false,
      wellknownListName: 'none',
    });
    // learn.microsoft.com, Create todoTask: the request as documented.
    const created = await call('POST', `${base}/${list.body.id}/tasks`, {
      body: JSON.stringify({
        title: 'A new task',
        linkedResources: [{ webUrl: 'http://microsoft.com', applicationName: 'Microsoft', displayName: 'Microsoft' }],
      }),
      headers: json,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      isReminderOn: false,
      status: 'notStarted',
      title: 'A new task',
      body: { content: '', contentType: 'text' },
      linkedResources: [
        {
          id: expect.any(String),
          webUrl: 'http://microsoft.com',
          applicationName: 'Microsoft',
          displayName: 'Microsoft',
        },
      ],
    });
    expect(created.body).not.toHaveProperty('checklistItems');
    // A task as a restore writes it back: every field it had.
    const whole = {
      title: 'Renew the licence',
      body: { content: 'Before the audit.', contentType: 'text' },
      status: 'inProgress',
      importance: 'high',
      isReminderOn: true,
      reminderDateTime: { dateTime: '2026-10-01T08:00:00.0000000', timeZone: 'W. Europe Standard Time' },
      dueDateTime: { dateTime: '2026-10-02T00:00:00.0000000', timeZone: 'UTC' },
      startDateTime: { dateTime: '2026-09-25T00:00:00.0000000', timeZone: 'UTC' },
      categories: ['Important'],
      recurrence: {
        pattern: { type: 'absoluteMonthly', interval: 1, dayOfMonth: 2 },
        range: { type: 'noEnd', startDate: '2026-10-02' },
      },
      checklistItems: [{ displayName: 'Ask finance', isChecked: true }, { displayName: 'Sign' }],
    };
    const restored = await call('POST', `${base}/${list.body.id}/tasks`, {
      body: JSON.stringify(whole),
      headers: json,
    });
    const { checklistItems, recurrence, ...plain } = whole;
    expect(restored.body).toMatchObject({
      ...plain,
      recurrence: {
        pattern: { type: 'absoluteMonthly', interval: 1, dayOfMonth: 2 },
        range: { type: 'noEnd', startDate: '2026-10-02' },
      },
      checklistItems: checklistItems.map((c) => ({ displayName: c.displayName, isChecked: c.isChecked === true })),
    });
    expect(recurrence.pattern.type).toBe('absoluteMonthly');
    for (const wrong of [
      { status: 'done' },
      { importance: 'urgent' },
      { dueDateTime: { dateTime: 'soon', timeZone: 'UTC' } },
    ]) {
      const answer = await call('POST', `${base}/${list.body.id}/tasks`, {
        body: JSON.stringify({ title: 'x', ...wrong }),
        headers: json,
      });
      expect(answer.status, JSON.stringify(wrong)).toBe(400);
    }
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('updates a task, null clearing a date, and adds and deletes its checklist items', async () => {
    const send = (method: string, url: string, body?: unknown) =>
      call(
        method,
        url,
        body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      );
    const list = `${base}/${tasksList().id}/tasks`;
    const made = await send('POST', list, {
      title: 'Draft',
      dueDateTime: { dateTime: '2026-10-01T00:00:00', timeZone: 'UTC' },
      checklistItems: [{ displayName: 'First' }],
    });
    const task = `${list}/${made.body.id}`;
    const updated = await send('PATCH', task, {
      title: 'Final',
      status: 'completed',
      dueDateTime: null,
      categories: ['Red'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Final', status: 'completed', categories: ['Red'] });
    expect(updated.body.dueDateTime).toBeUndefined();
    expect((await send('PATCH', task, { status: 'finished' })).status).toBe(400);
    const step = await send('POST', `${task}/checklistItems`, { displayName: 'Second', isChecked: true });
    expect(step.status).toBe(201);
    expect(step.body).toMatchObject({ displayName: 'Second', isChecked: true });
    const steps = async () => ((await get(`${task}/checklistItems`)).body.value as Row[]).map((s) => s.displayName);
    expect(await steps()).toEqual(['First', 'Second']);
    expect((await send('DELETE', `${task}/checklistItems/${step.body.id}`)).status).toBe(204);
    expect((await send('DELETE', `${task}/checklistItems/${step.body.id}`)).status).toBe(404);
    expect(await steps()).toEqual(['First']);
  });

  it('tracks tasks and lists by delta: the new, completed and deleted ones after a change', async () => {
    const list = tasksList();
    const tasks = await round(`${base}/${list.id}/tasks/delta`);
    expect(tasks.rows.map((r) => r.id).sort()).toEqual(
      [...user.tasks.values()]
        .filter((t) => t.listId === list.id && !t.deleted)
        .map((t) => t.id)
        .sort(),
    );
    expect(tasks.deltaLink).toMatch(/\/tasks\/delta\?\$deltatoken=/);
    const lists = await round(`${base}/delta`);
    expect(lists.rows.map((r) => r.displayName)).toEqual(user.taskLists.filter((l) => !l.deleted).map((l) => l.name));
    expect((await round(tasks.deltaLink)).rows).toEqual([]);

    const change = evolve(tenant, { newTasks: 3, editedTasks: 9, deletedTasks: 6, newTaskLists: 3 });
    const changed = [...user.tasks.values()].filter((t) => t.listId === list.id && t.changed === change);
    expect(changed.length).toBeGreaterThan(0);
    const next = await round(tasks.deltaLink);
    expect(next.rows.map((r) => r.id).sort()).toEqual(changed.map((t) => t.id).sort());
    for (const task of changed) {
      const row = next.rows.find((r) => r.id === task.id);
      if (task.deleted)
        expect(row).toEqual({
          '@odata.type': '#microsoft.graph.todoTask',
          id: task.id,
          '@removed': { reason: 'deleted' },
        });
      else expect(row).toMatchObject({ title: task.title, status: task.status });
    }
    const newLists = await round(lists.deltaLink);
    expect(newLists.rows.map((r) => r.id)).toEqual(user.taskLists.filter((l) => l.changed === change).map((l) => l.id));
    expireDeltaTokens(tenant);
    const expired = await get(next.deltaLink);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'syncStateNotFound' });
    expect((await get(`${base}/${list.id}/tasks/delta()`)).status).toBe(200);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('reads with Tasks.Read.All (or Tasks.ReadWrite.All) and writes with Tasks.ReadWrite.All; a user only their own', async () => {
    const as = (access: GraphAccess, method: string, path: string, body?: unknown) =>
      call(method, path, { access, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });
    const app = (...roles: string[]): GraphAccess => ({ kind: 'application', roles });
    const me = (...scopes: string[]): GraphAccess => ({ kind: 'delegated', userId: user.id, scopes });
    expect((await as(app('Tasks.Read.All'), 'GET', base)).status).toBe(200);
    expect((await as(app('Tasks.ReadWrite.All'), 'GET', base)).status).toBe(200);
    const refused = await as(app('Mail.ReadWrite', 'Calendars.ReadWrite'), 'GET', base);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ErrorAccessDenied' });
    expect((await as(app('Tasks.Read.All'), 'POST', base, { displayName: 'x' })).status).toBe(403);
    expect((await as(app('Tasks.ReadWrite.All'), 'POST', base, { displayName: 'x' })).status).toBe(201);
    expect((await as(me('Tasks.Read'), 'GET', '/me/todo/lists')).status).toBe(200);
    expect((await as(me('Tasks.ReadWrite'), 'GET', `/users/${other.id}/todo/lists`)).status).toBe(403);
    expect((await as(me('Tasks.Read'), 'POST', '/me/todo/lists', { displayName: 'x' })).status).toBe(403);
  });
});
