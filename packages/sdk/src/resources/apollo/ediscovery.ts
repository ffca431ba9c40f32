/**
 * Apollo eDiscovery: search across archived mail and Teams messages, an item's preview. An
 * addition to the portal's original contract (which names the /ediscovery/portal screen without its
 * calls). Mail is searched only in the mailboxes the caller may read: their own
 * and those a proxy right gives them (directly or through a group).
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId } from '../common.js';

/** Schema of the body of `POST /api/{tenantId}/ediscovery/search`, and of a case's saved search. */
export const EdiscoverySearch = s.object({
  query: s.string({
    maxLength: 1000,
    description: 'Words, "phrases", AND/OR/NOT, from:, to:, subject:, has:attachment.',
  }),
  kinds: s.optional(s.array(s.oneOfStrings(['mail', 'teams']), { uniqueItems: true, minItems: 1 })),
  mailboxes: s.optional(s.array(s.string({ minLength: 1 }), { description: 'Only these mailboxes.' })),
  teams: s.optional(s.array(s.string({ minLength: 1 }), { description: 'Only these teams.' })),
  from: s.optional(s.dateTime('Sent at or after.')),
  to: s.optional(s.dateTime('Sent before. Not before `from`: a range given backwards is refused with 400.')),
  sort: s.optional(s.oneOfStrings(['relevance', 'date'])),
  order: s.optional(s.oneOfStrings(['asc', 'desc'])),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * An eDiscovery search over archived mail and Teams messages: the query (words, "phrases", AND/OR/NOT,
 * `from:`, `to:`, `subject:`, `has:attachment`; at most 1000 characters), which kinds, mailboxes and
 * teams to search (default all the caller may read), a time range (`from` inclusive, `to` exclusive),
 * the order (default by relevance) and the page (`pageSize` at most 500).
 */
export type EdiscoverySearch = s.Static<typeof EdiscoverySearch>;

/** Schema of one hit in the answer of `POST /api/{tenantId}/ediscovery/search`. */
export const EdiscoveryHit = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams']),
  source: s.string({ description: 'The mailbox, team or chat.' }),
  sourceName: s.string(),
  container: s.string({ description: 'The mail folder path or the channel; empty for a chat.' }),
  chat: s.optional(s.boolean('A Teams chat message: source is the chat, sourceName its topic or members.')),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  hasAttachments: s.boolean(),
  snippet: s.string({
    description:
      'HTML: the text around the hits (or, for a search without words, the start of the text), with every ' +
      '& < > " \' of the archived text escaped as &amp; &lt; &gt; &quot; &#39;; its only markup is <mark> and ' +
      '</mark> around each hit. Insert it as HTML as it is, or split it at <mark> and </mark> and decode those ' +
      'five entities to show it as text; never unescape it and then insert it as HTML.',
  }),
});
/**
 * One archived mail or Teams message that matches a search: where it is (mailbox, team or chat, and the
 * folder or channel), its subject, sender, recipients, time sent and size in bytes, and a snippet of
 * escaped HTML with the hits in `<mark>` (insert it as HTML as it is, never unescaped). `itemId` opens
 * it with `preview`.
 */
export type EdiscoveryHit = s.Static<typeof EdiscoveryHit>;

/** Schema of the answer of `POST /api/{tenantId}/ediscovery/search`. */
export const EdiscoveryResult = s.object({
  items: s.array(EdiscoveryHit),
  total: s.integer({ minimum: 0, description: 'Hits over all pages.' }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
  searchedMailboxes: s.integer({ minimum: 0, description: 'Mailboxes the caller may read.' }),
});
/**
 * One page of a search's hits, with the hits over all pages (`total`) and how many mailboxes were
 * searched: the caller's own and those a proxy right lets them read.
 */
export type EdiscoveryResult = s.Static<typeof EdiscoveryResult>;

/** Schema of the answer of `GET /api/{tenantId}/ediscovery/items/{itemId}`. */
export const EdiscoveryPreview = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams']),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  body: s.string({ description: 'The text of the mail or message.' }),
});
/**
 * An archived mail or Teams message with its full text (`body`, plain text), subject, sender,
 * recipients and time sent. A mail of a mailbox the caller may not read is refused with 403.
 */
export type EdiscoveryPreview = s.Static<typeof EdiscoveryPreview>;

/** Schema of a case's legal hold. */
export const EdiscoveryHold = s.object({
  heldAt: s.dateTime(),
  heldBy: s.string({ description: 'Who put the case on hold.' }),
  items: s.integer({ minimum: 0, description: 'Archived items the hold keeps now.' }),
});
/**
 * A case's legal hold: since when (`heldAt`), by whom (`heldBy`), and how many archived items it keeps
 * (`items`): those the case's search found, in what the holder could read, when the case was held,
 * and those archived since that match it in the same mailboxes, chats and teams. No deletion job
 * removes a held item while the case is held.
 */
export type EdiscoveryHold = s.Static<typeof EdiscoveryHold>;

/** A saved search: its name and criteria; its results are found again when read or exported. */
export const EdiscoveryCase = s.object({
  caseId: s.string(),
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
  createdBy: s.string(),
  createdAt: s.dateTime(),
  hits: s.integer({ minimum: 0, description: 'Hits when the case was saved.' }),
  hold: s.nullable(EdiscoveryHold),
});
/**
 * A saved search (a case): its name, criteria, who saved it and when, the hits when saved, and its
 * legal hold (null while it is not held).
 */
export type EdiscoveryCase = s.Static<typeof EdiscoveryCase>;

/** Schema of the body of `POST /api/{tenantId}/ediscovery/cases`. */
export const EdiscoveryCaseCreate = s.object({
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
});
/**
 * A search to save as a case, with the case's name (1 to 120 characters, unique in the tenant: a taken
 * name is refused with 409).
 */
export type EdiscoveryCaseCreate = s.Static<typeof EdiscoveryCaseCreate>;

/**
 * The catalogue entries of apollo eDiscovery: `search`, `preview` and the cases (`cases`, `createCase`,
 * `getCase`, `deleteCase`, `exportCase`, and their legal hold: `holdCase`, `releaseCase`) under
 * `/api/{tenantId}/ediscovery/`. {@link ediscoveryApi} binds them.
 */
export const ediscoveryEndpoints = defineResource('apollo', 'ediscovery', {
  search: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/ediscovery/search',
    summary: 'Search archived mail and Teams messages',
    body: EdiscoverySearch,
    response: EdiscoveryResult,
  },
  preview: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/items/{itemId}',
    summary: "An archived item's text",
    params: s.object({ tenantId: s.string({ minLength: 1, maxLength: 200 }), itemId: ArchiveItemId }),
    response: EdiscoveryPreview,
  },
  cases: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases',
    summary: 'Saved searches (cases)',
    response: s.array(EdiscoveryCase),
  },
  createCase: {
    method: 'POST',
    path: '/api/{tenantId}/ediscovery/cases',
    summary: 'Save a search as a case',
    body: EdiscoveryCaseCreate,
    response: EdiscoveryCase,
    successStatus: 201,
    refusals: { 409: 'The tenant has a case of this name.' },
  },
  getCase: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}',
    summary: 'One case',
    response: EdiscoveryCase,
  },
  deleteCase: {
    method: 'DELETE',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}',
    summary: 'Delete a case (the archive keeps its items)',
    refusals: { 409: 'The case is on legal hold (code caseOnLegalHold): release it first.' },
  },
  holdCase: {
    method: 'POST',
    // Holding a held case changes nothing: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/hold',
    summary: "Put a case on legal hold: no deletion job removes its search's items until it is released",
    response: EdiscoveryCase,
  },
  releaseCase: {
    method: 'DELETE',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/hold',
    summary: "Release a case's legal hold: deletion jobs may remove its items again",
    response: EdiscoveryCase,
  },
  exportCase: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/export',
    summary: "A case's results: mail as .eml, Teams messages as .json, and manifest.csv, in a ZIP",
    responseKind: 'blob',
    contentTypes: ['application/zip'],
  },
});

/**
 * Binds apollo eDiscovery to a transport: searching archived mail and Teams messages, an item's text,
 * and saved searches (cases) with their ZIP export (mail as .eml, Teams messages as .json, and
 * manifest.csv). The same methods as `client.apollo.ediscovery`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function ediscoveryApi(transport: Transport) {
  return bindResource(transport, ediscoveryEndpoints);
}
