/**
 * Mailboxes: folders and child folders, messages by delta, a message as MIME ($value), and the writes
 * a restore makes (new folders, messages imported from MIME).
 */
import { randomBytes } from 'node:crypto';
import type { SimUser } from '../model.js';
import { userOf } from './directory.js';
import { delta, graphError, jsonBody, notFound, page, type SimResponse } from './odata.js';
import { type GraphCall, type GraphRoute, route } from './router.js';

/** The mailbox of the path's user, or Graph's answer for an unknown user or an account without one. */
function mailbox(call: GraphCall): SimUser | SimResponse {
  const user = userOf(call.tenant, call.params.user ?? '');
  if (!user) return notFound();
  if (!user.hasMailbox) {
    return graphError(
      404,
      'MailboxNotEnabledForRESTAPI',
      'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
    );
  }
  return user;
}

const isAnswer = (value: SimUser | SimResponse): value is SimResponse => 'status' in value;

/** A route on a user's mailbox: the handler runs only for a user with one. */
const onMailbox = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser) => SimResponse,
): GraphRoute[] =>
  route(method, patterns, (call) => {
    const user = mailbox(call);
    return isAnswer(user) ? user : handle(call, user);
  });

const folderJson = (user: SimUser, f: SimUser['folders'][number]) => ({
  id: f.id,
  displayName: f.name,
  childFolderCount: user.folders.filter((c) => c.parentId === f.id).length,
});

export const mailRoutes: GraphRoute[] = [
  ...onMailbox('GET', 'users/:user/mailFolders', ({ context, request }, user) =>
    page(
      context,
      request,
      user.folders.filter((f) => f.parentId === null),
      (f) => folderJson(user, f),
    ),
  ),
  ...onMailbox('GET', 'users/:user/mailFolders/:folder/childFolders', ({ context, request, params }, user) =>
    page(
      context,
      request,
      user.folders.filter((f) => f.parentId === params.folder),
      (f) => folderJson(user, f),
    ),
  ),
  ...onMailbox(
    'GET',
    'users/:user/mailFolders/:folder/messages/delta',
    ({ context, request, tenant, params }, user) => {
      const folder = user.folders.find((f) => f.id === params.folder);
      if (!folder) return notFound();
      return delta(
        context,
        request,
        tenant,
        (after) => [...user.messages.values()].filter((x) => x.folderId === folder.id && x.changed > after),
        (x) => ({
          id: x.id,
          subject: x.subject,
          receivedDateTime: x.received,
          from: { emailAddress: { address: x.from } },
        }),
      );
    },
  ),
  ...onMailbox(
    'POST',
    ['users/:user/mailFolders', 'users/:user/mailFolders/:folder/childFolders'],
    ({ request, params }, user) => {
      const parentId = params.folder ?? null;
      if (parentId && !user.folders.some((f) => f.id === parentId)) return notFound();
      const name = String(jsonBody<{ displayName: unknown }>(request).displayName ?? '');
      if (!name) return graphError(400, 'ErrorInvalidRequest', 'displayName is required.');
      if (user.folders.some((f) => f.parentId === parentId && f.name.toLowerCase() === name.toLowerCase()))
        return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
      const folder = { id: `f-${randomBytes(8).toString('hex')}`, name, parentId };
      user.folders.push(folder);
      return { status: 201, json: { id: folder.id, displayName: name, childFolderCount: 0 } };
    },
  ),
  ...onMailbox('POST', 'users/:user/mailFolders/:folder/messages', ({ request, tenant, params }, user) => {
    const folder = user.folders.find((f) => f.id === params.folder);
    if (!folder) return notFound();
    // Graph takes a MIME message as base64 text.
    const raw = Buffer.from(request.body.toString('utf8').trim(), 'base64');
    const text = raw.toString('utf8');
    const header = (name: string) =>
      new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(text.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim() ?? '';
    if (!header('Subject') && !header('From'))
      return graphError(400, 'ErrorMimeContentInvalid', 'The MIME content is not valid.');
    tenant.clock += 1;
    const id = `imported-${randomBytes(8).toString('hex')}`;
    const date = Date.parse(header('Date'));
    user.messages.set(id, {
      id,
      folderId: folder.id,
      subject: header('Subject'),
      from: header('From'),
      to: header('To'),
      body: text
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n\n'),
      received: new Date(Number.isNaN(date) ? Date.now() : date).toISOString(),
      changed: tenant.clock,
      raw,
    });
    return { status: 201, json: { id, subject: header('Subject'), parentFolderId: folder.id } };
  }),
  ...onMailbox('GET', 'users/:user/messages/:message/$value', ({ tenant, params }, user) => {
    const message = user.messages.get(params.message ?? '');
    if (!message) return notFound();
    if (message.raw) return { status: 200, headers: { 'content-type': 'message/rfc822' }, bytes: message.raw };
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
    return { status: 200, headers: { 'content-type': 'message/rfc822' }, bytes: Buffer.from(mime) };
  }),
];
