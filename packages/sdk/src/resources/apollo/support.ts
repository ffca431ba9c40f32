/**
 * Apollo support: a support request from the /account/support form. An addition to the portal's original
 * contract (which names the screen without its calls): the reference server stores the request and
 * mails it to the support address with a copy to the requester. The contacts the page shows come
 * from the server's configuration, so the page names the address requests really go to.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

/** The areas a support request is about, in the order the form offers them. */
export const SUPPORT_AREAS = [
  'signIn',
  'backup',
  'archive',
  'teams',
  'dataManagement',
  'ediscovery',
  'reports',
  'configuration',
  'other',
] as const;
/** Schema of the area a support request is about. */
export const SupportArea = s.oneOfStrings(SUPPORT_AREAS);
/**
 * The part of the portal a support request is about: `signIn`, `backup`, `archive`, `teams`,
 * `dataManagement`, `ediscovery`, `reports`, `configuration` or `other`.
 */
export type SupportArea = s.Static<typeof SupportArea>;

/** Schema of the body of `POST /api/support-requests`. */
export const SupportRequestCreate = s.object({
  subject: s.string({ minLength: 1, maxLength: 200 }),
  area: SupportArea,
  message: s.string({ minLength: 1, maxLength: 5000 }),
  phone: s.optional(s.string({ maxLength: 40, description: 'A number to call back, if wanted.' })),
});
/**
 * A support request from the /account/support form: subject (at most 200 characters), area, message (at
 * most 5000 characters) and, optionally, a phone number to call back.
 */
export type SupportRequestCreate = s.Static<typeof SupportRequestCreate>;

/** Schema of the answer of `POST /api/support-requests`. */
export const SupportRequest = s.object({
  requestId: s.string(),
  reference: s.string({ description: 'Quoted in mails about the request, such as SR-20261123-0001.' }),
  createdAt: s.dateTime(),
});
/**
 * A sent support request: its id, the reference quoted in mails about it (such as `SR-20261123-0001`)
 * and when it was made.
 */
export type SupportRequest = s.Static<typeof SupportRequest>;

/** Schema of the answer of `GET /api/support-contacts`. */
export const SupportContacts = s.object({
  email: s.string({ description: 'Where support requests are mailed (SUPPORT_EMAIL).' }),
  phone: s.string({ description: 'The support line (SUPPORT_PHONE).' }),
});
/** The support team's mail address (where requests go) and phone line, as the server is configured. */
export type SupportContacts = s.Static<typeof SupportContacts>;

/**
 * The catalogue entries of apollo support: `contacts` (`GET /api/support-contacts`) and `createRequest`
 * (`POST /api/support-requests`). {@link supportApi} binds them.
 */
export const supportEndpoints = defineResource('apollo', 'support', {
  contacts: {
    method: 'GET',
    path: '/api/support-contacts',
    scope: 'caller',
    summary: "The support team's mail address and phone number, as the server is configured",
    response: SupportContacts,
  },
  createRequest: {
    method: 'POST',
    path: '/api/support-requests',
    scope: 'caller',
    summary: 'Send a support request',
    body: SupportRequestCreate,
    response: SupportRequest,
    successStatus: 201,
    refusals: { 429: 'The organisation sent the most support requests an hour allows.' },
  },
});

/**
 * Binds apollo support to a transport: the support contacts, and sending a request, which is mailed to
 * support with a copy to the requester. Requests beyond the hourly limit are refused with 429. The same
 * methods as `client.apollo.support`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function supportApi(transport: Transport) {
  return bindResource(transport, supportEndpoints);
}
