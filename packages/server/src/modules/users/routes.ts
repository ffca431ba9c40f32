import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
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
  return routes({
    'legacy.user.create': {
      async handler({ body }, { actor }) {
        const { user: created } = await createUser(ctx, actor, body);
        return portalUserById(ctx, created.id);
      },
    },
    'legacy.user.users': {
      handler: ({ query }, { actor }) => listUsers(ctx, actor, query ?? {}),
    },
    'legacy.user.grantEdiscoveryManager': {
      handler: ({ userId }, { actor }) => changeEdiscoveryManager(ctx, actor, userId, true),
    },
    'legacy.user.revokeEdiscoveryManager': {
      handler: ({ userId }, { actor }) => changeEdiscoveryManager(ctx, actor, userId, false),
    },
    'legacy.user.deactivate': {
      handler: ({ userId }, { actor }) => deactivateUser(ctx, actor, userId),
    },
    'legacy.user.reactivate': {
      handler: ({ userId }, { actor }) => reactivateUser(ctx, actor, userId),
    },
    'legacy.user.remove': {
      async handler({ userId }, { actor }) {
        await deleteUser(ctx, actor, userId);
        return undefined;
      },
    },
    'legacy.user.resendInvitation': {
      handler: ({ userId }, { actor }) => resendInvitation(ctx, actor, userId),
    },
    'legacy.user.notifications': {
      handler: (_args, { actor }) => notificationSettings(ctx, actor.user),
    },
    'legacy.user.updateNotifications': {
      handler: ({ body }, { actor }) => updateNotificationSettings(ctx, actor.user, body),
    },
    'legacy.user.testNotification': {
      handler: (_args, { actor }) => sendTestNotification(ctx, actor.user),
    },
  });
}
