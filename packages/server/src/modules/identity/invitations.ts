/**
 * Invitations: a user created by an administrator gets a link to choose a password. The link is a
 * one-time code of its own purpose (`invite`), stored as a hash, live for 7 days; a new invitation
 * voids the earlier ones. Accepting it sets the password and ends whatever the account had (as a reset
 * does); the invitee then signs in with it as anyone does, which begins with the authenticator's setup.
 */
import type { Invitation, InvitationAccepted } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { refusal } from '../../errors.js';
import {
  findLiveInvitation,
  findLiveOneTimeCode,
  insertOneTimeCode,
  useOneTimeCode,
  voidInvitationCodes,
  voidOneTimeCodes,
} from './codes-repository.js';
import { passwordSignInAllowed } from './password.js';
import { revokeAllForUser } from './sessions.js';
import { findUserById, lockUser, markInvitationAccepted, markInvited, updatePasswordHash } from './users-repository.js';

/** An invitation link works for 7 days (a reset link for one): the invitee may be away for a few days. */
const INVITATION_MS = 7 * 24 * 3600_000;

/**
 * A new invitation code for the user, in the caller's transaction: the earlier invitation codes stop
 * working and the user counts as invited from now.
 */
export async function issueInvitation(ctx: AppContext, tx: Queryable, userId: string): Promise<string> {
  const now = ctx.now();
  await voidInvitationCodes(tx, userId, now);
  const code = newToken();
  await insertOneTimeCode(tx, {
    hash: sha256(code),
    userId,
    purpose: 'invite',
    expiresAt: new Date(now.getTime() + INVITATION_MS),
  });
  await markInvited(tx, userId, now);
  return code;
}

/** The invitation mail: who invited the user where, and the link to the portal's invitation page. */
export async function mailInvitation(ctx: AppContext, to: string, organisationName: string, code: string) {
  const link = `${ctx.config.publicUrl}/invitation/${code}`;
  await ctx.mailer.send({
    to,
    subject: `Your compliance portal account for ${organisationName}`,
    text: `An account was created for you in the compliance portal (${organisationName}).\n\nAccept the invitation and choose your password: ${link}\n\nThen you set up two-factor sign-in with an authenticator app. The link works once, for 7 days.`,
    link,
  });
}

/** The live invitation of a code, for its page; 404 `invitationInvalid` for any other code. */
export async function findInvitation(ctx: AppContext, code: string): Promise<Invitation> {
  const row = await findLiveInvitation(ctx.db, sha256(code), ctx.now());
  if (!row) throw refusal(404, 'invitationInvalid');
  return {
    email: row.email,
    displayName: row.display_name,
    organisationName: row.organisation_name,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/**
 * Accepts an invitation with the password the user chose (checked against the rules by the caller):
 * the code is used, the password set, every other code and session of the account ended, and the
 * invitation recorded as accepted (audited `user.invitation.accept`). Answers the address to sign in
 * with. Refused with 404 `invitationInvalid` for a code that is not live, and 403 `passwordSignInOff`
 * (nothing changed) when the organisation signs in with Microsoft only.
 */
export async function acceptInvitation(
  ctx: AppContext,
  input: { code: string; password: string; ip: string },
): Promise<InvitationAccepted> {
  const hash = sha256(input.code);
  const owner = await findLiveOneTimeCode(ctx.db, hash, 'invite', ctx.now());
  const invited = owner ? await findUserById(ctx.db, owner) : undefined;
  if (!invited || invited.deactivatedAt) throw refusal(404, 'invitationInvalid');
  if (!(await passwordSignInAllowed(ctx.db, invited.organisationId))) throw refusal(403, 'passwordSignInOff');
  const passwordHash = await hashPassword(input.password);
  const accepted = await ctx.db.transaction(async (tx) => {
    // The lock orders two acceptances of one link: the second finds the code used.
    await lockUser(tx, invited.id);
    const now = ctx.now();
    if (!(await useOneTimeCode(tx, hash, 'invite', now, invited.id))) return undefined;
    const user = await findUserById(tx, invited.id);
    if (!user || user.deactivatedAt) return undefined;
    await updatePasswordHash(tx, user.id, passwordHash);
    await voidOneTimeCodes(tx, user.id, now);
    await revokeAllForUser(tx, now, user.id);
    await markInvitationAccepted(tx, user.id, now);
    await ctx.audit(
      {
        ...actedBy(user, input.ip),
        organisationId: user.organisationId,
        action: 'user.invitation.accept',
        target: user.id,
        outcome: 'success',
      },
      tx,
    );
    return user;
  });
  if (!accepted) throw refusal(404, 'invitationInvalid');
  return { email: accepted.email };
}
