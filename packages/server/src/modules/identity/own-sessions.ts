/**
 * The signed-in user's own sessions: each sign-in that is still signed in, one of the others signed
 * out at a time, or all the others at once.
 */
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { notFound, refusal } from '../../errors.js';
import { type Auth, revokeAllForUser, revokeUserFamily } from './sessions.js';
import { type LiveSession, listLiveSessions } from './sessions-repository.js';
import { parseUserAgent } from './user-agent.js';

export function listOwnSessions(ctx: AppContext, auth: Auth): Promise<LiveSession[]> {
  return listLiveSessions(ctx.db, ctx.now(), auth.user.id);
}

/** Signs out one of the user's other sessions; audited with the device it was. */
export async function revokeOwnSession(ctx: AppContext, auth: Auth, family: string, ip: string): Promise<void> {
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
        ...actedBy(auth.user, ip),
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
}

/** Signs out every other session of the user; how many ended. Audited. */
export async function revokeOtherSessions(ctx: AppContext, auth: Auth, ip: string): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const ended = await revokeAllForUser(tx, ctx.now(), auth.user.id, auth.family);
    await ctx.audit(
      {
        actorUserId: auth.user.id,
        actorEmail: auth.user.email,
        organisationId: auth.user.organisationId,
        action: 'auth.sessions.revokeOthers',
        outcome: 'success',
        ip,
        details: { revoked: ended },
      },
      tx,
    );
    return ended;
  });
}
