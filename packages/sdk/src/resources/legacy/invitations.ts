/**
 * Legacy invitations: the page a new user's invitation link opens. The link's token names the
 * invitation; it shows who is invited where, and accepting it sets the user's password, with which
 * they sign in and set up their authenticator.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

const invitationParams = s.object({
  token: s.string({ minLength: 1, maxLength: 200, description: "The invitation link's token." }),
});

/** Schema of the answer of `GET /auth/invitations/{token}`. */
export const Invitation = s.object({
  email: s.string(),
  displayName: s.string(),
  organisationName: s.string(),
  expiresAt: s.dateTime('The link works until then, once.'),
});
/** A live invitation: who is invited (address and name), to which organisation, and until when the link works. */
export type Invitation = s.Static<typeof Invitation>;

/** Schema of the body of `POST /auth/invitations/{token}`. */
export const InvitationAcceptance = s.object({
  password: s.string({ minLength: 1, maxLength: 256 }),
  confirmPassword: s.string({ minLength: 1, maxLength: 256 }),
});
/**
 * The password an invited user chooses, twice. It must meet the password rules (at least 8
 * characters, a digit, a lower-case and an upper-case letter and another character); the two must be
 * the same.
 */
export type InvitationAcceptance = s.Static<typeof InvitationAcceptance>;

/** Schema of the answer of `POST /auth/invitations/{token}`. */
export const InvitationAccepted = s.object({
  email: s.string({ description: 'The address the account signs in with.' }),
});
/**
 * The invitation accepted: the password is set. The invitee signs in with the address and that
 * password (`auth.signin`), which continues with the authenticator's setup.
 */
export type InvitationAccepted = s.Static<typeof InvitationAccepted>;

/**
 * The catalogue entries of invitations: `get` (`GET /auth/invitations/{token}`) and `accept` (`POST
 * /auth/invitations/{token}`). {@link invitationsApi} binds them.
 */
export const invitationsEndpoints = defineResource('legacy', 'invitations', {
  get: {
    method: 'GET',
    rateLimited: true,
    path: '/auth/invitations/{token}',
    summary: 'Who an invitation link invites, and where',
    auth: 'none',
    params: invitationParams,
    response: Invitation,
    refusals: { 404: 'The link is unknown, used, expired or withdrawn (code invitationInvalid).' },
  },
  accept: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/invitations/{token}',
    summary: 'Accept an invitation: set the password (audited)',
    auth: 'none',
    params: invitationParams,
    body: InvitationAcceptance,
    response: InvitationAccepted,
    refusals: {
      403: 'The organisation signs in with Microsoft only (code passwordSignInOff): sign in with Microsoft instead.',
      404: 'The link is unknown, used, expired or withdrawn (code invitationInvalid).',
    },
  },
});

/**
 * Binds invitations to a transport: `get({ token })` and `accept({ token, body })`. The same methods
 * as `client.legacy.invitations`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function invitationsApi(transport: Transport) {
  return bindResource(transport, invitationsEndpoints);
}
