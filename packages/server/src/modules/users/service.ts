import type { NotificationSettings, UserCreate } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { forbidden, notFound, refusal } from '../../http/errors.js';
import { DEFAULT_NOTIFICATIONS } from '../../jobs/notify.js';
import { findUserByEmail, findUserById, type User } from '../identity/users.js';
import type { Actor } from '../jobs/service.js';
import { requireOrganisation, requireRole } from '../organisations/access.js';
import { findOrganisation } from '../organisations/repository.js';
import { createInvitedUser, inviteUser } from '../organisations/service.js';
import { findNotificationSettings, saveNotificationSettings, userCreatedAt } from './repository.js';

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
