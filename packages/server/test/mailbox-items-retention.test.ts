/**
 * Retention of a mailbox's archived calendars, contacts and tasks beside its mail: a version that
 * stopped being current (a newer one archived, or the item deleted) before the cut-off goes, with an
 * event's attachments and every blob nothing else refers to; current versions stay whatever their
 * age; a mailbox a legal hold names keeps everything; another tenant's and a mailbox not chosen are
 * not touched.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event, FileAttachment } from '@microsoft/microsoft-graph-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteArchivedBefore } from '../src/archive-data/archive.js';
import {
  archiveContact,
  archiveEvent,
  archiveTask,
  type MailboxItemScope,
  markMailboxItemsDeleted,
} from '../src/archive-data/mailbox-items.js';
import { createLocalBlobStore, sha256 } from '../src/storage/blob-store.js';
import { TENANTS, useTestServer } from './helpers.js';

const tenantId: string = TENANTS.contoso;
const OLD = new Date('2020-01-01T00:00:00Z');
const LATER = new Date('2020-06-01T00:00:00Z');
const RECENT = new Date('2026-01-01T00:00:00Z');
const CUTOFF = new Date('2025-01-01T00:00:00Z');

/** An event's file attachment as Graph lists it. */
const file = (id: string, content: Buffer): FileAttachment & { '@odata.type': string } => ({
  '@odata.type': '#microsoft.graph.fileAttachment',
  id,
  name: `${id}.bin`,
  contentType: 'application/octet-stream',
  contentBytes: content.toString('base64'),
});

describe('retention of archived calendars, contacts and tasks', () => {
  const server = useTestServer();
  const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-retention-items-')));
  const scope = (mailbox: string, now: Date, tenant = tenantId): MailboxItemScope => ({
    tenantId: tenant,
    mailbox,
    jobId: null,
    locationId: null,
    now,
  });
  const oldBytes = randomBytes(4000);
  const newBytes = randomBytes(4000);
  const sharedBytes = randomBytes(4000);

  async function event(mailbox: string, now: Date, subject: string, files: FileAttachment[], tenant = tenantId) {
    const item: Event = { id: `ev-${mailbox}`, type: 'singleInstance', subject, hasAttachments: files.length > 0 };
    await archiveEvent(server.ctx.db, blobs, scope(mailbox, now, tenant), {
      calendarId: 'cal',
      calendarName: 'Calendar',
      event: item,
      attachments: async function* () {
        yield* files;
      },
    });
  }
  const contact = (mailbox: string, now: Date, jobTitle: string) =>
    archiveContact(server.ctx.db, blobs, scope(mailbox, now), {
      folderId: 'f',
      folderPath: 'Contacts',
      contact: { id: `ct-${mailbox}`, displayName: 'Ada', jobTitle },
    });
  const task = (mailbox: string, now: Date, title: string) =>
    archiveTask(server.ctx.db, blobs, scope(mailbox, now), {
      listId: 'l',
      listName: 'Tasks',
      task: { id: `tk-${mailbox}`, title },
      checklistItems: [{ id: 's1', displayName: 'Step', isChecked: false }],
    });
  const versions = async (table: string, mailbox: string, tenant = tenantId) =>
    (
      await server.ctx.db.query<{ version: number }>(
        `select version from ${table} where tenant_id = $1 and mailbox = $2 order by external_id, version`,
        [tenant, mailbox],
      )
    ).map((r) => Number(r.version));
  const attachments = async (mailbox: string) =>
    (
      await server.ctx.db.query<{ version: number; blob_hash: string }>(
        'select version, blob_hash from archived_event_attachments where tenant_id = $1 and mailbox = $2 order by version',
        [tenantId, mailbox],
      )
    ).map((r) => [Number(r.version), r.blob_hash]);

  beforeAll(async () => {
    // Each mailbox: an event changed (its attachment too) and a contact changed, both long ago and
    // recently; a task once, long ago; a contact deleted long ago.
    for (const mailbox of ['aged', 'held', 'unchosen']) {
      await event(mailbox, OLD, 'First', [file('a', oldBytes), file('s', sharedBytes)]);
      await event(mailbox, RECENT, 'Second', [file('a', newBytes)]);
      await contact(mailbox, OLD, 'Engineer');
      await contact(mailbox, LATER, 'Manager');
      await task(mailbox, OLD, 'Report');
      await archiveContact(server.ctx.db, blobs, scope(mailbox, OLD), {
        folderId: 'f',
        folderPath: 'Contacts',
        contact: { id: `gone-${mailbox}`, displayName: 'Gone' },
      });
      await markMailboxItemsDeleted(server.ctx.db, 'contact', scope(mailbox, LATER), [`gone-${mailbox}`]);
    }
    // Another tenant's mailbox of the same name, changed long ago.
    await event('aged', OLD, 'Elsewhere', [], TENANTS.northwind);
    await event('aged', LATER, 'Elsewhere, changed', [], TENANTS.northwind);
    // A held case names the mailbox "held" as a custodian of its mail.
    await server.ctx.db.query(
      `insert into ediscovery_cases (case_id, tenant_id, name, search, created_by, created_at, hits, held_at, held_by,
                                     hold_scope, hold_through)
       values ('retention-hold', $1, 'Retention hold', '{}', 'admin', $2, 0, $2, 'admin', $3, 0)`,
      [tenantId, RECENT, JSON.stringify({ kind: ['mail'], mailSources: ['held'], teamSources: [], chatAccounts: [] })],
    );
  });

  it('removes versions no longer current before the cut-off, their attachments and unshared blobs, and keeps the rest', async () => {
    const shared = sha256(sharedBytes);
    const result = await deleteArchivedBefore(server.ctx.db, blobs, tenantId, {
      kind: 'mail',
      before: CUTOFF,
      sources: ['aged', 'held'],
    });
    // The event's first version (superseded recently) stays; the contact's first (superseded long
    // ago) and the deleted contact go; the task's only version is current.
    expect(result.mailboxItemVersions).toBe(2);
    expect(await versions('archived_events', 'aged')).toEqual([1, 2]);
    expect(await versions('archived_contacts', 'aged')).toEqual([2]);
    expect(await versions('archived_tasks', 'aged')).toEqual([1]);
    // The held mailbox, the mailbox not chosen and another tenant's keep everything.
    expect(await versions('archived_contacts', 'held')).toEqual([1, 2, 1]);
    expect(await versions('archived_contacts', 'unchosen')).toEqual([1, 2, 1]);
    expect(await versions('archived_events', 'aged', TENANTS.northwind)).toEqual([1, 2]);
    expect(await blobs.has(shared)).toBe(true);

    // Later the event's first version is old enough too: it goes with its attachments; their blobs,
    // which the other mailboxes' first versions still refer to, stay.
    const later = await deleteArchivedBefore(server.ctx.db, blobs, tenantId, {
      kind: 'mail',
      before: new Date('2027-01-01T00:00:00Z'),
      sources: ['aged'],
    });
    expect(later.mailboxItemVersions).toBe(1);
    expect(await versions('archived_events', 'aged')).toEqual([2]);
    expect((await attachments('aged')).map(([v]) => v)).toEqual([2]);
    expect(await blobs.has(shared)).toBe(true);
    expect(await blobs.has(sha256(oldBytes))).toBe(true);

    // Every mailbox of the tenant (none chosen) but the held one: the last references go.
    await deleteArchivedBefore(server.ctx.db, blobs, tenantId, { kind: 'mail', before: new Date('2027-01-01') });
    expect(await versions('archived_events', 'unchosen')).toEqual([2]);
    expect(await versions('archived_events', 'held')).toEqual([1, 2]);
    expect(await blobs.has(shared)).toBe(true);
    await server.ctx.db.query("update ediscovery_cases set hold_scope = null where case_id = 'retention-hold'");
    await deleteArchivedBefore(server.ctx.db, blobs, tenantId, { kind: 'mail', before: new Date('2027-01-01') });
    expect(await versions('archived_events', 'held')).toEqual([2]);
    expect(await blobs.has(shared)).toBe(false);
    expect(await blobs.has(sha256(oldBytes))).toBe(false);
    // The current versions' blobs stay.
    expect(await blobs.has(sha256(newBytes))).toBe(true);

    // Retention of Teams messages leaves mailboxes alone.
    const teams = await deleteArchivedBefore(server.ctx.db, blobs, tenantId, {
      kind: 'teams',
      before: new Date('2030-01-01'),
    });
    expect(teams.mailboxItemVersions).toBe(0);
    expect(await versions('archived_contacts', 'held')).toEqual([2]);
  });
});
