/**
 * The signed-in user's own sessions (legacy `/auth/sessions`): each sign-in that is still signed in,
 * with the device and browser its user agent names, its address, when it signed in and was last used,
 * and the calling one marked; one of the others signed out at a time (`/auth/sessions/revoke-others`
 * signs out all of them).
 */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { listOwnSessions, revokeOwnSession } from './own-sessions.js';
import { parseUserAgent } from './user-agent.js';

export function sessionRoutes(ctx: AppContext) {
  return routes({
    'legacy.sessions.list': {
      async handler(_args, rc) {
        const { auth } = session(rc);
        const sessions = await listOwnSessions(ctx, auth);
        return {
          items: sessions.map((s) => ({
            sessionId: s.family,
            current: s.family === auth.family,
            device: parseUserAgent(s.userAgent),
            userAgent: s.userAgent,
            ip: s.ip,
            method: s.signInMethod,
            signedInAt: s.signedInAt.toISOString(),
            lastActiveAt: s.lastSeenAt.toISOString(),
          })),
        };
      },
    },

    'legacy.sessions.revoke': {
      async handler({ sessionId }, rc) {
        await revokeOwnSession(ctx, session(rc).auth, String(sessionId), rc.ip);
        return undefined;
      },
    },
  });
}
