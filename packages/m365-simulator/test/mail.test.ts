/**
 * Mailboxes as Outlook answers them: well-known folder names, folder counts, message properties, and
 * imported MIME whose RFC 2047 encoded-word subject and names are decoded in JSON.
 */
import { describe, expect, it } from 'vitest';
import { decodeEncodedWords, parseMailboxList } from '../src/graph/mime.js';
import { graphOver } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };

describe('mailboxes', () => {
  const graph = graphOver({ users: 3, messagesPerFolder: 4, standardFolders: true }, 50);
  const { tenant, get, call } = graph;
  const user = tenant.users[0];
  if (!user) throw new Error('no user');
  const base = `/users/${user.id}`;

  it('answers the well-known folder names as aliases of the mailbox’s folders', async () => {
    const names: Record<string, string> = {
      inbox: 'Inbox',
      sentitems: 'Sent Items',
      archive: 'Archive',
      deleteditems: 'Deleted Items',
      drafts: 'Drafts',
      junkemail: 'Junk Email',
    };
    for (const [alias, displayName] of Object.entries(names)) {
      const folder = (await get(`${base}/mailFolders/${alias}`)).body;
      expect(folder.displayName).toBe(displayName);
      expect(folder.id).toBe(user.folders.find((f) => f.name === displayName)?.id);
      expect(folder.parentFolderId).toBe(user.rootFolderId);
      expect((await get(`${base}/mailFolders/${alias.toUpperCase()}`)).body.id).toBe(folder.id);
    }
    const root = (await get(`${base}/mailFolders/msgfolderroot`)).body;
    expect(root.id).toBe(user.rootFolderId);
    const top = (await get(`${base}/mailFolders/msgfolderroot/childFolders`)).body.value as Row[];
    expect(top.map((f) => f.displayName)).toEqual([
      'Inbox',
      'Sent Items',
      'Archive',
      'Deleted Items',
      'Drafts',
      'Junk Email',
    ]);
    const inboxMessages = (await get(`${base}/mailFolders/inbox/messages`)).body.value as Row[];
    expect(inboxMessages).toHaveLength(4);
    expect((await get(`${base}/mailFolders/notes`)).status).toBe(404);
  });

  it('counts a folder’s items and unread items, and names its parent', async () => {
    const inbox = (await get(`${base}/mailFolders/inbox`)).body;
    const messages = (await get(`${base}/mailFolders/inbox/messages`)).body.value as Row[];
    expect(inbox.totalItemCount).toBe(messages.length);
    expect(inbox.unreadItemCount).toBe(messages.filter((m) => m.isRead === false).length);
    expect(inbox.childFolderCount).toBe(1);
    const [child] = (await get(`${base}/mailFolders/inbox/childFolders`)).body.value as Row[];
    expect(child?.parentFolderId).toBe(inbox.id);
  });

  it('gives a message its recipients, sender names, internet message id and folder', async () => {
    const [listed] = (await get(`${base}/mailFolders/inbox/messages?$top=1`)).body.value as Row[];
    const message = (await get(`${base}/messages/${listed?.id}`)).body;
    const sender = tenant.users.find(
      (u) => u.upn === (message.from as { emailAddress: { address: string } }).emailAddress.address,
    );
    expect(message).toMatchObject({
      parentFolderId: user.folders.find((f) => f.wellKnownName === 'inbox')?.id,
      hasAttachments: false,
      internetMessageId: `<${listed?.id}@${tenant.domain}>`,
      from: { emailAddress: { name: sender?.displayName } },
      sender: { emailAddress: { name: sender?.displayName } },
      toRecipients: [{ emailAddress: { name: user.displayName, address: user.upn } }],
      isRead: expect.any(Boolean),
      bodyPreview: expect.any(String),
    });
    expect(Date.parse(String(message.sentDateTime))).toBeLessThan(Date.parse(String(message.receivedDateTime)));
  });

  it('answers a message’s MIME ($value) as text/plain, as Graph does, so that its clients read it as text', async () => {
    const [listed] = (await get(`${base}/mailFolders/inbox/messages?$top=1`)).body.value as Row[];
    const mime = await get(`${base}/messages/${listed?.id}/$value`);
    expect(mime.status).toBe(200);
    // Not message/rfc822: the Graph client's get() gives a string only for text/plain.
    expect(mime.headers?.['content-type']).toBe('text/plain');
    const text = Buffer.from(mime.bytes ?? []).toString('utf8');
    expect(text.split('\r\n')).toContain(`Subject: ${listed?.subject}`);
    expect(text.split('\r\n')).toContain('MIME-Version: 1.0');
  });

  it('decodes an imported RFC 2047 subject and names in JSON, and keeps the MIME as imported', async () => {
    const eml = [
      'From: =?iso-8859-1?Q?J=FCrgen_M=FCller?= <juergen@fabrikam.example>',
      'To: "Vance, Adele" <adele@contoso.example>, =?utf-8?B?w4lsb2RpZQ==?= <elodie@contoso.example>',
      'Subject: =?utf-8?B?UsO8Y2tibGljaw==?= =?utf-8?Q?_auf_das_Quartal_=E2=82=AC?=',
      'Date: Tue, 01 Sep 2026 08:00:00 +0000',
      'Message-ID: <q3-review@fabrikam.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'See attached.',
      '--b',
      'Content-Type: application/pdf',
      'Content-Disposition: attachment; filename="q3.pdf"',
      '',
      'JVBERi0=',
      '--b--',
      '',
    ].join('\r\n');
    const created = await call('POST', `${base}/mailFolders/inbox/messages`, {
      body: Buffer.from(eml).toString('base64'),
      headers: { 'content-type': 'text/plain' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subject: 'Rückblick auf das Quartal €',
      from: { emailAddress: { name: 'Jürgen Müller', address: 'juergen@fabrikam.example' } },
      toRecipients: [
        { emailAddress: { name: 'Vance, Adele', address: 'adele@contoso.example' } },
        { emailAddress: { name: 'Élodie', address: 'elodie@contoso.example' } },
      ],
      internetMessageId: '<q3-review@fabrikam.example>',
      hasAttachments: true,
    });
    const read = (await get(`${base}/messages/${created.body.id}`)).body;
    expect(read.subject).toBe('Rückblick auf das Quartal €');
    const raw = await get(`${base}/messages/${created.body.id}/$value`);
    expect(raw.headers?.['content-type']).toBe('text/plain');
    expect(Buffer.from(raw.bytes ?? []).toString()).toBe(eml);
  });

  it('decodes encoded-words as RFC 2047 says', () => {
    expect(decodeEncodedWords('=?utf-8?Q?a?= =?utf-8?Q?b?=')).toBe('ab');
    expect(decodeEncodedWords('=?utf-8?Q?a?= b =?utf-8?Q?c?=')).toBe('a b c');
    expect(decodeEncodedWords('=?UTF-8?b?4pyT?= done')).toBe('✓ done');
    expect(decodeEncodedWords('plain =?x-unknown?B?AA==?=')).toBe('plain =?x-unknown?B?AA==?=');
    expect(parseMailboxList('a@x.example, "B, C" <b@x.example>')).toEqual([
      { name: 'a@x.example', address: 'a@x.example' },
      { name: 'B, C', address: 'b@x.example' },
    ]);
  });

  it('keeps only Inbox, Sent Items and Archive without the standard folders (the default)', async () => {
    const small = graphOver({ users: 1 }, 50);
    const owner = small.tenant.users[0];
    const folders = (await small.get(`/users/${owner?.id}/mailFolders`)).body.value as Row[];
    expect(folders.map((f) => f.displayName)).toEqual(['Inbox', 'Sent Items', 'Archive']);
    expect((await small.get(`/users/${owner?.id}/mailFolders/drafts`)).status).toBe(404);
  });
});
