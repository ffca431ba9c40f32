import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import {
  changeEdiscoveryManager,
  createUser,
  listUsers,
  notificationSettings,
  updateNotificationSettings,
} from './service.js';

// The job notifier reads the defaults from here.

export function userRoutes(ctx: AppContext) {
  return routes({
    'legacy.user.create': {
      async handler({ body }, rc) {
        const { user: created, createdAt } = await createUser(ctx, { user: session(rc).auth.user, ip: rc.ip }, body);
        return {
          userId: created.id,
          email: created.email,
          displayName: created.displayName,
          role: created.role,
          organisationId: created.organisationId,
          twoFactorEnabled: created.totpEnabled,
          ediscoveryManager: created.ediscoveryManager,
          createdAt: createdAt.toISOString(),
        };
      },
    },
    'legacy.user.users': {
      handler: ({ query }, rc) => listUsers(ctx, { user: session(rc).auth.user, ip: rc.ip }, query ?? {}),
    },
    'legacy.user.grantEdiscoveryManager': {
      handler: ({ userId }, rc) =>
        changeEdiscoveryManager(ctx, { user: session(rc).auth.user, ip: rc.ip }, userId, true),
    },
    'legacy.user.revokeEdiscoveryManager': {
      handler: ({ userId }, rc) =>
        changeEdiscoveryManager(ctx, { user: session(rc).auth.user, ip: rc.ip }, userId, false),
    },
    'legacy.user.notifications': {
      handler: (_args, rc) => notificationSettings(ctx, session(rc).auth.user),
    },
    'legacy.user.updateNotifications': {
      handler: ({ body }, rc) => updateNotificationSettings(ctx, session(rc).auth.user, body),
    },
  });
}
