/**
 * Apollo support: a support request from the /account/support form. Not in product-spec.md section 7
 * (the screen is named without its calls); the reference server adds it, stores the request and
 * mails it to the support address with a copy to the requester. The contacts the page shows come
 * from the server's configuration, so the page names the address requests really go to.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

export const SupportArea = s.oneOfStrings([
  'signIn',
  'backup',
  'archive',
  'teams',
  'dataManagement',
  'ediscovery',
  'reports',
  'configuration',
  'other',
]);
export type SupportArea = s.Static<typeof SupportArea>;

export const SupportRequestCreate = s.object({
  subject: s.string({ minLength: 1, maxLength: 200 }),
  area: SupportArea,
  message: s.string({ minLength: 1, maxLength: 5000 }),
  phone: s.optional(s.string({ maxLength: 40, description: 'A number to call back, if wanted.' })),
});
export type SupportRequestCreate = s.Static<typeof SupportRequestCreate>;

export const SupportRequest = s.object({
  requestId: s.string(),
  reference: s.string({ description: 'Quoted in mails about the request, such as SR-20261123-0001.' }),
  createdAt: s.dateTime(),
});
export type SupportRequest = s.Static<typeof SupportRequest>;

export const SupportContacts = s.object({
  email: s.string({ description: 'Where support requests are mailed (SUPPORT_EMAIL).' }),
  phone: s.string({ description: 'The support line (SUPPORT_PHONE).' }),
});
export type SupportContacts = s.Static<typeof SupportContacts>;

export const supportEndpoints = defineResource('apollo', 'support', {
  contacts: {
    method: 'GET',
    path: '/api/support-contacts',
    summary: "The support team's mail address and phone number, as the server is configured",
    response: SupportContacts,
  },
  createRequest: {
    method: 'POST',
    path: '/api/support-requests',
    summary: 'Send a support request',
    body: SupportRequestCreate,
    response: SupportRequest,
    successStatus: 201,
    refusals: { 429: 'The organisation sent the most support requests an hour allows.' },
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function supportApi(transport: Transport) {
  return bindResource(transport, supportEndpoints);
}
