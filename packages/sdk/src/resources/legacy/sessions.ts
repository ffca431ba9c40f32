/**
 * Legacy sessions: the signed-in sessions of the caller's own account (one per sign-in, on any
 * device), and signing one of them out. `auth.revokeOtherSessions` signs out all but the calling one.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

/** Schema of what a session's user agent says of the device. */
export const SessionDevice = s.object({
  browser: s.nullable(s.string({ maxLength: 64, description: 'Such as "Firefox 128"; null when unknown.' })),
  os: s.nullable(s.string({ maxLength: 64, description: 'Such as "Windows", "iOS 17.5"; null when unknown.' })),
  type: s.oneOfStrings(['desktop', 'mobile', 'tablet', 'unknown']),
});
/**
 * The device a session signed in from, as its browser's User-Agent header said at sign-in: the
 * browser with its major version, the operating system, and whether it is a desktop, phone or tablet.
 */
export type SessionDevice = s.Static<typeof SessionDevice>;

/** Schema of one item of `GET /auth/sessions`. */
export const SignedInSession = s.object({
  sessionId: s.string({ maxLength: 64, description: 'Names the session to sign out.' }),
  current: s.boolean('The session of the call itself.'),
  device: SessionDevice,
  userAgent: s.nullable(s.string({ maxLength: 512, description: 'The User-Agent header sent at sign-in.' })),
  ip: s.nullable(s.string({ description: 'The client address of the sign-in.' })),
  method: s.nullable(s.oneOfStrings(['password', 'microsoft'], 'How it signed in; null before this was recorded.')),
  signedInAt: s.dateTime(),
  lastActiveAt: s.dateTime('Its last request, to the minute.'),
});
/**
 * One signed-in session of the caller's account: which device and browser, from which address, how
 * and when it signed in, when it was last used, and whether it is the session asking (`current`).
 */
export type SignedInSession = s.Static<typeof SignedInSession>;

/** Schema of the answer of `GET /auth/sessions`. */
export const SessionList = s.object({
  items: s.array(SignedInSession, { description: 'The most recently used first.' }),
});
/** The caller's signed-in sessions, the most recently used first, the calling one among them. */
export type SessionList = s.Static<typeof SessionList>;

const sessionParams = s.object({ sessionId: s.string({ minLength: 1, maxLength: 64 }) });

/**
 * The catalogue entries of the caller's sessions: `list` (`GET /auth/sessions`) and `revoke`
 * (`DELETE /auth/sessions/{sessionId}`). {@link sessionsApi} binds them.
 */
export const sessionsEndpoints = defineResource('legacy', 'sessions', {
  list: {
    method: 'GET',
    path: '/auth/sessions',
    scope: 'caller',
    summary: "The caller's signed-in sessions, with device, address and last activity",
    response: SessionList,
  },
  revoke: {
    method: 'DELETE',
    rateLimited: true,
    path: '/auth/sessions/{sessionId}',
    scope: 'caller',
    summary: "Sign out one of the caller's other sessions (audited)",
    params: sessionParams,
    refusals: {
      404: 'No signed-in session of the caller has this id.',
      409: 'The session is the calling one: sign out with logout (code currentSession).',
    },
  },
});

/**
 * Binds the caller's sessions to a transport: `list()` and `revoke({ sessionId })`. The same methods
 * as `client.legacy.sessions`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function sessionsApi(transport: Transport) {
  return bindResource(transport, sessionsEndpoints);
}
