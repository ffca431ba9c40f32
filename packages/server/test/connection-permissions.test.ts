/**
 * The permissions a real tenant must grant, per area (src/m365/permissions.ts): the README's table is
 * that module; each area's least set lets the engine's own Graph calls of the area through the
 * simulator, which enforces the application permissions Microsoft documents per call, and withdrawing
 * any one of them makes Graph refuse one of those calls; the connection test reads a fresh token's
 * roles and names what is missing with the areas needing it.
 */
import { readFileSync } from 'node:fs';
import {
  ALL_APPLICATION_PERMISSIONS,
  ROUTE_PERMISSIONS,
  type RunningSimulator,
  type SimTenant,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import { type ConnectionTestResult, errorTexts, type PermissionArea } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GraphApi, GraphError } from '../src/m365/graph-api.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { AREA_PERMISSIONS, grants, missingPermissions, SATISFIED_BY, tokenRoles } from '../src/m365/permissions.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

const README = new URL('../../../README.md', import.meta.url);

/** The README's names of the areas. */
const README_AREAS: Record<string, PermissionArea> = {
  Backup: 'backup',
  Restore: 'restore',
  'Mail archive': 'mailArchive',
  'Teams archive': 'teamsArchive',
  Chats: 'chats',
  'Clean-up (old file versions)': 'cleanup',
  'User sync': 'userSync',
  'Connection test': 'connectionTest',
};

/** The rows of the README's table in "Permissions a real tenant must grant": area and its permissions. */
function readmeTable(): Record<string, string[]> {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n## Permissions a real tenant must grant\n');
  expect(start).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + 1);
  const rows = text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Area '));
  return Object.fromEntries(
    rows.map((row) => {
      const [area = '', permissions = ''] = row
        .split('|')
        .map((cell) => cell.trim())
        .slice(1);
      return [area, permissions.split(',').map((p) => p.trim())];
    }),
  );
}

describe('the permissions table', () => {
  it('is the README’s, area by area', () => {
    const table = readmeTable();
    expect(Object.keys(table).sort()).toEqual(Object.keys(README_AREAS).sort());
    for (const [name, permissions] of Object.entries(table)) {
      const area = README_AREAS[name] as PermissionArea;
      expect(permissions, name).toEqual([...AREA_PERMISSIONS[area]]);
    }
  });

  it('takes a higher privileged permission only where Microsoft lists it beside every call of the lower one', () => {
    const routes = Object.entries(ROUTE_PERMISSIONS);
    for (const permission of new Set(Object.values(AREA_PERMISSIONS).flat())) {
      const calls = routes.filter(([, rule]) => rule.anyOf.includes(permission));
      expect(calls.length, `${permission} serves a Graph call`).toBeGreaterThan(0);
      for (const higher of SATISFIED_BY[permission] ?? []) {
        for (const [route, rule] of calls)
          expect(rule.anyOf, `${higher} for ${permission} on ${route}`).toContain(higher);
      }
    }
  });

  it('reads a token’s roles, and names what they lack with the areas needing it', () => {
    const jwt = (claims: unknown) =>
      `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature-not-checked`;
    expect(tokenRoles(jwt({ roles: ['User.Read.All', 7] }))).toEqual(['User.Read.All']);
    expect(tokenRoles(jwt({ appid: 'x' }))).toEqual([]);
    expect(tokenRoles('not-a-jwt')).toBeUndefined();
    expect(tokenRoles('a.%%%.c')).toBeUndefined();
    expect(grants(['Sites.ReadWrite.All'], 'Files.ReadWrite.All')).toBe(true);
    expect(grants(['Directory.Read.All'], 'User.Read.All')).toBe(true);
    expect(grants(['Mail.Read'], 'Mail.ReadWrite')).toBe(false);
    expect(missingPermissions([...ALL_APPLICATION_PERMISSIONS])).toEqual([]);
    expect(missingPermissions(['User.Read.All', 'Sites.ReadWrite.All', 'Group.Read.All', 'Mail.ReadWrite'])).toEqual([
      { permission: 'Calendars.ReadWrite', areas: ['restore'] },
      { permission: 'Contacts.ReadWrite', areas: ['restore'] },
      { permission: 'Tasks.ReadWrite.All', areas: ['restore'] },
      { permission: 'Calendars.Read', areas: ['mailArchive'] },
      { permission: 'Contacts.Read', areas: ['mailArchive'] },
      { permission: 'Tasks.Read.All', areas: ['mailArchive'] },
      { permission: 'Chat.Read.All', areas: ['chats'] },
      { permission: 'Organization.Read.All', areas: ['connectionTest'] },
    ]);
    expect(grants(['Directory.Read.All'], 'Organization.Read.All')).toBe(true);
    expect(missingPermissions([]).find((m) => m.permission === 'User.Read.All')?.areas).toEqual([
      'backup',
      'mailArchive',
      'userSync',
      'connectionTest',
    ]);
  });
});

const drain = async (items: AsyncIterable<unknown>) => {
  for await (const _ of items);
};
const MIME = 'From: a@contoso.example\r\nTo: b@contoso.example\r\nSubject: Restored\r\n\r\nHello\r\n';

/** The Graph calls each area makes, through the engine's client, over the simulated tenant. */
const AREA_CALLS: Record<PermissionArea, (graph: GraphApi, t: SimTenant) => Promise<void>> = {
  async backup(graph, t) {
    await drain(graph.users());
    await drain(graph.sites());
    await drain(graph.teams());
    const user = t.users[0]?.id ?? '';
    const drive = (await graph.userDrive(user)).id ?? '';
    await drain(graph.siteDrives(t.sites[0]?.id ?? ''));
    await drain(graph.driveDelta(drive));
    const file = [...(t.drives.get(drive)?.items.values() ?? [])].find((i) => i.kind === 'file')?.id ?? '';
    await graph.item(drive, file);
    await graph.itemContent(drive, file);
    await drain(graph.itemVersions(drive, file));
    await drain(graph.itemPermissions(drive, file));
    const team = t.teams[0];
    const channel = team?.channels[0];
    await drain(graph.channels(team?.id ?? ''));
    await drain(graph.channelMessages(team?.id ?? '', channel?.id ?? ''));
    await drain(graph.messageReplies(team?.id ?? '', channel?.id ?? '', channel?.messages[0]?.id ?? ''));
  },
  async restore(graph, t) {
    const user = t.users[0]?.id ?? '';
    const drive = (await graph.userDrive(user)).id ?? '';
    await drain(graph.siteDrives(t.sites[0]?.id ?? ''));
    await graph.itemByPath(drive, '/Restored');
    const folder = await graph.createFolder(drive, 'root', 'Restored', 'rename');
    const file = await graph.uploadContent(drive, folder.id ?? '', 'a.txt', new TextEncoder().encode('a'), 'rename');
    await graph.grantPermission(drive, file.id ?? '', { userIds: [t.users[1]?.id ?? ''], roles: ['read'] });
    // A site's list, its items and a page, as a site restore makes them.
    const site = t.sites[0]?.id ?? '';
    await drain(graph.siteLists(site));
    const list = await graph.createList(site, {
      displayName: `Restored ${Date.now()}`,
      description: '',
      template: 'genericList',
      columns: [{ name: 'Note', text: {} }],
    });
    await drain(graph.listColumns(site, list.id ?? ''));
    const item = await graph.createListItem(site, list.id ?? '', { Title: 'a', Note: 'b' });
    await graph.listItem(site, list.id ?? '', item.id ?? '');
    await graph.updateListItemFields(site, list.id ?? '', item.id ?? '', { Note: 'c' });
    await drain(graph.sitePages(site));
    const page = await graph.createSitePage(site, { name: `Restored-${Date.now()}.aspx`, title: 'Restored' });
    await graph.publishSitePage(site, page.id ?? '');
    await drain(graph.mailFolders(user));
    const mailFolder = await graph.createMailFolder(user, null, `Restored ${Date.now()}`);
    await graph.importMessage(user, mailFolder.id ?? '', new TextEncoder().encode(MIME));
    // A mailbox's calendars, contacts and To Do tasks, as their restore writes them.
    await drain(graph.calendars(user));
    const calendar = await graph.createCalendar(user, `Restored ${Date.now()}`);
    const series = await graph.createEvent(user, calendar.id ?? '', {
      subject: 'Weekly',
      start: { dateTime: '2026-03-02T09:00:00', timeZone: 'W. Europe Standard Time' },
      end: { dateTime: '2026-03-02T10:00:00', timeZone: 'W. Europe Standard Time' },
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'] },
        range: { type: 'numbered', startDate: '2026-03-02', numberOfOccurrences: 3 },
      },
    });
    await graph.event(user, series.id ?? '');
    const window = { start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-03-20T00:00:00Z') };
    const instances = [];
    for await (const instance of graph.eventInstances(user, series.id ?? '', window)) instances.push(instance);
    const [first, second] = instances;
    await graph.updateEvent(user, first?.id ?? '', { subject: 'Moved' });
    await graph.deleteEvent(user, second?.id ?? '');
    await graph.updateEvent(user, series.id ?? '', { subject: 'Weekly, changed' });
    const attachment = { name: 'a.txt', contentType: 'text/plain', isInline: false, content: new Uint8Array([97]) };
    await graph.addEventAttachment(user, series.id ?? '', attachment);
    await drain(graph.eventAttachments(user, series.id ?? ''));
    await drain(graph.contactFolders(user));
    const contactFolder = await graph.createContactFolder(user, `Restored ${Date.now()}`);
    const contact = await graph.createContact(user, contactFolder.id ?? '', { givenName: 'Ada' });
    await graph.contact(user, contact.id ?? '');
    await graph.updateContact(user, contact.id ?? '', { surname: 'Lovelace' });
    await drain(graph.todoLists(user));
    const todoList = await graph.createTodoList(user, `Restored ${Date.now()}`);
    const task = await graph.createTodoTask(user, todoList.id ?? '', {
      title: 'Task',
      checklistItems: [{ displayName: 'Step' }],
    });
    await graph.todoTask(user, todoList.id ?? '', task.id ?? '');
    await graph.updateTodoTask(user, todoList.id ?? '', task.id ?? '', { status: 'completed' });
    const step = await graph.createChecklistItem(user, todoList.id ?? '', task.id ?? '', { displayName: 'Another' });
    await drain(graph.checklistItems(user, todoList.id ?? '', task.id ?? ''));
    await graph.deleteChecklistItem(user, todoList.id ?? '', task.id ?? '', step.id ?? '');
  },
  async mailArchive(graph, t) {
    await drain(graph.users());
    const group = t.teams[0]?.id ?? '';
    await drain(graph.groups());
    await drain(graph.groupMembers(group));
    await graph.groupUserCounts([group]);
    const user = t.users[0];
    const inbox = user?.folders.find((f) => f.wellKnownName === 'inbox')?.id ?? '';
    await drain(graph.mailFolders(user?.id ?? ''));
    for await (const _page of graph.messagesDelta(user?.id ?? '', inbox));
    await graph.messageMime(user?.id ?? '', [...(user?.messages.keys() ?? [])][0] ?? '');
    const userId = user?.id ?? '';
    const window = { start: new Date('2020-01-01T00:00:00Z'), end: new Date('2030-01-01T00:00:00Z') };
    for await (const calendar of graph.calendars(userId)) {
      for await (const events of graph.calendarViewDelta(userId, calendar.id ?? '', window)) {
        const withFile = events.find((e) => e.hasAttachments);
        if (withFile) await drain(graph.eventAttachments(userId, withFile.id ?? ''));
      }
    }
    for await (const folder of graph.contactFolders(userId)) await drain(graph.contactsDelta(userId, folder.id ?? ''));
    for await (const list of graph.todoLists(userId)) {
      for await (const tasks of graph.tasksDelta(userId, list.id ?? '')) {
        if (tasks[0]) await drain(graph.checklistItems(userId, list.id ?? '', tasks[0].id ?? ''));
      }
    }
  },
  async teamsArchive(graph, t) {
    await drain(graph.teams());
    await drain(graph.groups());
    const team = t.teams[0];
    const channel = team?.channels[0];
    await drain(graph.groupMembers(team?.id ?? ''));
    await drain(graph.channels(team?.id ?? ''));
    await graph.teamsChannels([team?.id ?? '']);
    await drain(graph.channelMessages(team?.id ?? '', channel?.id ?? ''));
    await drain(graph.messageReplies(team?.id ?? '', channel?.id ?? '', channel?.messages[0]?.id ?? ''));
  },
  async chats(graph, t) {
    const chat = t.chats[0];
    await drain(graph.userChats(chat?.memberIds[0] ?? ''));
    await drain(graph.chatMembers(chat?.id ?? ''));
    await drain(graph.chatMessages(chat?.id ?? ''));
  },
  async cleanup(graph, t) {
    await drain(graph.sites());
    await drain(graph.teams());
    await graph.groupRootSite(t.teams[0]?.id ?? '');
    const drive = (await graph.userDrive(t.users[0]?.id ?? '')).id ?? '';
    await drain(graph.siteDrives(t.sites[0]?.id ?? ''));
    await drain(graph.driveDelta(drive));
    await drain(graph.children(drive, 'root'));
    const file = [...(t.drives.get(drive)?.items.values() ?? [])].find(
      (i) => i.kind === 'file' && !i.deleted && i.versions.length > 1,
    );
    const versions = [];
    for await (const v of graph.itemVersions(drive, file?.id ?? '')) versions.push(v);
    await graph.deleteVersion(drive, file?.id ?? '', versions[versions.length - 1]?.id ?? '');
  },
  async userSync(graph) {
    await drain(graph.users());
  },
  async connectionTest(graph) {
    for await (const _ of graph.users()) break;
    await graph.organization();
  },
};

describe('each area’s least permissions against Graph’s per-call permissions', () => {
  const tenantId = TENANTS.northwind;
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId, size: { users: 3, sites: 1, teams: 1, chats: 2, versionsPerFile: 3, teamSites: true } }],
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  /** The engine's Graph client with a token holding exactly `roles`. */
  const graphWith = (roles: readonly string[]) => {
    sim.state.setConsent(tenantId, roles);
    return createGraphApi(
      {
        directoryId: tenantId,
        clientId: 'portal-app',
        clientSecret: 'secret',
        authorityHost: sim.authorityHost,
        graphBaseUrl: sim.graphBaseUrl,
      },
      { maxRetries: 0 },
    );
  };
  const refusal = (run: Promise<void>) =>
    run.then(
      () => undefined,
      (error: unknown) => (error instanceof GraphError ? error.status : error),
    );

  it('lets every Graph call of the area through, and refuses one as soon as any permission is withdrawn', async () => {
    const tenant = sim.state.tenant(tenantId);
    for (const [area, calls] of Object.entries(AREA_CALLS) as [PermissionArea, (typeof AREA_CALLS)[PermissionArea]][]) {
      const least = AREA_PERMISSIONS[area];
      expect(await refusal(calls(graphWith(least), tenant)), `${area} with ${least.join(', ')}`).toBeUndefined();
      for (const withdrawn of least) {
        const rest = least.filter((p) => p !== withdrawn);
        expect(await refusal(calls(graphWith(rest), tenant)), `${area} without ${withdrawn}`).toBe(403);
      }
    }
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
  });
});

describe('the connection test', () => {
  const server = useTestServer();
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let admin = '';
  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId, size: { users: 2, sites: 0, teams: 0 } }] });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    admin = await sessionToken(server, ADMIN);
  });
  // Each test starts with every permission granted; the tests withdraw some.
  beforeEach(() => {
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
  });
  afterAll(async () => {
    await sim?.close();
  });
  const test = async () => {
    const response = await server.request({
      method: 'POST',
      url: '/apollo-beta/test-onedrive-connection',
      token: admin,
      body: { tenantId },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ConnectionTestResult;
  };
  const lastAudit = async () =>
    (
      await server.ctx.db.query<{ outcome: string; details: Record<string, unknown> }>(
        "select outcome, details from audit_log where action = 'tenant.connectionTest' order by seq desc limit 1",
      )
    )[0];

  it('names nothing missing when everything is granted', async () => {
    const result = await test();
    expect(result).toMatchObject({ ok: true });
    expect(result.missingPermissions).toBeUndefined();
    expect(result.message).toBeUndefined();
  });

  it('names the permissions withdrawn since (a new token), with their areas, and still reports the connection working', async () => {
    sim.state.setConsent(
      tenantId,
      ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'Chat.Read.All' && p !== 'Mail.ReadWrite'),
    );
    const result = await test();
    expect(result.ok).toBe(true);
    expect(result.message).toBeUndefined();
    expect(result.missingPermissions).toEqual([
      { permission: 'Mail.ReadWrite', areas: ['restore'] },
      { permission: 'Mail.Read', areas: ['mailArchive'] },
      { permission: 'Chat.Read.All', areas: ['chats'] },
    ]);
    expect(await lastAudit()).toMatchObject({
      outcome: 'success',
      details: { missingPermissions: ['Mail.ReadWrite', 'Mail.Read', 'Chat.Read.All'] },
    });

    // Mail.Read alone serves the mail archive, not the restore.
    sim.state.setConsent(tenantId, [...ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'Mail.ReadWrite'), 'Mail.Read']);
    expect((await test()).missingPermissions).toEqual([{ permission: 'Mail.ReadWrite', areas: ['restore'] }]);
  });

  it('fails with Graph’s refusal when the test’s own permission is missing, and names it with every area needing it', async () => {
    sim.state.setConsent(tenantId, ['Files.ReadWrite.All', 'Mail.ReadWrite']);
    const result = await test();
    expect(result.ok).toBe(false);
    expect(result.message).toBe(errorTexts.m365PermissionMissing());
    // The failure names the test's own permission; the warning every permission missing.
    expect(result.failure).toMatchObject({
      code: 'm365PermissionMissing',
      status: 403,
      error: 'Authorization_RequestDenied',
      missingPermissions: [
        { permission: 'User.Read.All', areas: ['backup', 'mailArchive', 'userSync', 'connectionTest'] },
      ],
    });
    expect(result.missingPermissions).toEqual([
      { permission: 'User.Read.All', areas: ['backup', 'mailArchive', 'userSync', 'connectionTest'] },
      { permission: 'Sites.Read.All', areas: ['backup', 'cleanup'] },
      { permission: 'GroupMember.Read.All', areas: ['backup', 'mailArchive', 'teamsArchive', 'cleanup'] },
      { permission: 'Channel.ReadBasic.All', areas: ['backup', 'teamsArchive'] },
      { permission: 'ChannelMessage.Read.All', areas: ['backup', 'teamsArchive'] },
      // Files.ReadWrite.All serves the files of a restore, not its lists and pages.
      { permission: 'Sites.ReadWrite.All', areas: ['restore'] },
      { permission: 'Calendars.ReadWrite', areas: ['restore'] },
      { permission: 'Contacts.ReadWrite', areas: ['restore'] },
      { permission: 'Tasks.ReadWrite.All', areas: ['restore'] },
      { permission: 'Calendars.Read', areas: ['mailArchive'] },
      { permission: 'Contacts.Read', areas: ['mailArchive'] },
      { permission: 'Tasks.Read.All', areas: ['mailArchive'] },
      { permission: 'Chat.Read.All', areas: ['chats'] },
      { permission: 'Organization.Read.All', areas: ['connectionTest'] },
    ]);
    expect((await lastAudit())?.outcome).toBe('failure');
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    expect((await test()).missingPermissions).toBeUndefined();
  });
});
