import type {
  NotificationSettings,
  NotificationTest,
  Page,
  PortalUser,
  PortalUserListQuery,
  UserCreate,
} from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { canActFor, requireOrganisation, requireRole } from '../../access/scope.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { forbidden, notFound, refusal } from '../../errors.js';
import { DEFAULT_NOTIFICATIONS, mailLanguageOf } from '../../jobs/notify.js';
import { renderMail } from '../../mail/mail-document.js';
import { settingsLink } from '../../mail/portal-links.js';
import { templatesFor } from '../../mail/templates.js';
import { voidOneTimeCodes } from '../identity/codes-repository.js';
import { issueInvitation, mailInvitation } from '../identity/invitations.js';
import { revokeAllForUser } from '../identity/sessions.js';
import type { User } from '../identity/users.js';
import { findUserByEmail, findUserById, lockUser } from '../identity/users-repository.js';
import { findOrganisation } from '../organisations/repository.js';
import { createInvitedUser, inviteUser } from '../organisations/service.js';
import {
  countOtherActiveUsers,
  deleteUserRow,
  findNotificationSettings,
  findPortalUser,
  listOrganisationUsers,
  lockOrganisationUsers,
  type PortalUserRow,
  saveNotificationSettings,
  setDeactivated,
  setEdiscoveryManager,
  userCreatedAt,
} from './repository.js';

/** The defaults belong to the job engine's notifications (src/jobs/notify.ts), which send by them. */
export { DEFAULT_NOTIFICATIONS };

/** Which role may be given in which kind of organisation. */
const rolesFor = { customer: ['admin'], partner: ['partner'], operator: ['operator'] } as const;

/**
 * An administrator, partner or operator creates a user in an organisation they may act for (their own
 * by default), with a role that kind of organisation has; only operators create operators. The user
 * is invited by email to choose a password. An address that is already an account's is refused with
 * the same answer whoever's account it is (the caller's organisation, a client, anyone else): one
 * address is one account platform-wide, and nothing of the other account is said.
 */
export async function createUser(
  ctx: AppContext,
  actor: Actor,
  input: UserCreate,
): Promise<{ user: User; createdAt: Date }> {
  const { user } = actor;
  requireRole(user, 'admin', 'partner', 'operator');
  const organisationId = input.organisationId ?? user.organisationId;
  await requireOrganisation(ctx, user, organisationId);
  const org = await findOrganisation(ctx.db, organisationId);
  if (!org) throw notFound('Organisation not found');
  if (!(rolesFor[org.kind] as readonly string[]).includes(input.role)) {
    throw forbidden(`The role ${input.role} cannot be given in this organisation.`);
  }
  if (input.role === 'operator' && user.role !== 'operator') throw forbidden('Only operators create operators.');
  if (await findUserByEmail(ctx.db, input.email)) throw refusal(409, 'emailTaken');
  const id = await ctx.db.transaction(async (tx) => {
    const created = await createInvitedUser(tx, {
      email: input.email,
      displayName: input.displayName,
      role: input.role,
      organisationId,
    });
    // The unique index decides when two creations of one address race past the check above.
    if (!created) throw refusal(409, 'emailTaken');
    await ctx.audit(
      {
        ...actedBy(user, actor.ip),
        organisationId,
        action: 'user.create',
        target: created,
        outcome: 'success',
        details: { email: input.email, role: input.role },
      },
      tx,
    );
    return created;
  });
  await inviteUser(ctx, id, input.email, org.name);
  const created = await findUserById(ctx.db, id);
  if (!created) throw new Error('created user not found');
  return { user: created, createdAt: (await userCreatedAt(ctx.db, id)) ?? ctx.now() };
}

/** The user's settings over the defaults: a setting never stored is the default. */
export async function notificationSettings(ctx: AppContext, user: User) {
  return { ...DEFAULT_NOTIFICATIONS, ...((await findNotificationSettings(ctx.db, user.id)) ?? {}) };
}

export async function updateNotificationSettings(ctx: AppContext, user: User, settings: NotificationSettings) {
  await saveNotificationSettings(ctx.db, user.id, settings);
  return { ...DEFAULT_NOTIFICATIONS, ...settings };
}

/**
 * Sends the caller a test mail in their mails' language to where their notifications go (the
 * settings' address, else the account's), as stored: what the settings page shows unsaved is not
 * tested. A mail the mail server refuses, or a mail server that cannot be reached, is refused with
 * 502 `mailNotSent`; the server's own words go to the log only (they may name its hosts).
 */
export async function sendTestNotification(ctx: AppContext, user: User): Promise<NotificationTest> {
  const stored = await findNotificationSettings(ctx.db, user.id);
  const to = stored?.email ?? user.email;
  const language = mailLanguageOf(stored);
  const mail = templatesFor(language).testMail({ to, link: settingsLink(ctx.config.publicUrl) });
  try {
    await ctx.mailer.send(renderMail(to, mail, language));
  } catch (err) {
    ctx.log.warn({ err, userId: user.id }, 'test mail not sent');
    throw refusal(502, 'mailNotSent');
  }
  return { to, message: `A test mail was sent to ${to}.` };
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

const portalUser = (row: PortalUserRow): PortalUser => ({
  userId: row.id,
  email: row.email,
  displayName: row.display_name,
  role: row.role,
  organisationId: row.organisation_id,
  twoFactorEnabled: row.totp_enabled,
  ediscoveryManager: row.ediscovery_manager,
  createdAt: new Date(row.created_at).toISOString(),
  status: row.status,
  lastSignInAt: iso(row.last_sign_in_at),
  invitedAt: iso(row.invited_at),
  deactivatedAt: iso(row.deactivated_at),
});

/** One page of the users of an organisation the caller may act for (their own by default; another's 404). */
export async function listUsers(ctx: AppContext, actor: Actor, query: PortalUserListQuery): Promise<Page<PortalUser>> {
  requireRole(actor.user, 'admin', 'partner', 'operator');
  const organisationId = query.organisationId ?? actor.user.organisationId;
  await requireOrganisation(ctx, actor.user, organisationId);
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 25;
  const { rows, total } = await listOrganisationUsers(ctx.db, organisationId, {
    page,
    pageSize,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.order ? { order: query.order } : {}),
    ...(query.search ? { search: query.search } : {}),
    ...(query.status ? { status: query.status } : {}),
  });
  return { items: rows.map(portalUser), total, page, pageSize };
}

/**
 * Gives (`manager`) or takes the eDiscovery manager role, by an administrator, partner or operator who
 * may act for the user's organisation (404 otherwise, as for an unknown user). Audited when it changes
 * (`user.ediscoveryManager.grant` or `.revoke`); asking for what is already so changes nothing.
 */
export async function changeEdiscoveryManager(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  manager: boolean,
): Promise<PortalUser> {
  requireRole(actor.user, 'admin', 'partner', 'operator');
  const target = await findPortalUser(ctx.db, userId);
  if (!target || !(await canActFor(ctx.db, actor.user, target.organisation_id))) throw notFound('User not found');
  await ctx.db.transaction(async (tx) => {
    if (!(await setEdiscoveryManager(tx, userId, manager))) return;
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: target.organisation_id,
        action: manager ? 'user.ediscoveryManager.grant' : 'user.ediscoveryManager.revoke',
        target: userId,
        outcome: 'success',
        details: { email: target.email },
      },
      tx,
    );
  });
  const changed = await findPortalUser(ctx.db, userId);
  if (!changed) throw notFound('User not found');
  return portalUser(changed);
}

/** The user as the users list shows them (after a change), or 404. */
export async function portalUserById(ctx: AppContext, userId: string): Promise<PortalUser> {
  const row = await findPortalUser(ctx.db, userId);
  if (!row) throw notFound('User not found');
  return portalUser(row);
}

/**
 * The user an administrator, partner or operator acts on: one of an organisation they may act for,
 * else the same 404 as for an unknown user, so nothing of another organisation's users is said.
 */
async function requireManagedUser(ctx: AppContext, actor: Actor, userId: string): Promise<PortalUserRow> {
  requireRole(actor.user, 'admin', 'partner', 'operator');
  const target = await findPortalUser(ctx.db, userId);
  if (!target || !(await canActFor(ctx.db, actor.user, target.organisation_id))) throw notFound('User not found');
  return target;
}

/**
 * Refuses to take away the organisation's last active administrator (every user is one of their
 * organisation), or the caller's own account; the organisation's users are locked first, so two
 * administrators removing each other at once cannot both succeed.
 */
async function requireRemovable(tx: Queryable, actor: Actor, target: PortalUserRow) {
  if (target.id === actor.user.id) throw refusal(409, 'ownAccount');
  await lockOrganisationUsers(tx, target.organisation_id);
  const current = await findPortalUser(tx, target.id);
  if (current?.status === 'active' && (await countOtherActiveUsers(tx, target.organisation_id, target.id)) === 0) {
    throw refusal(409, 'lastAdministrator');
  }
}

/**
 * Deactivates a user: every session of theirs ends, their outstanding reset and invitation links stop
 * working, and sign-in is refused (`accountDeactivated`) until they are reactivated. Refused for the
 * caller's own account and for the organisation's last active administrator. Audited
 * (`user.deactivate`); deactivating a deactivated user changes nothing.
 */
export async function deactivateUser(ctx: AppContext, actor: Actor, userId: string): Promise<PortalUser> {
  const target = await requireManagedUser(ctx, actor, userId);
  await ctx.db.transaction(async (tx) => {
    await requireRemovable(tx, actor, target);
    const now = ctx.now();
    if (!(await setDeactivated(tx, userId, now, actor.user.email))) return;
    const sessionsEnded = await revokeAllForUser(tx, now, userId);
    await voidOneTimeCodes(tx, userId, now);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: target.organisation_id,
        action: 'user.deactivate',
        target: userId,
        outcome: 'success',
        details: { email: target.email, sessionsEnded },
      },
      tx,
    );
  });
  return portalUserById(ctx, userId);
}

/** Reactivates a deactivated user: they sign in again as before. Audited (`user.reactivate`). */
export async function reactivateUser(ctx: AppContext, actor: Actor, userId: string): Promise<PortalUser> {
  const target = await requireManagedUser(ctx, actor, userId);
  await ctx.db.transaction(async (tx) => {
    if (!(await setDeactivated(tx, userId, null, null))) return;
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: target.organisation_id,
        action: 'user.reactivate',
        target: userId,
        outcome: 'success',
        details: { email: target.email },
      },
      tx,
    );
  });
  return portalUserById(ctx, userId);
}

/**
 * Deletes a user for good, with their sessions, links, recovery codes and settings. Refused for the
 * caller's own account and for the organisation's last active administrator. Audited (`user.delete`,
 * with the address and name, which the audit log keeps).
 */
export async function deleteUser(ctx: AppContext, actor: Actor, userId: string): Promise<void> {
  const target = await requireManagedUser(ctx, actor, userId);
  await ctx.db.transaction(async (tx) => {
    await requireRemovable(tx, actor, target);
    if (!(await deleteUserRow(tx, userId))) throw notFound('User not found');
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: target.organisation_id,
        action: 'user.delete',
        target: userId,
        outcome: 'success',
        details: { email: target.email, displayName: target.display_name },
      },
      tx,
    );
  });
}

/**
 * Mails an invited user a new invitation link; the earlier links stop working. Refused for a user who
 * has accepted already (`invitationAccepted`) or is deactivated (`userDeactivated`). Audited
 * (`user.invitation.resend`).
 */
export async function resendInvitation(ctx: AppContext, actor: Actor, userId: string): Promise<PortalUser> {
  const target = await requireManagedUser(ctx, actor, userId);
  const org = await findOrganisation(ctx.db, target.organisation_id);
  if (!org) throw notFound('User not found');
  const code = await ctx.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const current = await findPortalUser(tx, userId);
    if (!current) throw notFound('User not found');
    if (current.status === 'deactivated') throw refusal(409, 'userDeactivated');
    if (current.status !== 'invited') throw refusal(409, 'invitationAccepted');
    const issued = await issueInvitation(ctx, tx, userId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: target.organisation_id,
        action: 'user.invitation.resend',
        target: userId,
        outcome: 'success',
        details: { email: target.email },
      },
      tx,
    );
    return issued;
  });
  await mailInvitation(ctx, target.email, org.name, code);
  return portalUserById(ctx, userId);
}
