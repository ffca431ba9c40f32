/**
 * Apollo eDiscovery: search across archived mail and Teams messages, an item's preview. Not in
 * product-spec.md section 7 (the /ediscovery/portal screen is declared without its calls); the
 * reference server adds these. Mail is searched only in the mailboxes the caller may read: their own
 * and those a proxy right gives them (directly or through a group).
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId } from '../common.js';

export const EdiscoverySearch = s.object({
  query: s.string({
    maxLength: 1000,
    description: 'Words, "phrases", AND/OR/NOT, from:, to:, subject:, has:attachment.',
  }),
  kinds: s.optional(s.array(s.oneOfStrings(['mail', 'teams']), { uniqueItems: true, minItems: 1 })),
  mailboxes: s.optional(s.array(s.string({ minLength: 1 }), { description: 'Only these mailboxes.' })),
  teams: s.optional(s.array(s.string({ minLength: 1 }), { description: 'Only these teams.' })),
  from: s.optional(s.dateTime('Sent at or after.')),
  to: s.optional(s.dateTime('Sent before.')),
  sort: s.optional(s.oneOfStrings(['relevance', 'date'])),
  order: s.optional(s.oneOfStrings(['asc', 'desc'])),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
export type EdiscoverySearch = s.Static<typeof EdiscoverySearch>;

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
export type EdiscoveryHit = s.Static<typeof EdiscoveryHit>;

export const EdiscoveryResult = s.object({
  items: s.array(EdiscoveryHit),
  total: s.integer({ minimum: 0, description: 'Hits over all pages.' }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
  searchedMailboxes: s.integer({ minimum: 0, description: 'Mailboxes the caller may read.' }),
});
export type EdiscoveryResult = s.Static<typeof EdiscoveryResult>;

export const EdiscoveryPreview = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams']),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  body: s.string({ description: 'The text of the mail or message.' }),
});
export type EdiscoveryPreview = s.Static<typeof EdiscoveryPreview>;

/** A saved search: its name and criteria; its results are found again when read or exported. */
export const EdiscoveryCase = s.object({
  caseId: s.string(),
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
  createdBy: s.string(),
  createdAt: s.dateTime(),
  hits: s.integer({ minimum: 0, description: 'Hits when the case was saved.' }),
});
export type EdiscoveryCase = s.Static<typeof EdiscoveryCase>;

export const EdiscoveryCaseCreate = s.object({
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
});
export type EdiscoveryCaseCreate = s.Static<typeof EdiscoveryCaseCreate>;

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
  },
  exportCase: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/export',
    summary: "A case's results: mail as .eml, Teams messages as .json, and manifest.csv, in a ZIP",
    responseKind: 'blob',
    contentTypes: ['application/zip'],
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function ediscoveryApi(transport: Transport) {
  return bindResource(transport, ediscoveryEndpoints);
}
