/**
 * Mailboxes: folders (by id or well-known name: inbox, sentitems, archive, deleteditems, drafts,
 * junkemail, msgfolderroot) and child folders, messages of a folder or of the mailbox (with Outlook's
 * `$search`), one message, message delta, a message as MIME ($value), and the writes a restore makes
 * (new folders, messages imported from MIME, their RFC 2047 subjects decoded).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SimMailFolder, SimMessage, SimTenant, SimUser } from '../model.js';
import { directoryNotFound, userOf } from './directory.js';
import { parseMessageSearch, type SearchableMessage } from './mail-search.js';
import { decodeEncodedWords, parseMailbox, parseMailboxList } from './mime.js';
import { delta, graphError, jsonBody, type ListOptions, page, type SimResponse } from './odata.js';
import { type GraphCall, type GraphRoute, type RouteOptions, route } from './router.js';

/** Outlook pages messages and folders up to 1,000. */
const OUTLOOK: ListOptions = { max: 1000 };

/** What Graph answers a message's `$value` (its MIME) with, as Microsoft documents it. */
const MIME_CONTENT_TYPE = 'text/plain';

/** Outlook's not-found, for any item of a mailbox (messages, folders, events, contacts). */
export const itemNotFound = () =>
  graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

/** The mailbox of the path's user, or Graph's answer for an unknown user or an account without one. */
function mailbox(call: GraphCall): SimUser | SimResponse {
  const user = userOf(call.tenant, call.params.user ?? '');
  if (!user) return directoryNotFound(call.params.user ?? '');
  if (!user.hasMailbox) {
    return graphError(
      404,
      'MailboxNotEnabledForRESTAPI',
      'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
    );
  }
  return user;
}

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value;

/** A folder of the mailbox by id or well-known name; `msgfolderroot` is the mailbox's root. */
function folderOf(user: SimUser, key: string): SimMailFolder | undefined {
  const lower = key.toLowerCase();
  if (lower === 'msgfolderroot' || key === user.rootFolderId) {
    return { id: user.rootFolderId, name: 'Top of Information Store', parentId: null, wellKnownName: 'msgfolderroot' };
  }
  return user.folders.find((f) => f.id === key || f.wellKnownName === lower);
}

/** A route on a user's mailbox: the handler runs only for a user with one. */
export const onMailbox = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  route(
    method,
    patterns,
    (call) => {
      const user = mailbox(call);
      return isAnswer(user) ? user : handle(call, user);
    },
    options,
  );

/** A route on one folder of a mailbox (`:folder` by id or well-known name). */
const onFolder = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser, folder: SimMailFolder) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  onMailbox(
    method,
    patterns,
    (call, user) => {
      const folder = folderOf(user, call.params.folder ?? '');
      return folder ? handle(call, user, folder) : itemNotFound();
    },
    options,
  );

/** Whether a message has been read: a fixed mix, a third unread. */
const isRead = (message: SimMessage) => (createHash('sha256').update(message.id).digest()[0] ?? 0) % 3 !== 0;

const messagesIn = (user: SimUser, folderId: string) =>
  [...user.messages.values()].filter((m) => m.folderId === folderId);

function folderJson(user: SimUser, f: SimMailFolder) {
  const messages = messagesIn(user, f.id);
  const root = f.id === user.rootFolderId;
  return {
    id: f.id,
    displayName: f.name,
    parentFolderId: root
      ? createHash('sha256').update(`${user.id}|root-parent`).digest('base64url')
      : (f.parentId ?? user.rootFolderId),
    childFolderCount: user.folders.filter((c) => (root ? c.parentId === null : c.parentId === f.id)).length,
    unreadItemCount: messages.filter((m) => !isRead(m)).length,
    totalItemCount: messages.length,
    isHidden: false,
  };
}

/** An address of the tenant with its display name, or as a header gives it. */
function mailboxOf(tenant: SimTenant, text: string) {
  const parsed = parseMailbox(text);
  const user = tenant.users.find((u) => u.upn.toLowerCase() === parsed.address.toLowerCase());
  return { name: user && parsed.name === parsed.address ? user.displayName : parsed.name, address: parsed.address };
}

function messageJson(tenant: SimTenant, m: SimMessage) {
  const from = { emailAddress: mailboxOf(tenant, m.from) };
  const to = parseMailboxList(m.to).map((r) => ({ emailAddress: mailboxOf(tenant, `${r.name} <${r.address}>`) }));
  const sent = new Date(Date.parse(m.received) - 60_000).toISOString();
  const text = m.body.replace(/\s+/g, ' ').trim();
  return {
    '@odata.etag': `W/"${m.changed}-${m.id.slice(0, 8)}"`,
    id: m.id,
    createdDateTime: m.received,
    lastModifiedDateTime: m.received,
    changeKey: Buffer.from(`${m.id}:${m.changed}`).toString('base64').slice(0, 40),
    categories: [],
    receivedDateTime: m.received,
    sentDateTime: sent,
    hasAttachments: m.hasAttachments ?? false,
    internetMessageId: m.internetMessageId ?? `<${m.id}@${tenant.domain}>`,
    subject: m.subject,
    bodyPreview: text.slice(0, 255),
    importance: 'normal',
    parentFolderId: m.folderId,
    conversationId: createHash('sha256')
      .update(m.subject.replace(/^(re|aw|fw|wg):\s*/i, ''))
      .digest('base64')
      .slice(0, 43),
    isDeliveryReceiptRequested: false,
    isReadReceiptRequested: false,
    isRead: isRead(m),
    isDraft: false,
    webLink: `https://outlook.office365.com/owa/?ItemID=${encodeURIComponent(m.id)}&exvsurl=1&viewmodel=ReadMessageItem`,
    inferenceClassification: 'focused',
    body: { contentType: 'text', content: m.body },
    sender: from,
    from,
    toRecipients: to,
    ccRecipients: [],
    bccRecipients: [],
    replyTo: [],
    flag: { flagStatus: 'notFlagged' },
  };
}

/** A message's MIME: as imported, or made from its parts. */
function mimeOf(tenant: SimTenant, message: SimMessage): Uint8Array {
  if (message.raw) return message.raw;
  const mime = [
    `From: ${message.from}`,
    `To: ${message.to}`,
    `Subject: ${message.subject}`,
    `Date: ${new Date(message.received).toUTCString()}`,
    `Message-ID: <${message.id}@${tenant.domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    message.body,
    '',
  ].join('\r\n');
  return Buffer.from(mime);
}

/** The names of the files an imported message carries (`filename=` of its parts). */
function attachmentNames(message: SimMessage): string[] {
  if (!message.raw) return [];
  const text = Buffer.from(message.raw).toString('utf8');
  return [...text.matchAll(/filename\*?=\s*"?([^";\r\n]+)"?/gi)].map((m) => decodeEncodedWords(m[1] ?? ''));
}

type MessageJson = ReturnType<typeof messageJson>;

/** What `$search` looks at: the answer's names and addresses, and the message's attachments and size. */
function searchable(tenant: SimTenant, message: SimMessage, json: MessageJson): SearchableMessage {
  return {
    subject: json.subject,
    body: json.body.content,
    from: [json.from.emailAddress],
    to: json.toRecipients.map((r) => r.emailAddress),
    cc: [],
    bcc: [],
    attachments: attachmentNames(message),
    hasAttachments: json.hasAttachments,
    importance: json.importance,
    received: json.receivedDateTime,
    sent: json.sentDateTime,
    size: mimeOf(tenant, message).length,
  };
}

/** Outlook answers at most this many messages to a `$search`. */
const SEARCH_LIMIT = 1000;

/**
 * A list of messages, with `$search` as Outlook answers it: the matches newest sent first, at most
 * 1,000, paged like any list; no ConsistencyLevel needed; `$filter` or `$orderby` beside it refused
 * with Outlook's codes.
 */
function messageList({ context, request, tenant }: GraphCall, user: SimUser, messages: SimMessage[]): SimResponse {
  if (request.query.has('$search')) {
    if (request.query.has('$filter'))
      return graphError(400, 'SearchWithFilter', "The query parameter '$filter' is not supported with '$search'.");
    if (request.query.has('$orderby'))
      return graphError(400, 'SearchWithOrderBy', "The query parameter '$orderBy' is not supported with '$search'.");
  }
  const search = (value: string, rows: MessageJson[]) => {
    const test = parseMessageSearch(value);
    return rows
      .filter((row) => {
        const message = user.messages.get(row.id);
        return message !== undefined && test(searchable(tenant, message, row));
      })
      .sort((a, b) => Date.parse(b.sentDateTime) - Date.parse(a.sentDateTime))
      .slice(0, SEARCH_LIMIT);
  };
  return page(context, request, messages, (m) => messageJson(tenant, m), { ...OUTLOOK, search });
}

export const mailRoutes: GraphRoute[] = [
  ...onMailbox('GET', 'users/:user/mailFolders', ({ context, request }, user) =>
    page(
      context,
      request,
      user.folders.filter((f) => f.parentId === null),
      (f) => folderJson(user, f),
      OUTLOOK,
    ),
  ),
  ...onFolder('GET', 'users/:user/mailFolders/:folder', (_call, user, folder) => ({
    status: 200,
    json: folderJson(user, folder),
  })),
  ...onFolder('GET', 'users/:user/mailFolders/:folder/childFolders', ({ context, request }, user, folder) =>
    page(
      context,
      request,
      user.folders.filter((f) => (folder.id === user.rootFolderId ? f.parentId === null : f.parentId === folder.id)),
      (f) => folderJson(user, f),
      OUTLOOK,
    ),
  ),
  ...onFolder(
    'GET',
    'users/:user/mailFolders/:folder/messages/delta',
    ({ context, request, tenant }, user, folder) =>
      delta(context, request, tenant, {
        resource: `mail:${user.id}:${folder.id}`,
        style: 'outlook',
        max: 1000,
        changes: (after) => messagesIn(user, folder.id).filter((x) => x.changed > after),
        map: (x) => messageJson(tenant, x),
      }),
    { context: 'Collection(microsoft.graph.message)', functionParameters: [] },
  ),
  ...onFolder('GET', 'users/:user/mailFolders/:folder/messages', (call, user, folder) =>
    messageList(call, user, messagesIn(user, folder.id)),
  ),
  ...onMailbox('GET', 'users/:user/messages', (call, user) => messageList(call, user, [...user.messages.values()])),
  ...onMailbox(
    'GET',
    ['users/:user/messages/:message', 'users/:user/mailFolders/:folder/messages/:message'],
    ({ tenant, params }, user) => {
      const message = user.messages.get(params.message ?? '');
      if (!message || (params.folder !== undefined && folderOf(user, params.folder)?.id !== message.folderId))
        return itemNotFound();
      return { status: 200, json: messageJson(tenant, message) };
    },
  ),
  ...onMailbox(
    'POST',
    ['users/:user/mailFolders', 'users/:user/mailFolders/:folder/childFolders'],
    ({ request, params }, user) => {
      const parent = params.folder === undefined ? undefined : folderOf(user, params.folder);
      if (params.folder !== undefined && !parent) return itemNotFound();
      const parentId = parent && parent.id !== user.rootFolderId ? parent.id : null;
      const name = String(jsonBody<{ displayName: unknown }>(request).displayName ?? '');
      if (!name) return graphError(400, 'ErrorInvalidRequest', 'displayName is required.');
      if (user.folders.some((f) => f.parentId === parentId && f.name.toLowerCase() === name.toLowerCase()))
        return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
      const folder = { id: `f-${randomBytes(8).toString('hex')}`, name, parentId };
      user.folders.push(folder);
      return { status: 201, json: folderJson(user, folder) };
    },
  ),
  ...onFolder('POST', 'users/:user/mailFolders/:folder/messages', ({ request, tenant }, user, folder) => {
    // Graph takes a MIME message as base64 text.
    const raw = Buffer.from(request.body.toString('utf8').trim(), 'base64');
    const text = raw.toString('utf8');
    const head = (text.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
    const header = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
    if (!header('Subject') && !header('From'))
      return graphError(400, 'ErrorMimeContentInvalid', 'The MIME content is not valid.');
    tenant.clock += 1;
    const id = `imported-${randomBytes(8).toString('hex')}`;
    const date = Date.parse(header('Date'));
    const contentType = header('Content-Type');
    user.messages.set(id, {
      id,
      folderId: folder.id,
      subject: decodeEncodedWords(header('Subject')),
      from: header('From'),
      to: header('To'),
      body: text
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n\n'),
      received: new Date(Number.isNaN(date) ? Date.now() : date).toISOString(),
      changed: tenant.clock,
      raw,
      ...(header('Message-ID') ? { internetMessageId: header('Message-ID') } : {}),
      hasAttachments: /^multipart\/mixed/i.test(contentType) && /content-disposition:\s*attachment/i.test(text),
    });
    const message = user.messages.get(id);
    return message ? { status: 201, json: messageJson(tenant, message) } : itemNotFound();
  }),
  // The MIME of a message. Graph labels it text/plain (not message/rfc822), so that its clients read it
  // as text: the Graph client's get() gives a string.
  ...onMailbox('GET', 'users/:user/messages/:message/$value', ({ tenant, params }, user) => {
    const message = user.messages.get(params.message ?? '');
    if (!message) return itemNotFound();
    return { status: 200, headers: { 'content-type': MIME_CONTENT_TYPE }, bytes: mimeOf(tenant, message) };
  }),
];
