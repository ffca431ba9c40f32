/**
 * The signed-in user's own sessions (legacy `/auth/sessions`): each sign-in that is still signed in,
 * with the device and browser its user agent names, its address, when it signed in and was last used,
 * and the calling one marked; one of the others signed out at a time (`/auth/sessions/revoke-others`
 * signs out all of them).
 */
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { notFound, refusal } from '../../http/errors.js';
import { revokeUserFamily } from './sessions.js';
import { listLiveSessions } from './sessions-repository.js';
import { parseUserAgent } from './user-agent.js';

export function sessionRoutes(ctx: AppContext) {
  return routes({
    'legacy.sessions.list': {
      async handler(_args, rc) {
        const { auth } = session(rc);
        const sessions = await listLiveSessions(ctx.db, ctx.now(), auth.user.id);
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
        const { auth } = session(rc);
        const family = String(sessionId);
        // The calling session signs out by logout, which also ends the app's state; not from here.
        if (family === auth.family) throw refusal(409, 'currentSession');
        const ended = (await listLiveSessions(ctx.db, ctx.now(), auth.user.id)).find((s) => s.family === family);
        if (!ended) throw notFound('Session not found');
        await ctx.db.transaction(async (tx) => {
          // Another request may have ended it meanwhile: then there is nothing to sign out or record.
          if (!(await revokeUserFamily(tx, ctx.now(), auth.user.id, family))) throw notFound('Session not found');
          const device = parseUserAgent(ended.userAgent);
          await ctx.audit(
            {
              ...actedBy(auth.user, rc.ip),
              organisationId: auth.user.organisationId,
              action: 'auth.sessions.revoke',
              target: auth.user.id,
              outcome: 'success',
              details: {
                signedInAt: ended.signedInAt.toISOString(),
                sessionIp: ended.ip,
                browser: device.browser,
                os: device.os,
              },
            },
            tx,
          );
        });
        return undefined;
      },
    },
  });
}
