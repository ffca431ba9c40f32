/**
 * A mailbox's archived calendars, contacts and tasks (archive-data/mailbox-items.ts): a version per
 * change of an item's JSON, none for the same JSON read again, earlier versions kept, deletions marked
 * (a series master with its last instance), attachments kept byte for byte in the blob store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '@microsoft/microsoft-graph-types';
import { describe, expect, it } from 'vitest';
import {
  archiveContact,
  archiveEvent,
  archiveTask,
  type MailboxItemScope,
  markMailboxItemsDeleted,
  readEventAttachments,
  readMailboxItems,
} from '../src/archive-data/mailbox-items.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { TENANTS, useTestServer } from './helpers.js';

describe('archived calendars, contacts and tasks', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-mailbox-items-')) });
  const mailbox = `user-${Date.now()}`;
  const key = { tenantId: TENANTS.contoso, mailbox };
  const scope = (now: string): MailboxItemScope => ({ ...key, jobId: null, locationId: null, now: new Date(now) });
  const noAttachments = async function* () {};

  it('keeps a version per change, none for the same item again, and marks deletions', async () => {
    const db = server.ctx.db;
    const blobs = createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs'));
    const storeAt = async () => blobs;
    const calendar = { calendarId: 'cal-1', calendarName: 'Calendar' };
    const master: Event = { id: 'series', type: 'seriesMaster', subject: 'Weekly', hasAttachments: false };
    const occurrence = (id: string, day: string): Event => ({
      id,
      type: 'occurrence',
      seriesMasterId: 'series',
      subject: 'Weekly',
      start: { dateTime: `${day}T09:00:00.0000000`, timeZone: 'UTC' },
      end: { dateTime: `${day}T10:00:00.0000000`, timeZone: 'UTC' },
    });
    const file = new Uint8Array([0, 1, 2, 255, 254, 10, 13]);
    const single: Event = { id: 'single', type: 'singleInstance', subject: 'Review', hasAttachments: true };
    const attachments = async function* () {
      yield {
        '@odata.type': '#microsoft.graph.fileAttachment',
        id: 'att-1',
        name: 'notes.bin',
        contentType: 'application/octet-stream',
        isInline: false,
        contentBytes: Buffer.from(file).toString('base64'),
      };
      // An item attachment has no bytes of its own: not kept as a blob.
      yield { '@odata.type': '#microsoft.graph.itemAttachment', id: 'att-2', name: 'Forwarded' };
    };
    const first = scope('2026-01-01T00:00:00Z');
    const archive = (event: Event, at = first) =>
      archiveEvent(db, blobs, at, {
        ...calendar,
        event,
        attachments: event.hasAttachments ? attachments : noAttachments,
      });
    expect((await archive(master)).change).toBe('new');
    expect((await archive(occurrence('o1', '2026-01-05'))).change).toBe('new');
    expect((await archive(occurrence('o2', '2026-01-12'))).change).toBe('new');
    const withFile = await archive(single);
    expect(withFile.change).toBe('new');
    expect(withFile.bytes).toBeGreaterThan(file.length);
    // Read again (a resync): nothing new.
    expect((await archive(single)).change).toBe('unchanged');
    const later = scope('2026-02-01T00:00:00Z');
    expect((await archive({ ...single, subject: 'Review (moved)' }, later)).change).toBe('changed');

    const events = await readMailboxItems<Event>(db, storeAt, 'event', key);
    expect(events.filter((e) => e.externalId === 'single').map((v) => [v.version, v.item.subject])).toEqual([
      [1, 'Review'],
      [2, 'Review (moved)'],
    ]);
    for (const version of [1, 2]) {
      const kept = await readEventAttachments(db, storeAt, key, 'single', version);
      expect(kept.map((a) => [a.id, a.name, a.contentType, Buffer.from(a.content).equals(Buffer.from(file))])).toEqual([
        ['att-1', 'notes.bin', 'application/octet-stream', true],
      ]);
    }

    // The series' instances deleted one by one: the master goes with the last.
    const gone = scope('2026-03-01T00:00:00Z');
    expect(await markMailboxItemsDeleted(db, 'event', gone, ['o1'])).toBe(1);
    expect(await markMailboxItemsDeleted(db, 'event', gone, ['o2', 'unknown'])).toBe(2);
    expect(await markMailboxItemsDeleted(db, 'event', gone, ['o2'])).toBe(0);
    const after = await readMailboxItems<Event>(db, storeAt, 'event', key);
    expect(after.filter((v) => v.deletedAt).map((v) => v.externalId)).toEqual(['o1', 'o2', 'series']);
    // A deleted item read again (back in the window) is a new version, the deleted one kept.
    expect((await archive(occurrence('o1', '2026-01-05'), scope('2026-04-01T00:00:00Z'))).change).toBe('changed');

    const folder = { folderId: 'f-1', folderPath: 'Contacts' };
    const ada = { id: 'c1', displayName: 'Ada' };
    expect((await archiveContact(db, blobs, first, { ...folder, contact: ada })).change).toBe('new');
    expect((await archiveContact(db, blobs, later, { ...folder, contact: { ...ada, jobTitle: 'CTO' } })).change).toBe(
      'changed',
    );
    const list = { listId: 'l-1', listName: 'Tasks' };
    const task = { id: 't1', title: 'Ship', status: 'notStarted' as const };
    const step = { id: 'ck1', displayName: 'Pack', isChecked: false };
    expect((await archiveTask(db, blobs, first, { ...list, task, checklistItems: [step] })).change).toBe('new');
    expect((await archiveTask(db, blobs, first, { ...list, task, checklistItems: [step] })).change).toBe('unchanged');
    const checked = [{ ...step, isChecked: true }];
    expect((await archiveTask(db, blobs, later, { ...list, task, checklistItems: checked })).change).toBe('changed');
    expect(await markMailboxItemsDeleted(db, 'task', gone, ['t1'])).toBe(1);
    const tasks = await readMailboxItems<{ checklistItems?: { isChecked?: boolean }[] }>(db, storeAt, 'task', key);
    expect(tasks.map((t) => [t.version, t.item.checklistItems?.[0]?.isChecked, t.deletedAt !== null])).toEqual([
      [1, false, false],
      [2, true, true],
    ]);
    const contacts = await readMailboxItems<{ jobTitle?: string }>(db, storeAt, 'contact', key);
    expect(contacts.map((c) => [c.version, c.container, c.item.jobTitle])).toEqual([
      [1, 'Contacts', undefined],
      [2, 'Contacts', 'CTO'],
    ]);
  });
});
