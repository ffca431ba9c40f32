import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { findUserByEmail, findUserById } from '../identity/users.js';
import { requireOrganisation, requireRole } from '../organisations/access.js';
import { findOrganisation } from '../organisations/repository.js';
import { createInvitedUser, inviteUser } from '../organisations/routes.js';

export const DEFAULT_NOTIFICATIONS = {
  jobFailed: true,
  jobFinished: false,
  dailySummary: false,
  weeklyReport: true,
  licenseExpiry: true,
};

/** Which role may be given in which kind of organisation. */
const rolesFor = { customer: ['admin'], partner: ['partner'], operator: ['operator'] } as const;

export function userRoutes(ctx: AppContext) {
  return routes({
    'legacy.user.create': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        requireRole(user, 'admin', 'partner', 'operator');
        const organisationId = body.organisationId ?? user.organisationId;
        await requireOrganisation(ctx, user, organisationId);
        const org = await findOrganisation(ctx.db, organisationId);
        if (!org) throw notFound('Organisation not found');
        if (!(rolesFor[org.kind] as readonly string[]).includes(body.role)) {
          throw forbidden(`The role ${body.role} cannot be given in this organisation.`);
        }
        if (body.role === 'operator' && user.role !== 'operator') throw forbidden('Only operators create operators.');
        if (await findUserByEmail(ctx.db, body.email)) throw conflict('A user with this email already exists.');
        const id = await ctx.db.transaction(async (tx) => {
          const created = await createInvitedUser(tx, {
            email: body.email,
            displayName: body.displayName,
            role: body.role,
            organisationId,
          });
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId,
              action: 'user.create',
              target: created,
              outcome: 'success',
              details: { email: body.email, role: body.role },
            },
            tx,
          );
          return created;
        });
        await inviteUser(ctx, id, body.email, org.name);
        const created = await findUserById(ctx.db, id);
        if (!created) throw new Error('created user not found');
        const [row] = await ctx.db.query<{ created_at: Date }>('select created_at from users where id = $1', [id]);
        return {
          userId: created.id,
          email: created.email,
          displayName: created.displayName,
          role: created.role,
          organisationId: created.organisationId,
          twoFactorEnabled: created.totpEnabled,
          createdAt: new Date(row?.created_at ?? ctx.now()).toISOString(),
        };
      },
    },
    'legacy.user.notifications': {
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        const [row] = await ctx.db.query<{ settings: typeof DEFAULT_NOTIFICATIONS }>(
          'select settings from notification_settings where user_id = $1',
          [user.id],
        );
        return { ...DEFAULT_NOTIFICATIONS, ...(row?.settings ?? {}) };
      },
    },
    'legacy.user.updateNotifications': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        await ctx.db.query(
          `insert into notification_settings (user_id, settings) values ($1, $2)
           on conflict (user_id) do update set settings = excluded.settings`,
          [user.id, JSON.stringify(body)],
        );
        return { ...DEFAULT_NOTIFICATIONS, ...body };
      },
    },
  });
}
