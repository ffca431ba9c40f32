/** Legacy mailboxes: archived mailboxes, the largest ones, their metadata and the CSV download. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { listQueryProperties, page } from '../common.js';

/** An archived mailbox (product-spec.md section 3: name, size, primary or Exchange Online archive). */
export const Mailbox = s.object({
  mailboxId: s.string(),
  name: s.string(),
  email: s.string(),
  sizeBytes: s.integer({ minimum: 0 }),
  kind: s.oneOfStrings(['primary', 'onlineArchive'], 'Primary mailbox or Exchange Online archive.'),
  items: s.integer({ minimum: 0 }),
  lastArchived: s.nullable(s.dateTime()),
});
export type Mailbox = s.Static<typeof Mailbox>;

export const MailboxMeta = s.object({
  mailboxId: s.string(),
  folders: s.array(
    s.object({ path: s.string(), items: s.integer({ minimum: 0 }), sizeBytes: s.integer({ minimum: 0 }) }),
  ),
  oldest: s.nullable(s.dateTime()),
  newest: s.nullable(s.dateTime()),
});
export type MailboxMeta = s.Static<typeof MailboxMeta>;

export const mailboxesEndpoints = defineResource('legacy', 'mailboxes', {
  list: {
    method: 'GET',
    path: '/archive/mailboxes/{workerIp}/{indexIp}',
    summary: 'Archived mailboxes',
    query: s.object(listQueryProperties),
    response: page(Mailbox),
  },
  top: {
    method: 'GET',
    path: '/mailboxes/top',
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
    summary: "A mailbox's archived folders",
    query: s.object({ workerIp: s.string({ minLength: 1 }), mailboxId: s.string({ minLength: 1 }) }),
    response: MailboxMeta,
  },
  downloadCsv: {
    method: 'GET',
    path: '/archive/downloadCSV/{workerIp}/{indexIp}',
    summary: 'The mailbox list as CSV',
    responseKind: 'blob',
    contentTypes: ['text/csv'],
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function mailboxesApi(transport: Transport) {
  return bindResource(transport, mailboxesEndpoints);
}
