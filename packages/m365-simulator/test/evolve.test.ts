/** Evolution: a tenant's content changes between reads, at fixed instants or at the time it is given. */
import { describe, expect, it } from 'vitest';
import { buildTenant, evolve, startSimulator } from '../src/index.js';

const TENANT = '0b7e3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

function newest(tenant: ReturnType<typeof buildTenant>) {
  const files = [...tenant.drives.values()].flatMap((d) => [...d.items.values()]).filter((i) => i.kind === 'file');
  const mail = tenant.users.flatMap((u) => [...u.messages.values()]);
  const posts = tenant.teams.flatMap((t) => t.channels.flatMap((c) => c.messages));
  const chats = tenant.chats.flatMap((c) => c.messages);
  return { files, mail, posts, chats };
}

describe('evolve', () => {
  it('dates what it adds and edits at the time given, a few minutes apart', () => {
    const tenant = buildTenant(TENANT, { users: 2, sites: 1, teams: 1, chats: 1 });
    const at = '2026-11-20T09:00:00.000Z';
    const change = evolve(tenant, {
      newFiles: 2,
      editedFiles: 2,
      newMessages: 2,
      newChannelMessages: 1,
      newChatMessages: 1,
      at,
    });
    const { files, mail, posts, chats } = newest(tenant);
    const added = files.filter((f) => f.changed === change && f.id.includes('-i1000'));
    expect(added).toHaveLength(2);
    for (const file of added) {
      expect(file.versions.at(-1)?.modified.slice(0, 13)).toBe('2026-11-20T09');
      expect(Date.parse(file.created)).toBeLessThanOrEqual(Date.parse(file.versions.at(-1)?.modified ?? ''));
    }
    const edited = files.filter((f) => f.changed === change && !added.includes(f));
    expect(edited.length).toBeGreaterThan(0);
    for (const file of edited) expect(file.versions.at(-1)?.modified.slice(0, 13)).toBe('2026-11-20T09');
    const received = mail.filter((m) => m.changed === change).map((m) => m.received);
    expect(received).toEqual(['2026-11-20T09:00:00.000Z', '2026-11-20T09:03:00.000Z']);
    expect(posts.filter((m) => m.created === at)).toHaveLength(1);
    expect(chats.filter((m) => m.created === at)).toHaveLength(1);
  });

  it('without a time, gives the same content as before on the same tenant (deterministic)', () => {
    const a = buildTenant(TENANT, { users: 2, sites: 0, teams: 1 });
    const b = buildTenant(TENANT, { users: 2, sites: 0, teams: 1 });
    for (const tenant of [a, b]) evolve(tenant, { newFiles: 1, editedFiles: 1, newMessages: 1, newChannelMessages: 1 });
    expect(JSON.stringify(newest(a))).toBe(JSON.stringify(newest(b)));
    expect(
      newest(a)
        .mail.find((m) => m.changed === 1)
        ?.received.startsWith('2027-'),
    ).toBe(true);
  });
});

describe('evolve from outside', () => {
  it('changes a tenant through POST /_simulator/evolve with the control key', async () => {
    const sim = await startSimulator({ tenants: [{ tenantId: TENANT, size: { users: 2, sites: 0, teams: 0 } }] });
    try {
      const post = (body: unknown, key: string | null = sim.controlKey) =>
        fetch(`${sim.url}/_simulator/evolve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-simulator-control': key } : {}) },
          body: JSON.stringify(body),
        });
      const tenant = sim.state.tenant(TENANT);
      const before = newest(tenant).mail.length;
      const answer = await post({ tenantId: TENANT, newMessages: 3, editedFiles: 1 });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ tenantId: TENANT, clock: tenant.clock });
      expect(newest(tenant).mail.length).toBe(before + 3);
      expect((await post({ tenantId: TENANT, newMessages: 1 }, null)).status).toBe(403);
      expect((await post({ tenantId: TENANT, newMessages: -1 })).status).toBe(400);
      expect((await post({ tenantId: TENANT, renamedFiles: 1 })).status).toBe(400);
      expect((await post({ tenantId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    } finally {
      await sim.close();
    }
  });
});

describe('evolve on calendars, contacts and To Do', () => {
  const items = (tenant: ReturnType<typeof buildTenant>) => {
    const mailboxes = tenant.users.filter((u) => u.hasMailbox);
    return {
      events: mailboxes.flatMap((u) => [...u.events.values()]),
      contacts: mailboxes.flatMap((u) => [...u.contacts.values()]),
      tasks: mailboxes.flatMap((u) => [...u.tasks.values()]),
      lists: mailboxes.flatMap((u) => u.taskLists),
    };
  };

  it('adds, edits and deletes events, contacts and tasks, marked with the change, new ones dated at the time given', () => {
    const tenant = buildTenant(TENANT, { users: 3, sites: 0, teams: 0 });
    const before = items(tenant);
    const at = '2026-11-20T09:00:00.000Z';
    const change = evolve(tenant, {
      newEvents: 3,
      editedEvents: 2,
      deletedEvents: 1,
      newContacts: 3,
      editedContacts: 2,
      deletedContacts: 1,
      newTasks: 3,
      editedTasks: 2,
      deletedTasks: 1,
      newTaskLists: 1,
      at,
    });
    const after = items(tenant);
    for (const kind of ['events', 'contacts', 'tasks'] as const) {
      const changed = after[kind].filter((x) => x.changed === change);
      expect(after[kind].length - before[kind].length, kind).toBe(3);
      expect(
        changed.filter((x) => x.deleted),
        kind,
      ).toHaveLength(1);
      // Three new, up to two edited (one may since have been deleted), one deleted.
      expect(changed.length, kind).toBeGreaterThanOrEqual(5);
      const created = changed.filter((x) => !before[kind].some((b) => b.id === x.id));
      expect(
        created.map((x) => x.created.slice(0, 13)),
        kind,
      ).toEqual(Array(3).fill('2026-11-20T09'));
    }
    // New events a day after the change, in their owner's default calendar.
    const newEvents = after.events.filter((e) => e.changed === change && !before.events.some((b) => b.id === e.id));
    expect(newEvents.map((e) => e.start.slice(0, 10))).toEqual(['2026-11-21', '2026-11-21', '2026-11-21']);
    expect(after.lists.filter((l) => l.changed === change)).toHaveLength(1);
    expect(
      after.tasks.filter((t) => t.changed === change && !t.deleted && t.status === 'completed').length,
    ).toBeGreaterThan(0);
  });

  it('gives the same mailboxes and the same changes for the same tenant', () => {
    const [a, b] = [
      buildTenant(TENANT, { users: 2, sites: 0, teams: 0 }),
      buildTenant(TENANT, { users: 2, sites: 0, teams: 0 }),
    ];
    for (const tenant of [a, b]) evolve(tenant, { newEvents: 2, editedEvents: 2, deletedContacts: 1, editedTasks: 2 });
    const pick = (t: typeof a) => JSON.stringify(items(t), (_k, v) => (v instanceof Uint8Array ? [...v] : v));
    expect(pick(a)).toBe(pick(b));
    expect(items(a).events.length).toBeGreaterThan(0);
  });
});
