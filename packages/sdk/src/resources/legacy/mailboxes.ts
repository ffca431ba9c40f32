/** Legacy mailboxes: archived mailboxes, the largest ones, their metadata and the CSV download. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { listQueryProperties, page } from '../common.js';

/** An archived mailbox: its name, size, and whether it is the primary mailbox or its Exchange Online archive. */
export const Mailbox = s.object({
  mailboxId: s.string(),
  name: s.string(),
  email: s.string(),
  sizeBytes: s.integer({ minimum: 0 }),
  kind: s.oneOfStrings(['primary', 'onlineArchive'], 'Primary mailbox or Exchange Online archive.'),
  items: s.integer({ minimum: 0 }),
  held: s.integer({ minimum: 0, description: 'Archived items an eDiscovery case on legal hold keeps.' }),
  lastArchived: s.nullable(s.dateTime()),
});
/**
 * An archived mailbox: its name, address, primary mailbox or Exchange Online archive, its archived
 * items and their size, how many of them a legal hold keeps (`held`), and when it was last archived.
 */
export type Mailbox = s.Static<typeof Mailbox>;

/** Schema of the answer of `GET /archive/mailbox-meta`. */
export const MailboxMeta = s.object({
  mailboxId: s.string(),
  folders: s.array(
    s.object({ path: s.string(), items: s.integer({ minimum: 0 }), sizeBytes: s.integer({ minimum: 0 }) }),
  ),
  oldest: s.nullable(s.dateTime()),
  newest: s.nullable(s.dateTime()),
});
/**
 * An archived mailbox's folders, each with its item count and size in bytes, and the dates of its
 * oldest and newest archived items (null while it has none).
 */
export type MailboxMeta = s.Static<typeof MailboxMeta>;

/**
 * The catalogue entries of legacy mailboxes: the archived mailbox list, the largest ones, a mailbox's
 * folders and the list as CSV. {@link mailboxesApi} binds them.
 */
export const mailboxesEndpoints = defineResource('legacy', 'mailboxes', {
  list: {
    method: 'GET',
    path: '/archive/mailboxes/{workerIp}/{indexIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp', index: 'indexIp' } },
    summary: 'Archived mailboxes',
    query: s.object(listQueryProperties),
    response: page(Mailbox),
  },
  top: {
    method: 'GET',
    path: '/mailboxes/top',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'The largest archived mailboxes (10 by default)',
    query: s.object({
      workerIp: s.string({ minLength: 1 }),
      limit: s.optional(s.integer({ minimum: 1, maximum: 100 })),
    }),
    response: s.array(Mailbox),
  },
  meta: {
    method: 'GET',
    path: '/archive/mailbox-meta',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: "A mailbox's archived folders",
    query: s.object({ workerIp: s.string({ minLength: 1 }), mailboxId: s.string({ minLength: 1 }) }),
    response: MailboxMeta,
  },
  downloadCsv: {
    method: 'GET',
    path: '/archive/downloadCSV/{workerIp}/{indexIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp', index: 'indexIp' } },
    summary: 'The mailbox list as CSV',
    responseKind: 'blob',
    contentTypes: ['text/csv'],
  },
});

/**
 * Binds legacy mailboxes to a transport: archived mailboxes (paged, by worker and archive index), the
 * largest ones (10 by default), a mailbox's archived folders, and the mailbox list as a CSV download.
 * The same methods as `client.legacy.mailboxes`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function mailboxesApi(transport: Transport) {
  return bindResource(transport, mailboxesEndpoints);
}
