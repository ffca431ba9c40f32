import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { taskView } from './provisioning.js';
import { tenantView } from './repository.js';
import {
  changeTenant,
  connectTenant,
  removeTenant,
  requireTask,
  startProvisioning,
  visibleTenants,
} from './service.js';

export function tenantRoutes(ctx: AppContext) {
  return routes({
    'apollo.tenants.list': {
      async handler(_args, { actor }) {
        return (await visibleTenants(ctx, actor.user)).map(tenantView);
      },
    },

    'apollo.tenants.create': {
      async handler({ body }, { actor }) {
        return tenantView(await connectTenant(ctx, actor, body));
      },
    },

    'apollo.tenants.get': {
      async handler(_args, { tenant }) {
        return tenantView(tenant);
      },
    },

    'apollo.tenants.update': {
      async handler({ body }, { tenant, actor }) {
        return tenantView(await changeTenant(ctx, actor, tenant, body));
      },
    },

    'apollo.tenants.delete': {
      async handler(_args, { tenant, actor }) {
        await removeTenant(ctx, actor, tenant);
        return undefined;
      },
    },

    'apollo.tenants.provision': {
      handler: (_args, { tenant, actor }) => startProvisioning(ctx, actor, tenant, 'provision'),
    },

    'apollo.tenants.deprovision': {
      handler: (_args, { tenant, actor }) => startProvisioning(ctx, actor, tenant, 'deprovision'),
    },

    'apollo.tenants.task': {
      async handler({ taskId }, { tenant }) {
        return taskView(await requireTask(ctx, tenant, taskId));
      },
    },
  });
}
