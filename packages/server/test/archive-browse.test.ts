import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchivedItem, ArchivedMail, Page, TeamsArchiveNode, TeamsThread } from '@compliance-portal/sdk';
import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveMail, archiveTeamsMessage, saveChat } from '../src/archive-data/archive.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

const NEEDS_RIGHT = "You need a proxy right to read this mailbox's archive.";
const MAILBOX = 'adele@contoso.example';
const OTHER = 'alex@contoso.example';
const CLIENT_MAILBOX = 'nestor@northwind.example';

function mime(subject: string, date: string, options: { attachment?: string; cc?: string } = {}) {
  const head = [
    'From: Megan Bowen <megan@contoso.example>',
    `To: Adele Vance <${MAILBOX}>`,
    ...(options.cc ? [`Cc: ${options.cc}`] : []),
    `Subject: ${subject}`,
    `Date: ${date}`,
    'MIME-Version: 1.0',
  ];
  const lines = options.attachment
    ? [
        ...head,
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        `${subject}: see the attachment.`,
        '--b1',
        `Content-Type: application/pdf; name="${options.attachment}"`,
        `Content-Disposition: attachment; filename="${options.attachment}"`,
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('x'.repeat(3000)).toString('base64'),
        '--b1--',
        '',
      ]
    : [...head, 'Content-Type: text/plain; charset=utf-8', '', `${subject}: nothing attached.`, ''];
  return new TextEncoder().encode(lines.join('\r\n'));
}

const message = (id: string, from: string, text: string, at: string, more: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  createdDateTime: at,
  from: { user: { id: `u-${from}`, displayName: from } },
  body: { contentType: 'html', content: `<p>${text}</p>` },
  attachments: [],
  ...more,
});

/**
 * Browsing the archive outside eDiscovery: a mailbox's mail by folder with its filters and order,
 * read only with the right to read the mailbox; one item with its headers and attachments; Teams
 * channels and readable chats, threaded. Another tenant's mailbox, item or chat is never reached.
 */
describe('archive browsing', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-archive-browse-')) });
  const tenantId = TENANTS.contoso;
  let admin = '';
  const ids: Record<string, string> = {};
  const call = (method: string, url: string, body?: object) =>
    server.request({ method, url: `/apollo-beta/api/${tenantId}${url}`, token: admin, ...(body ? { body } : {}) });
  const browse = (body: object) => call('POST', '/archive/mail/browse', { mailboxId: MAILBOX, ...body });
  const idOf = async (externalId: string) =>
    (
      await server.ctx.db.query<{ id: string }>('select id::text from archive_items where external_id = $1', [
        externalId,
      ])
    )[0]?.id ?? '';

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    const db = server.ctx.db;
    const blobs = createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs'));
    const mail = (source: string, folder: string, externalId: string, bytes: Uint8Array, t: string = tenantId) =>
      archiveMail(db, blobs, {
        tenantId: t,
        jobId: null,
        source,
        folder,
        externalId,
        mime: bytes,
        now: server.ctx.now(),
      });
    await mail(
      MAILBOX,
      'Inbox',
      'm-figures',
      mime('Quarterly figures', 'Mon, 02 Nov 2026 09:00:00 +0000', {
        attachment: 'figures.pdf',
        cc: 'Alex Wilber <alex@contoso.example>',
      }),
    );
    await mail(MAILBOX, 'Inbox', 'm-lunch', mime('Lunch', 'Tue, 03 Nov 2026 12:00:00 +0000'));
    await mail(MAILBOX, 'Inbox', 'm-old', mime('Budget 2025', 'Wed, 01 Oct 2025 08:00:00 +0000'));
    await mail(MAILBOX, 'Sent Items', 'm-sent', mime('Re: Lunch', 'Tue, 03 Nov 2026 12:30:00 +0000'));
    await mail(OTHER, 'Inbox', 'm-other', mime('Alex only', 'Tue, 03 Nov 2026 12:30:00 +0000'));
    await mail(
      CLIENT_MAILBOX,
      'Inbox',
      'm-client',
      mime('Northwind secret', 'Tue, 03 Nov 2026 12:30:00 +0000'),
      TENANTS.northwind,
    );
    for (const key of ['m-figures', 'm-lunch', 'm-old', 'm-sent', 'm-other', 'm-client']) ids[key] = await idOf(key);
    // The administrator reads Adele's mailbox by a proxy right; not Alex's.
    await db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                 principal_email, granted_by, granted_at)
       values ('r-browse', $1, $2, 'Adele Vance', 'user:admin', 'account', 'Admin', $3, 'test', $4)`,
      [tenantId, MAILBOX, ADMIN, server.ctx.now()],
    );
    await db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, 'teams', 'team-1', 'team', 'Mark 8 Project Team', null, $2),
              ($1, 'exchange', $3, 'mailbox', 'Adele Vance', $3, $2)`,
      [tenantId, server.ctx.now(), MAILBOX],
    );
    const teams = (
      externalId: string,
      m: ChatMessage,
      where: { kind?: 'teams' | 'chat'; source: string; channel: string; t?: string },
    ) =>
      archiveTeamsMessage(db, blobs, {
        tenantId: where.t ?? tenantId,
        jobId: null,
        ...(where.kind ? { kind: where.kind } : {}),
        source: where.source,
        channel: where.channel,
        externalId,
        message: m,
        now: server.ctx.now(),
      });
    const general = { source: 'team-1', channel: 'General' };
    await teams(
      'p1',
      message('p1', 'Megan Bowen', 'Kick-off at nine', '2026-11-02T09:00:00Z', {
        subject: 'Kick-off',
        attachments: [
          {
            id: 'a1',
            contentType: 'reference',
            name: 'Agenda.docx',
            contentUrl: 'https://contoso.sharepoint.com/Agenda.docx',
          },
          { id: 'a2', contentType: 'reference', name: 'Trap', contentUrl: 'javascript:alert(1)' },
          { id: 'a3', contentType: 'application/vnd.microsoft.card.adaptive', content: '{"type":"AdaptiveCard"}' },
        ],
      }),
      general,
    );
    await teams(
      'p1-r1',
      message('p1-r1', 'Adele Vance', 'I will be there', '2026-11-02T09:05:00Z', { replyToId: 'p1' }),
      general,
    );
    await teams(
      'p1-r2',
      message('p1-r2', 'Alex Wilber', 'Me too', '2026-11-02T09:06:00Z', { replyToId: 'p1' }),
      general,
    );
    await teams('p2', message('p2', 'Lee Gu', 'Second post', '2026-11-03T10:00:00Z'), general);
    // A reply whose post was never archived stands as a post of its own.
    await teams(
      'orphan',
      message('orphan', 'Lee Gu', 'Reply to a lost post', '2026-11-01T10:00:00Z', { replyToId: 'gone' }),
      general,
    );
    // A message archived before its post was recorded (as before migration 034): threaded when read.
    await teams(
      'p2-r1',
      message('p2-r1', 'Megan Bowen', 'Late reply', '2026-11-03T11:00:00Z', { replyToId: 'p2' }),
      general,
    );
    await db.query("update archive_items set reply_to = null where external_id = 'p2-r1'");
    // Chats: one with Adele (readable through the proxy right), one without.
    await saveChat(db, {
      tenantId,
      chatId: 'chat-adele',
      chatType: 'oneOnOne',
      topic: null,
      members: [
        { userId: MAILBOX, displayName: 'Adele Vance' },
        { userId: 'u-lee', displayName: 'Lee Gu' },
      ],
    });
    await saveChat(db, {
      tenantId,
      chatId: 'chat-alex',
      chatType: 'oneOnOne',
      topic: 'Alex and Lee',
      members: [
        { userId: OTHER, displayName: 'Alex Wilber' },
        { userId: 'u-lee', displayName: 'Lee Gu' },
      ],
    });
    await teams('c1', message('c1', 'Adele Vance', 'Coffee?', '2026-11-02T08:00:00Z'), {
      kind: 'chat',
      source: 'chat-adele',
      channel: 'Adele Vance, Lee Gu',
    });
    await teams('c2', message('c2', 'Alex Wilber', 'Private', '2026-11-02T08:00:00Z'), {
      kind: 'chat',
      source: 'chat-alex',
      channel: 'Alex and Lee',
    });
    ids.c2 = await idOf('c2');
    ids.p1 = await idOf('p1');
  });

  it("lists a mailbox's mail by folder, newest first, with paging, search, dates, attachments and order", async () => {
    const inbox = await browse({ folder: 'Inbox' });
    expect(inbox.statusCode, inbox.body).toBe(200);
    const page = inbox.json() as Page<ArchivedMail>;
    expect(page.items.map((m) => m.subject)).toEqual(['Lunch', 'Quarterly figures', 'Budget 2025']);
    expect(page.total).toBe(3);
    expect(page.items[1]).toMatchObject({
      itemId: ids['m-figures'] as string,
      folder: 'Inbox',
      sender: 'Megan Bowen <megan@contoso.example>',
      sentAt: '2026-11-02T09:00:00.000Z',
      hasAttachments: true,
    });
    const all = (await browse({})).json() as Page<ArchivedMail>;
    expect(all.items.map((m) => m.subject)).toEqual(['Re: Lunch', 'Lunch', 'Quarterly figures', 'Budget 2025']);
    const second = (await browse({ pageSize: 2, page: 2 })).json() as Page<ArchivedMail>;
    expect([second.total, second.items.map((m) => m.subject)]).toEqual([4, ['Quarterly figures', 'Budget 2025']]);
    const words = (await browse({ search: 'LUNCH' })).json() as Page<ArchivedMail>;
    expect(words.items.map((m) => m.subject)).toEqual(['Re: Lunch', 'Lunch']);
    const bySender = (await browse({ search: 'megan@' })).json() as Page<ArchivedMail>;
    expect(bySender.total).toBe(4);
    const dated = (
      await browse({ from: '2026-11-01T00:00:00Z', to: '2026-11-03T00:00:00Z' })
    ).json() as Page<ArchivedMail>;
    expect(dated.items.map((m) => m.subject)).toEqual(['Quarterly figures']);
    const withFiles = (await browse({ attachments: true })).json() as Page<ArchivedMail>;
    expect(withFiles.items.map((m) => m.subject)).toEqual(['Quarterly figures']);
    const without = (await browse({ attachments: false })).json() as Page<ArchivedMail>;
    expect(without.total).toBe(3);
    const bySubject = (await browse({ sort: 'subject', order: 'asc' })).json() as Page<ArchivedMail>;
    expect(bySubject.items.map((m) => m.subject)).toEqual(['Budget 2025', 'Lunch', 'Quarterly figures', 'Re: Lunch']);
    const bySize = (await browse({ sort: 'sizeBytes', order: 'desc' })).json() as Page<ArchivedMail>;
    expect(bySize.items[0]?.subject).toBe('Quarterly figures');
    // A "%" is a character searched for, not a wildcard.
    expect(((await browse({ search: '%' })).json() as Page<ArchivedMail>).total).toBe(0);
    const backwards = await browse({ from: '2026-11-03T00:00:00Z', to: '2026-11-01T00:00:00Z' });
    expect(backwards.statusCode).toBe(400);
  });

  it('refuses a mailbox the caller may not read, in words, and records the refusal', async () => {
    const refused = await browse({ mailboxId: OTHER });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: NEEDS_RIGHT });
    expect(refused.body).not.toContain('Alex only');
    const [audited] = await server.ctx.db.query<{ action: string; target: string }>(
      `select action, target from audit_log where outcome = 'failure' and action = 'archive.browse' order by seq desc limit 1`,
    );
    expect(audited).toEqual({ action: 'archive.browse', target: OTHER });
    const item = await call('GET', `/archive/items/${ids['m-other']}`);
    expect(item.statusCode).toBe(403);
    expect(item.body).not.toContain('Alex only');
  });

  it("never reaches another tenant's mailbox, item or chat", async () => {
    // Through the other tenant's path: the tenant itself is unknown to the caller.
    const foreign = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.northwind}/archive/mail/browse`,
      token: admin,
      body: { mailboxId: CLIENT_MAILBOX },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Northwind secret');
    // Through the caller's own tenant: the other tenant's mailbox is none the caller may read, and its
    // item is not this tenant's.
    const mailbox = await browse({ mailboxId: CLIENT_MAILBOX });
    expect(mailbox.statusCode).toBe(403);
    expect(mailbox.body).not.toContain('Northwind secret');
    const item = await call('GET', `/archive/items/${ids['m-client']}`);
    expect(item.statusCode).toBe(404);
    expect(item.body).not.toContain('Northwind secret');
    const foreignItem = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${TENANTS.northwind}/archive/items/${ids['m-client']}`,
      token: admin,
    });
    expect(foreignItem.statusCode).toBe(404);
    const threads = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${TENANTS.northwind}/archive/teams/threads?source=team-1&channel=General`,
      token: admin,
    });
    expect(threads.statusCode).toBe(404);
  });

  it('opens a mail with its headers, attachments and text', async () => {
    const opened = await call('GET', `/archive/items/${ids['m-figures']}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({
      itemId: ids['m-figures'] as string,
      kind: 'mail',
      source: MAILBOX,
      sourceName: 'Adele Vance',
      container: 'Inbox',
      subject: 'Quarterly figures',
      from: 'Megan Bowen <megan@contoso.example>',
      to: `Adele Vance <${MAILBOX}>`,
      cc: 'Alex Wilber <alex@contoso.example>',
      sentAt: '2026-11-02T09:00:00.000Z',
      sizeBytes: expect.any(Number),
      attachments: [{ name: 'figures.pdf', contentType: 'application/pdf', sizeBytes: 3000, url: null }],
      body: 'Quarterly figures: see the attachment.',
    } satisfies ArchivedItem);
  });

  it('lists the archived teams with their channels by name, and only the chats the caller may read', async () => {
    const tree = (await call('GET', '/archive/teams')).json() as TeamsArchiveNode[];
    expect(tree.map((n) => [n.kind, n.name, n.messageCount])).toEqual([
      ['team', 'Mark 8 Project Team', 6],
      ['chat', 'Adele Vance, Lee Gu', 1],
    ]);
    expect(tree[0]?.children.map((c) => c.name)).toEqual(['General']);
  });

  it("threads a channel's messages: replies under their post, oldest first, posts newest first, paged", async () => {
    const answer = await call('GET', '/archive/teams/threads?source=team-1&channel=General');
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as Page<TeamsThread>;
    expect(page.total).toBe(3);
    expect(page.items.map((th) => [th.post.body, th.post.author, th.replies.map((r) => r.body)])).toEqual([
      ['Second post', 'Lee Gu', ['Late reply']],
      ['Kick-off at nine', 'Megan Bowen', ['I will be there', 'Me too']],
      ['Reply to a lost post', 'Lee Gu', []],
    ]);
    const kickOff = page.items[1]?.post;
    expect(kickOff).toMatchObject({ itemId: ids.p1, subject: 'Kick-off', created: '2026-11-02T09:00:00.000Z' });
    // Links are passed on as web addresses only; inline content by its size.
    expect(kickOff?.attachments).toEqual([
      {
        name: 'Agenda.docx',
        contentType: 'reference',
        sizeBytes: null,
        url: 'https://contoso.sharepoint.com/Agenda.docx',
      },
      { name: 'Trap', contentType: 'reference', sizeBytes: null, url: null },
      {
        name: 'application/vnd.microsoft.card.adaptive',
        contentType: 'application/vnd.microsoft.card.adaptive',
        sizeBytes: 23,
        url: null,
      },
    ]);
    const [{ reply_to } = { reply_to: null }] = await server.ctx.db.query<{ reply_to: string | null }>(
      "select reply_to from archive_items where external_id = 'p2-r1'",
    );
    expect(reply_to).toBe('p2');
    const second = (
      await call('GET', '/archive/teams/threads?source=team-1&channel=General&pageSize=2&page=2')
    ).json() as Page<TeamsThread>;
    expect([second.total, second.items.map((th) => th.post.body)]).toEqual([3, ['Reply to a lost post']]);
  });

  it('reads a chat the caller may read, and answers one they may not, or an unknown place, as unknown', async () => {
    const readable = (await call('GET', '/archive/teams/threads?source=chat-adele')).json() as Page<TeamsThread>;
    expect(readable.items.map((th) => th.post.body)).toEqual(['Coffee?']);
    const other = await call('GET', '/archive/teams/threads?source=chat-alex');
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('Private');
    expect((await call('GET', `/archive/items/${ids.c2}`)).statusCode).toBe(404);
    expect((await call('GET', '/archive/teams/threads?source=team-1&channel=Nowhere')).statusCode).toBe(404);
  });

  it('names the mailbox of a restore by its name in the restore job', async () => {
    const jobId = '00000000-0000-4000-8000-000000000034';
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, created_at, updated_at)
       values ($1, $2, 'Browse mail archive', 'exchangeArchive', 'exchange', $3, $4, $4)`,
      [jobId, tenantId, JSON.stringify({ sources: [MAILBOX] }), server.ctx.now()],
    );
    await server.ctx.db.query("update archive_items set job_id = $1 where external_id = 'm-lunch'", [jobId]);
    // A mailbox is the tenant's when discovery knows its account.
    await server.ctx.db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, 'onedrive', $2, 'user', 'Adele Vance', $2, $3)`,
      [tenantId, MAILBOX, server.ctx.now()],
    );
    const restored = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/restore-email',
      token: admin,
      body: { workerIp: await workerIp(server, 'Contoso'), mailboxId: MAILBOX, messageIds: [ids['m-lunch']] },
    });
    expect(restored.statusCode, restored.body).toBe(202);
    const { jobId: restoreJob } = restored.json() as { jobId: string };
    const [job] = await server.ctx.db.query<{ name: string }>('select name from jobs where job_id = $1', [restoreJob]);
    expect(job?.name).toBe('Restore 1 mail of Adele Vance');
  });
});
