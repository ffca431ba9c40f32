/**
 * Microsoft To Do as Graph serves it below a user's `todo`: the task lists (the default "Tasks" with
 * wellknownListName defaultList, and others), list delta, a list's tasks (their checklist items and
 * linked resources with `$expand`, or on their own paths), one task, task delta per list (deleted
 * tasks and lists as `@removed`), and the writes a restore makes (lists, tasks with their checklist
 * items and linked resources, a task updated, a checklist item added or deleted).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DateTimeTimeZone, SimChecklistItem, SimLinkedResource, SimTask, SimTaskList } from '../mailbox-items.js';
import type { SimUser } from '../model.js';
import { readRecurrence } from './calendars.js';
import { onMailbox } from './mail.js';
import { delta, graphError, jsonBody, type ListOptions, page, type SimResponse } from './odata.js';
import type { GraphCall, GraphRoute, RouteOptions } from './router.js';
import { ianaZone, toInstant } from './timezones.js';

/** To Do pages lists and tasks up to 1,000 as Outlook does. */
const OUTLOOK: ListOptions = { max: 1000 };

const notFound = () => graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

const etagOf = (id: string, changed: number) =>
  `W/"${createHash('sha256').update(`todo:${id}:${changed}`).digest('base64').slice(0, 24)}"`;

const listJson = (l: SimTaskList) => ({
  '@odata.etag': etagOf(l.id, l.changed),
  displayName: l.name,
  isOwner: true,
  isShared: l.isShared,
  wellknownListName: l.wellknownListName,
  id: l.id,
});

const checklistJson = (c: SimChecklistItem) => ({
  displayName: c.displayName,
  createdDateTime: c.created,
  checkedDateTime: c.checked ?? null,
  isChecked: c.isChecked,
  id: c.id,
});

const linkedJson = (r: SimLinkedResource) => ({
  id: r.id,
  webUrl: r.webUrl,
  applicationName: r.applicationName,
  displayName: r.displayName,
  externalId: r.externalId ?? null,
});

/** Which navigations a request expands (`$expand=checklistItems,linkedResources`). */
function expanded(call: GraphCall) {
  const expand = (call.request.query.get('$expand') ?? '').split(',').map((s) => s.trim().toLowerCase());
  return { checklistItems: expand.includes('checklistitems'), linkedResources: expand.includes('linkedresources') };
}

function taskJson(t: SimTask, expand: { checklistItems: boolean; linkedResources: boolean }) {
  return {
    '@odata.etag': etagOf(t.id, t.changed),
    importance: t.importance,
    isReminderOn: t.isReminderOn,
    status: t.status,
    title: t.title,
    createdDateTime: t.created,
    lastModifiedDateTime: t.modified,
    hasAttachments: false,
    categories: t.categories,
    id: t.id,
    body: t.body,
    bodyLastModifiedDateTime: t.bodyModified,
    ...(t.dueDateTime ? { dueDateTime: t.dueDateTime } : {}),
    ...(t.startDateTime ? { startDateTime: t.startDateTime } : {}),
    ...(t.reminderDateTime ? { reminderDateTime: t.reminderDateTime } : {}),
    ...(t.completedDateTime ? { completedDateTime: t.completedDateTime } : {}),
    ...(t.recurrence ? { recurrence: t.recurrence } : {}),
    ...(expand.checklistItems ? { checklistItems: t.checklistItems.map(checklistJson) } : {}),
    ...(expand.linkedResources ? { linkedResources: t.linkedResources.map(linkedJson) } : {}),
  };
}

const removedJson = (type: 'todoTask' | 'todoTaskList', id: string) => ({
  '@odata.type': `#microsoft.graph.${type}`,
  id,
  '@removed': { reason: 'deleted' },
});

/** A route on one list of the path's user (`:list`). */
const onList = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser, list: SimTaskList) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  onMailbox(
    method,
    patterns,
    (call, user) => {
      const list = user.taskLists.find((l) => l.id === call.params.list && !l.deleted);
      return list ? handle(call, user, list) : notFound();
    },
    options,
  );

/** A route on one task of a list (`:task`). */
const onTask = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, task: SimTask) => SimResponse,
): GraphRoute[] =>
  onList(method, patterns, (call, user, list) => {
    const task = user.tasks.get(call.params.task ?? '');
    return task && task.listId === list.id && !task.deleted ? handle(call, task) : notFound();
  });

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const invalid = (message: string) => graphError(400, 'invalidRequest', message);
const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';

function readJson(call: GraphCall): Json | SimResponse {
  try {
    const body = jsonBody<Json>(call.request);
    return isObject(body) ? body : graphError(400, 'BadRequest', 'The request body is not a JSON object.');
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
}

const DATE_NAMES = ['dueDateTime', 'startDateTime', 'reminderDateTime', 'completedDateTime'] as const;
type DateName = (typeof DATE_NAMES)[number];

/** A checklist item's or linked resource's id: a GUID, as To Do gives them. */
const newItemId = () =>
  randomBytes(16)
    .toString('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

const STATUSES = ['notStarted', 'inProgress', 'completed', 'waitingOnOthers', 'deferred'] as const;
const IMPORTANCES = ['low', 'normal', 'high'] as const;

/** A dateTimeTimeZone of a request, kept as given once it reads as a date-time in a known zone. */
function readDateTime(value: unknown, name: string): DateTimeTimeZone | SimResponse | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || typeof value.dateTime !== 'string') return invalid(`${name} must be a dateTimeTimeZone.`);
  const timeZone = str(value.timeZone, 'UTC') || 'UTC';
  if (!ianaZone(timeZone) || toInstant(value.dateTime, timeZone) === undefined) {
    return invalid(`${name} is not a date-time in a known time zone.`);
  }
  const dateTime = /\.\d+$/.test(value.dateTime) ? value.dateTime : `${value.dateTime.slice(0, 19)}.0000000`;
  return { dateTime, timeZone };
}

function createTask(call: GraphCall, user: SimUser, list: SimTaskList): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  if (body.status !== undefined && !STATUSES.some((s) => s === body.status)) {
    return invalid(`'${str(body.status)}' is not a task status.`);
  }
  if (body.importance !== undefined && !IMPORTANCES.some((i) => i === body.importance)) {
    return invalid(`'${str(body.importance)}' is not an importance.`);
  }
  const dates: Record<string, DateTimeTimeZone | undefined> = {};
  for (const name of ['dueDateTime', 'startDateTime', 'reminderDateTime', 'completedDateTime']) {
    const value = readDateTime(body[name], name);
    if (isAnswer(value)) return value;
    dates[name] = value;
  }
  const due = dates.dueDateTime ?? dates.startDateTime;
  const recurrence = readRecurrence(
    body.recurrence,
    (due && toInstant(due.dateTime, due.timeZone)) || Date.now(),
    due?.timeZone ?? 'UTC',
  );
  if (isAnswer(recurrence)) return recurrence;
  const checklist = Array.isArray(body.checklistItems) ? body.checklistItems.filter(isObject) : [];
  const links = Array.isArray(body.linkedResources) ? body.linkedResources.filter(isObject) : [];
  call.tenant.clock += 1;
  const now = new Date().toISOString();
  const itemBody = isObject(body.body) ? body.body : {};
  const task: SimTask = {
    id: `tk-${randomBytes(12).toString('hex')}`,
    listId: list.id,
    title: str(body.title),
    body: {
      contentType: str(itemBody.contentType).toLowerCase() === 'html' ? 'html' : 'text',
      content: str(itemBody.content),
    },
    status: STATUSES.find((s) => s === body.status) ?? 'notStarted',
    importance: IMPORTANCES.find((i) => i === body.importance) ?? 'normal',
    isReminderOn:
      body.isReminderOn === true || (body.isReminderOn === undefined && dates.reminderDateTime !== undefined),
    ...(dates.dueDateTime ? { dueDateTime: dates.dueDateTime } : {}),
    ...(dates.startDateTime ? { startDateTime: dates.startDateTime } : {}),
    ...(dates.reminderDateTime ? { reminderDateTime: dates.reminderDateTime } : {}),
    ...(dates.completedDateTime ? { completedDateTime: dates.completedDateTime } : {}),
    ...(recurrence ? { recurrence } : {}),
    categories: Array.isArray(body.categories) ? body.categories.filter((c): c is string => typeof c === 'string') : [],
    checklistItems: checklist.map((c) => ({
      id: newItemId(),
      displayName: str(c.displayName),
      isChecked: c.isChecked === true,
      created: now,
      ...(c.isChecked === true ? { checked: now } : {}),
    })),
    linkedResources: links.map((r) => ({
      id: newItemId(),
      applicationName: str(r.applicationName),
      displayName: str(r.displayName),
      ...(typeof r.externalId === 'string' ? { externalId: r.externalId } : {}),
      webUrl: str(r.webUrl),
    })),
    created: now,
    modified: now,
    bodyModified: now,
    changed: call.tenant.clock,
    deleted: false,
  };
  user.tasks.set(task.id, task);
  // As documented, what was written with the task comes back with it.
  return {
    status: 201,
    json: taskJson(task, { checklistItems: checklist.length > 0, linkedResources: links.length > 0 }),
  };
}

/** PATCH a task: the properties given replace its own (null clears a date or the recurrence). */
function updateTask(call: GraphCall, task: SimTask): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  if (body.status !== undefined && !STATUSES.some((s) => s === body.status)) {
    return invalid(`'${str(body.status)}' is not a task status.`);
  }
  if (body.importance !== undefined && !IMPORTANCES.some((i) => i === body.importance)) {
    return invalid(`'${str(body.importance)}' is not an importance.`);
  }
  const dates: Partial<Record<DateName, DateTimeTimeZone | null>> = {};
  for (const name of DATE_NAMES) {
    if (body[name] === undefined) continue;
    const value = readDateTime(body[name], name);
    if (isAnswer(value)) return value;
    dates[name] = value ?? null;
  }
  const due = dates.dueDateTime ?? task.dueDateTime;
  const recurrence =
    body.recurrence === undefined
      ? undefined
      : readRecurrence(
          body.recurrence,
          (due && toInstant(due.dateTime, due.timeZone)) || Date.now(),
          due?.timeZone ?? 'UTC',
        );
  if (isAnswer(recurrence)) return recurrence;
  const now = new Date().toISOString();
  if (typeof body.title === 'string') task.title = body.title;
  if (isObject(body.body)) {
    task.body = {
      contentType: str(body.body.contentType).toLowerCase() === 'html' ? 'html' : 'text',
      content: str(body.body.content),
    };
    task.bodyModified = now;
  }
  const status = STATUSES.find((s) => s === body.status);
  if (status) task.status = status;
  const importance = IMPORTANCES.find((i) => i === body.importance);
  if (importance) task.importance = importance;
  if (typeof body.isReminderOn === 'boolean') task.isReminderOn = body.isReminderOn;
  for (const [name, value] of Object.entries(dates) as [DateName, DateTimeTimeZone | null][]) {
    if (value) task[name] = value;
    else delete task[name];
  }
  if (body.recurrence === null) delete task.recurrence;
  else if (recurrence) task.recurrence = recurrence;
  if (Array.isArray(body.categories))
    task.categories = body.categories.filter((c): c is string => typeof c === 'string');
  call.tenant.clock += 1;
  task.modified = now;
  task.changed = call.tenant.clock;
  return { status: 200, json: taskJson(task, { checklistItems: false, linkedResources: false }) };
}

/** A new checklist item (a step) of a task. */
function addChecklistItem(call: GraphCall, task: SimTask): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  const displayName = str(body.displayName);
  if (!displayName) return invalid('A checklist item needs a displayName.');
  const now = new Date().toISOString();
  const item: SimChecklistItem = {
    id: newItemId(),
    displayName,
    isChecked: body.isChecked === true,
    created: now,
    ...(body.isChecked === true ? { checked: now } : {}),
  };
  task.checklistItems.push(item);
  call.tenant.clock += 1;
  task.modified = now;
  task.changed = call.tenant.clock;
  return { status: 201, json: checklistJson(item) };
}

function deleteChecklistItem(call: GraphCall, task: SimTask): SimResponse {
  const at = task.checklistItems.findIndex((c) => c.id === call.params.item);
  if (at < 0) return notFound();
  task.checklistItems.splice(at, 1);
  call.tenant.clock += 1;
  task.modified = new Date().toISOString();
  task.changed = call.tenant.clock;
  return { status: 204 };
}

function createList(call: GraphCall, user: SimUser): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  const name = str(body.displayName).trim();
  if (!name) return invalid('A list needs a displayName.');
  call.tenant.clock += 1;
  const list: SimTaskList = {
    id: `tl-${randomBytes(12).toString('hex')}`,
    name,
    wellknownListName: 'none',
    isShared: false,
    changed: call.tenant.clock,
    deleted: false,
  };
  user.taskLists.push(list);
  return { status: 201, json: listJson(list) };
}

export const todoRoutes: GraphRoute[] = [
  ...onMailbox(
    'GET',
    'users/:user/todo/lists/delta',
    ({ context, request, tenant }, user) =>
      delta(context, request, tenant, {
        resource: `todolists:${user.id}`,
        style: 'outlook',
        max: 1000,
        changes: (after) => user.taskLists.filter((l) => (after < 0 ? !l.deleted : l.changed > after)),
        map: (l) => (l.deleted ? removedJson('todoTaskList', l.id) : listJson(l)),
      }),
    { context: 'Collection(microsoft.graph.todoTaskList)', functionParameters: [] },
  ),
  ...onMailbox('GET', 'users/:user/todo/lists', ({ context, request }, user) =>
    page(
      context,
      request,
      user.taskLists.filter((l) => !l.deleted),
      listJson,
      OUTLOOK,
    ),
  ),
  ...onList('GET', 'users/:user/todo/lists/:list', (_call, _user, list) => ({ status: 200, json: listJson(list) })),
  ...onList(
    'GET',
    'users/:user/todo/lists/:list/tasks/delta',
    (call, user, list) => {
      const expand = expanded(call);
      return delta(call.context, call.request, call.tenant, {
        resource: `tasks:${user.id}:${list.id}`,
        style: 'outlook',
        max: 1000,
        changes: (after) =>
          [...user.tasks.values()].filter((t) => t.listId === list.id && (after < 0 ? !t.deleted : t.changed > after)),
        map: (t) => (t.deleted ? removedJson('todoTask', t.id) : taskJson(t, expand)),
      });
    },
    { context: 'Collection(microsoft.graph.todoTask)', functionParameters: [] },
  ),
  ...onList('GET', 'users/:user/todo/lists/:list/tasks', (call, user, list) => {
    const expand = expanded(call);
    return page(
      call.context,
      call.request,
      [...user.tasks.values()].filter((t) => t.listId === list.id && !t.deleted),
      (t) => taskJson(t, expand),
      OUTLOOK,
    );
  }),
  ...onTask('GET', 'users/:user/todo/lists/:list/tasks/:task', (call, task) => ({
    status: 200,
    json: taskJson(task, expanded(call)),
  })),
  ...onTask('GET', 'users/:user/todo/lists/:list/tasks/:task/checklistItems', ({ context, request }, task) =>
    page(context, request, task.checklistItems, checklistJson, OUTLOOK),
  ),
  ...onTask('GET', 'users/:user/todo/lists/:list/tasks/:task/linkedResources', ({ context, request }, task) =>
    page(context, request, task.linkedResources, linkedJson, OUTLOOK),
  ),
  ...onMailbox('POST', 'users/:user/todo/lists', createList),
  ...onList('POST', 'users/:user/todo/lists/:list/tasks', createTask),
  ...onTask('PATCH', 'users/:user/todo/lists/:list/tasks/:task', updateTask),
  ...onTask('POST', 'users/:user/todo/lists/:list/tasks/:task/checklistItems', addChecklistItem),
  ...onTask('DELETE', 'users/:user/todo/lists/:list/tasks/:task/checklistItems/:item', deleteChecklistItem),
];
