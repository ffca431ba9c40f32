/**
 * Apollo archive browsing, outside eDiscovery: a mailbox's archived mail by folder (paged, sorted,
 * filtered), one archived item with its headers, attachments and text, and the Teams archive's teams,
 * channels and chats with their messages threaded (replies under their post). Mail follows
 * eDiscovery's rule: only the mailboxes the caller may read (their own and those a proxy right gives
 * them); a chat is readable when one of its members' mailboxes is; channel messages are open to the
 * people who act for the organisation. Downloads and restores are legacy email's
 * (`fullRestoreDownload`, `restore`).
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId, page } from '../common.js';
import { TeamsArchiveNode } from '../legacy/teams.js';

/** Schema of the body of `POST /api/{tenantId}/archive/mail/browse`. */
export const ArchivedMailBrowse = s.object({
  mailboxId: s.string({ minLength: 1, maxLength: 256, description: 'The archived mailbox.' }),
  folder: s.optional(
    s.string({ maxLength: 400, description: 'Only this folder (its path, such as Inbox/Orders); default all.' }),
  ),
  search: s.optional(s.string({ maxLength: 200, description: 'Words found in the subject or the sender.' })),
  from: s.optional(s.dateTime('Sent at or after.')),
  to: s.optional(s.dateTime('Sent before.')),
  attachments: s.optional(s.boolean('Only mails with (true) or without (false) attachments.')),
  sort: s.optional(s.oneOfStrings(['subject', 'sender', 'sentAt', 'sizeBytes'], 'Default sentAt.')),
  order: s.optional(s.oneOfStrings(['asc', 'desc'], 'Default desc.')),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * Which archived mails of a mailbox to list: a folder (default all), words of the subject or sender,
 * when they were sent (`from` inclusive, `to` exclusive), with or without attachments, the order
 * (default newest first) and the page (`pageSize` at most 500).
 */
export type ArchivedMailBrowse = s.Static<typeof ArchivedMailBrowse>;

/** Schema of one mail in the answer of `POST /api/{tenantId}/archive/mail/browse`. */
export const ArchivedMail = s.object({
  itemId: s.string(),
  folder: s.string(),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  hasAttachments: s.boolean(),
});
/** An archived mail as a mailbox's list shows it: folder, subject, sender, recipients, time sent, size. */
export type ArchivedMail = s.Static<typeof ArchivedMail>;

/** Schema of an attachment of an archived mail or Teams message. */
export const ArchivedAttachment = s.object({
  name: s.string(),
  contentType: s.string(),
  sizeBytes: s.nullable(s.integer({ minimum: 0, description: 'Null when the archive holds a link only.' })),
  url: s.nullable(
    s.string({ description: "A Teams file's address in SharePoint or OneDrive (the archive keeps the link)." }),
  ),
});
/**
 * An attachment: its name, media type, size (null for a Teams file the message only links to) and,
 * for such a file, its address in Microsoft 365.
 */
export type ArchivedAttachment = s.Static<typeof ArchivedAttachment>;

/** Schema of the answer of `GET /api/{tenantId}/archive/items/{itemId}`. */
export const ArchivedItem = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams', 'chat']),
  source: s.string({ description: 'The mailbox, team or chat.' }),
  sourceName: s.string(),
  container: s.string({ description: 'The mail folder, the channel or the chat.' }),
  subject: s.string(),
  from: s.string(),
  to: s.string(),
  cc: s.string(),
  sentAt: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  attachments: s.array(ArchivedAttachment),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
});
/**
 * An archived mail or Teams message to read: where it is (by name), its subject, sender, recipients
 * (`to`, `cc`), time sent, size, attachments and its text as plain text. A mail of a mailbox the
 * caller may not read is refused with 403; a chat no member's mailbox of the caller's opens is 404.
 */
export type ArchivedItem = s.Static<typeof ArchivedItem>;

/** Schema of an archived Teams message in a thread. */
export const TeamsPost = s.object({
  itemId: s.string(),
  author: s.string({ description: "The author's name." }),
  created: s.nullable(s.dateTime()),
  subject: s.nullable(s.string()),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
  attachments: s.array(ArchivedAttachment),
});
/** An archived Teams message: author's name, time, subject (null when none), text and attachments. */
export type TeamsPost = s.Static<typeof TeamsPost>;

/** Schema of one thread in the answer of `GET /api/{tenantId}/archive/teams/threads`. */
export const TeamsThread = s.object({
  post: TeamsPost,
  replies: s.array(TeamsPost, { description: 'Oldest first.' }),
});
/** A post of a channel or chat with its replies, oldest first. */
export type TeamsThread = s.Static<typeof TeamsThread>;

/**
 * The catalogue entries of apollo archive browsing: a mailbox's mail (`browseMail`), one item
 * (`item`), the Teams archive's teams, channels and readable chats (`teams`) and a channel's or
 * chat's threads (`teamsThreads`) under `/api/{tenantId}/archive/`. {@link archiveApi} binds them.
 */
export const archiveEndpoints = defineResource('apollo', 'archive', {
  browseMail: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/archive/mail/browse',
    scope: { tenant: 'path' },
    summary: "A mailbox's archived mail, by folder",
    body: ArchivedMailBrowse,
    response: page(ArchivedMail),
    refusals: { 403: "The caller may not read the mailbox's archive (no proxy right)." },
  },
  item: {
    method: 'GET',
    path: '/api/{tenantId}/archive/items/{itemId}',
    scope: { tenant: 'path' },
    summary: 'An archived mail or Teams message with its headers and attachments',
    params: s.object({ tenantId: s.string({ minLength: 1, maxLength: 200 }), itemId: ArchiveItemId }),
    response: ArchivedItem,
    refusals: { 403: 'A mail of a mailbox the caller may not read (no proxy right).' },
  },
  teams: {
    method: 'GET',
    path: '/api/{tenantId}/archive/teams',
    scope: { tenant: 'path' },
    summary: 'Archived teams with their channels, and the archived chats the caller may read',
    response: s.array(TeamsArchiveNode),
  },
  teamsThreads: {
    method: 'GET',
    path: '/api/{tenantId}/archive/teams/threads',
    scope: { tenant: 'path' },
    summary: "A channel's or chat's archived messages, threaded",
    query: s.object({
      source: s.string({ minLength: 1, maxLength: 256, description: 'The team or the chat.' }),
      channel: s.optional(s.string({ maxLength: 400, description: "A team's channel, by its name." })),
      page: s.optional(s.integer({ minimum: 1 })),
      pageSize: s.optional(s.integer({ minimum: 1, maximum: 100, description: 'Threads per page; default 20.' })),
    }),
    response: page(TeamsThread),
    refusals: { 404: 'The team, channel or chat has nothing archived the caller may read.' },
  },
});

/**
 * Binds apollo archive browsing to a transport: a mailbox's archived mail by folder, one archived
 * item, the Teams archive's teams, channels and chats, and their threads. The same methods as
 * `client.apollo.archive`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function archiveApi(transport: Transport) {
  return bindResource(transport, archiveEndpoints);
}
