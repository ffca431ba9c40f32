import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import {
  changeEdiscoveryManager,
  createUser,
  deactivateUser,
  deleteUser,
  listUsers,
  notificationSettings,
  portalUserById,
  reactivateUser,
  resendInvitation,
  sendTestNotification,
  updateNotificationSettings,
} from './service.js';

// The job notifier reads the defaults from here.

export function userRoutes(ctx: AppContext) {
  const actor = (rc: Parameters<typeof session>[0]) => ({ user: session(rc).auth.user, ip: rc.ip });
  return routes({
    'legacy.user.create': {
      async handler({ body }, rc) {
        const { user: created } = await createUser(ctx, actor(rc), body);
        return portalUserById(ctx, created.id);
      },
    },
    'legacy.user.users': {
      handler: ({ query }, rc) => listUsers(ctx, actor(rc), query ?? {}),
    },
    'legacy.user.grantEdiscoveryManager': {
      handler: ({ userId }, rc) => changeEdiscoveryManager(ctx, actor(rc), userId, true),
    },
    'legacy.user.revokeEdiscoveryManager': {
      handler: ({ userId }, rc) => changeEdiscoveryManager(ctx, actor(rc), userId, false),
    },
    'legacy.user.deactivate': {
      handler: ({ userId }, rc) => deactivateUser(ctx, actor(rc), userId),
    },
    'legacy.user.reactivate': {
      handler: ({ userId }, rc) => reactivateUser(ctx, actor(rc), userId),
    },
    'legacy.user.remove': {
      async handler({ userId }, rc) {
        await deleteUser(ctx, actor(rc), userId);
        return undefined;
      },
    },
    'legacy.user.resendInvitation': {
      handler: ({ userId }, rc) => resendInvitation(ctx, actor(rc), userId),
    },
    'legacy.user.notifications': {
      handler: (_args, rc) => notificationSettings(ctx, session(rc).auth.user),
    },
    'legacy.user.updateNotifications': {
      handler: ({ body }, rc) => updateNotificationSettings(ctx, session(rc).auth.user, body),
    },
    'legacy.user.testNotification': {
      handler: (_args, rc) => sendTestNotification(ctx, session(rc).auth.user),
    },
  });
}
