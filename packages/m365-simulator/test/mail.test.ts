/**
 * Mailboxes as Outlook answers them: well-known folder names, folder counts, message properties,
 * imported MIME whose RFC 2047 encoded-word subject and names are decoded in JSON, and `$search` on
 * messages (KQL over from, subject and body, property restrictions, paging, refused beside
 * `$filter` and `$orderby`).
 */
import { describe, expect, it } from 'vitest';
import { decodeEncodedWords, parseMailboxList } from '../src/graph/mime.js';
import type { SimMessage } from '../src/model.js';
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

  describe('$search on messages', () => {
    const small = graphOver({ users: 3, messagesPerFolder: 6 }, 4);
    const owner = small.tenant.users[0];
    const colleague = small.tenant.users[1];
    if (!owner || !colleague) throw new Error('no user');
    const mailbox = `/users/${owner.id}`;
    /** The words of a text, as a reader would pick them out. */
    const wordsIn = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    const messages = () => [...owner.messages.values()];
    const inbox = owner.folders.find((f) => f.wellKnownName === 'inbox');

    const importMime = (lines: string[]) =>
      small.call('POST', `${mailbox}/mailFolders/inbox/messages`, {
        body: Buffer.from(lines.join('\r\n')).toString('base64'),
        headers: { 'content-type': 'text/plain' },
      });

    /** Every message a search finds, following next links, and the pages it took. */
    async function search(url: string) {
      const rows: Row[] = [];
      const pages: Record<string, unknown>[] = [];
      let next: string | undefined = url;
      while (next) {
        const answer = await small.get(next);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        pages.push(answer.body);
        rows.push(...(answer.body.value as Row[]));
        next = answer.body['@odata.nextLink'] as string | undefined;
      }
      return { rows, pages };
    }
    const ids = (rows: Row[]) => rows.map((r) => r.id);
    const newestSentFirst = (rows: Row[]) =>
      rows.every((r, i) => i === 0 || String(rows[i - 1]?.sentDateTime) >= String(r.sentDateTime));

    it('finds a word in subject, body or sender without ConsistencyLevel, newest sent first, quoted or bare', async () => {
      const expected = messages().filter((m) =>
        [...wordsIn(m.subject), ...wordsIn(m.body), ...wordsIn(m.from)].includes('invoice'),
      );
      expect(expected.length).toBeGreaterThan(2);
      expect(expected.length).toBeLessThan(messages().length);
      const quoted = await search(`${mailbox}/messages?$search="invoice"`);
      expect(new Set(ids(quoted.rows))).toEqual(new Set(expected.map((m) => m.id)));
      expect(quoted.rows).toHaveLength(expected.length);
      expect(newestSentFirst(quoted.rows)).toBe(true);
      const bare = await search(`${mailbox}/messages?$search=invoice`);
      expect(ids(bare.rows)).toEqual(ids(quoted.rows));
      const upper = await search(`${mailbox}/messages?$search="INVOICE"`);
      expect(ids(upper.rows)).toEqual(ids(quoted.rows));
      expect((await search(`${mailbox}/messages?$search="invoic"`)).rows).toEqual([]);
      expect(ids((await search(`${mailbox}/messages?$search="invoic*"`)).rows)).toEqual(ids(quoted.rows));
    });

    it('pages the matches with $top, every next link keeping the search', async () => {
      const whole = await search(`${mailbox}/messages?$search="invoice"`);
      const paged = await search(`${mailbox}/messages?$search="invoice"&$top=2`);
      expect(ids(paged.rows)).toEqual(ids(whole.rows));
      expect(paged.pages.length).toBe(Math.ceil(whole.rows.length / 2));
      for (const p of paged.pages.slice(0, -1)) {
        expect((p.value as Row[]).length).toBe(2);
        expect(decodeURIComponent(String(p['@odata.nextLink']))).toContain('$search="invoice"');
      }
      const selected = await search(`${mailbox}/messages?$search="invoice"&$select=subject&$top=3`);
      expect(selected.rows.map((r) => Object.keys(r).sort())).toEqual(
        whole.rows.map(() => ['@odata.etag', 'id', 'subject']),
      );
    });

    it("searches a folder's messages only in that folder", async () => {
      const expected = messages().filter(
        (m) => m.folderId === inbox?.id && [...wordsIn(m.subject), ...wordsIn(m.body)].includes('budget'),
      );
      expect(expected.length).toBeGreaterThan(0);
      const found = await search(`${mailbox}/mailFolders/inbox/messages?$search="budget"`);
      expect(new Set(ids(found.rows))).toEqual(new Set(expected.map((m) => m.id)));
      expect(found.rows.every((r) => r.parentFolderId === inbox?.id)).toBe(true);
    });

    it('takes property restrictions, phrases, AND, OR, NOT and dates, as KQL does', async () => {
      const has = (text: string, word: string) => wordsIn(text).includes(word);
      const expectFinds = async (query: string, wanted: (m: SimMessage) => boolean) => {
        const expected = messages().filter(wanted);
        const found = await search(`${mailbox}/messages?$search=${encodeURIComponent(query)}`);
        expect(new Set(ids(found.rows)), query).toEqual(new Set(expected.map((m) => m.id)));
        return expected.length;
      };
      expect(await expectFinds('"subject:report"', (m) => has(m.subject, 'report'))).toBeGreaterThan(0);
      expect(await expectFinds('"body:audit"', (m) => has(m.body, 'audit'))).toBeGreaterThan(0);
      const alias = colleague.upn.split('@')[0] ?? '';
      expect(await expectFinds(`"from:${alias}"`, (m) => m.from === colleague.upn)).toBeGreaterThan(0);
      expect(await expectFinds(`"from:${colleague.upn}"`, (m) => m.from === colleague.upn)).toBeGreaterThan(0);
      const surname = colleague.displayName.split(' ')[1] ?? '';
      expect(await expectFinds(`"from:${surname}"`, (m) => m.from === colleague.upn)).toBeGreaterThan(0);
      expect(await expectFinds(`"to:${owner.upn}"`, (m) => m.to === owner.upn)).toBe(messages().length);
      expect(await expectFinds(`"participants:${alias}"`, (m) => m.from === colleague.upn)).toBeGreaterThan(0);
      expect(
        await expectFinds('"invoice AND report"', (m) =>
          ['invoice', 'report'].every((w) => has(`${m.subject} ${m.body}`, w)),
        ),
      ).toBeGreaterThan(0);
      expect(
        await expectFinds('"invoice report"', (m) =>
          ['invoice', 'report'].every((w) => has(`${m.subject} ${m.body}`, w)),
        ),
      ).toBeGreaterThan(0);
      expect(
        await expectFinds(
          '"subject:invoice OR subject:audit"',
          (m) => has(m.subject, 'invoice') || has(m.subject, 'audit'),
        ),
      ).toBeGreaterThan(0);
      expect(
        await expectFinds('"budget NOT subject:budget"', (m) => has(m.body, 'budget') && !has(m.subject, 'budget')),
      ).toBeGreaterThan(0);
      expect(
        await expectFinds('"budget -subject:budget"', (m) => has(m.body, 'budget') && !has(m.subject, 'budget')),
      ).toBeGreaterThan(0);
      // A phrase: its words in a row.
      for (const body of ['The budget review is on Monday.', 'Review the budget before Monday.']) {
        const created = await importMime([`From: ${colleague.upn}`, `To: ${owner.upn}`, 'Subject: Monday', '', body]);
        expect(created.status).toBe(201);
      }
      const phrase = (m: SimMessage) =>
        /(^|[^\p{L}\p{N}])budget\s+review([^\p{L}\p{N}]|$)/iu.test(`${m.subject}\n${m.body}`);
      expect(await expectFinds('"\\"budget review\\""', phrase)).toBeGreaterThan(0);
      expect(await expectFinds('"monday \\"budget review\\""', (m) => phrase(m) && has(m.body, 'monday'))).toBe(1);
      expect(await expectFinds('"monday budget review"', (m) => has(m.body, 'monday'))).toBe(2);
      const day = (iso: string) => iso.slice(0, 10);
      const first = [...messages()].sort((a, b) => a.received.localeCompare(b.received))[0];
      const received = day(first?.received ?? '');
      await expectFinds(`"received:${received}"`, (m) => day(m.received) === received);
      const [y, mo, d] = received.split('-');
      await expectFinds(`"received:${Number(mo)}/${Number(d)}/${y}"`, (m) => day(m.received) === received);
      await expectFinds(`"received>${received}"`, (m) => day(m.received) > received);
      await expectFinds(`"received:2026-01-01..${received}"`, (m) => day(m.received) <= received);
      expect(await expectFinds('"kind:email"', () => true)).toBe(messages().length);
      expect(await expectFinds('"importance:normal"', () => true)).toBe(messages().length);
    });

    it('finds an imported message by attachment name, hasAttachments, size and its decoded subject', async () => {
      const created = await importMime([
        'From: Randi Welch <randiw@fabrikam.example>',
        `To: ${owner.upn}`,
        'Subject: =?utf-8?Q?Quartalsabschluss_=E2=80=93_Pizza?=',
        'Date: Tue, 01 Sep 2026 08:00:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The figures are attached.',
        '--b',
        'Content-Type: application/pdf',
        'Content-Disposition: attachment; filename="api-catalog.pdf"',
        '',
        'JVBERi0=',
        '--b--',
        '',
      ]);
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const size = owner.messages.get(id)?.raw?.length ?? 0;
      for (const query of [
        '"pizza"',
        '"quartalsabschluss"',
        '"attachment:api-catalog.pdf"',
        '"hasAttachments:true"',
        '"from:randiw"',
        '"from:randiw@fabrikam.example"',
        '"from:welch"',
        `"size:${size}"`,
        `"size:${size - 1}..${size + 1}"`,
      ]) {
        expect(ids((await search(`${mailbox}/messages?$search=${encodeURIComponent(query)}`)).rows), query).toEqual([
          id,
        ]);
      }
      const without = await search(`${mailbox}/messages?$search="hasAttachments:false"`);
      expect(without.rows).toHaveLength(messages().length - 1);
    });

    it("answers the documented example's shape: $search with $select=sender,subject", async () => {
      // learn.microsoft.com, List messages, example 1: the answer to GET /me/messages?$select=sender,subject.
      const documented = {
        '@odata.context':
          "https://graph.microsoft.com/v1.0/$metadata#users('bb8775a4-4d8c-42cf-a1d4-4d58c2bb668f')/messages(sender,subject)",
        value: [
          {
            '@odata.etag': 'W/"CQAAABYAAADHcgC8Hl9tRZ/hc1wEUs1TAAAwR4Hg"',
            id: 'AAMkAGUAAAwTW09AAA=',
            subject: 'You have late tasks!',
            sender: { emailAddress: { name: 'Microsoft Planner', address: 'noreply@Planner.Office365.com' } },
          },
        ],
      };
      await importMime([
        'From: Microsoft Planner <noreply@Planner.Office365.com>',
        `To: ${owner.upn}`,
        'Subject: You have late tasks!',
        'Date: Wed, 02 Sep 2026 08:00:00 +0000',
        '',
        'Two tasks are late.',
        '',
      ]);
      const answer = await small.get(`${mailbox}/messages?$search="late tasks"&$select=sender,subject`);
      expect(answer.status).toBe(200);
      expect(String(answer.body['@odata.context']).split('#')[1]).toBe(
        String(documented['@odata.context'].split('#')[1]).replace(/'[^']*'/, `'${owner.id}'`),
      );
      const [row] = answer.body.value as Row[];
      const [example] = documented.value;
      expect(Object.keys(row ?? {}).sort()).toEqual(Object.keys(example ?? {}).sort());
      expect(row).toMatchObject({ subject: example?.subject, sender: example?.sender });
      expect(small.validation?.mismatches).toEqual([]);
    });

    it('refuses $filter and $orderby beside $search as Outlook does, and a search it cannot read', async () => {
      const filtered = await small.get(`${mailbox}/messages?$search="invoice"&$filter=isRead eq false`);
      expect(filtered.status).toBe(400);
      expect(filtered.body.error).toMatchObject({
        code: 'SearchWithFilter',
        message: "The query parameter '$filter' is not supported with '$search'.",
      });
      const ordered = await small.get(`${mailbox}/mailFolders/inbox/messages?$search="invoice"&$orderby=subject`);
      expect(ordered.status).toBe(400);
      expect(ordered.body.error).toMatchObject({
        code: 'SearchWithOrderBy',
        message: "The query parameter '$orderBy' is not supported with '$search'.",
      });
      for (const broken of ['"(invoice"', '"received:yesterday-ish"', '""', '"size>many"']) {
        const answer = await small.get(`${mailbox}/messages?$search=${encodeURIComponent(broken)}`);
        expect(answer.status, broken).toBe(400);
      }
    });
  });
});
