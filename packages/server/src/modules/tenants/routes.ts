import type { AppContext } from '../../context.js';
import { type RequestContext, routes, session } from '../../http/contract.js';
import { requireTenant } from './access.js';
import { type TaskKind, taskView } from './provisioning.js';
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
  const provisioning = async (tenantId: string, kind: TaskKind, rc: RequestContext) => {
    const { user } = session(rc).auth;
    const tenant = await requireTenant(ctx, user, tenantId);
    return startProvisioning(ctx, { user, ip: rc.ip }, tenant, kind);
  };

  return routes({
    'apollo.tenants.list': {
      async handler(_args, rc) {
        return (await visibleTenants(ctx, session(rc).auth.user)).map(tenantView);
      },
    },

    'apollo.tenants.create': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        return tenantView(await connectTenant(ctx, { user, ip: rc.ip }, body));
      },
    },

    'apollo.tenants.get': {
      async handler({ tenantId }, rc) {
        return tenantView(await requireTenant(ctx, session(rc).auth.user, tenantId));
      },
    },

    'apollo.tenants.update': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return tenantView(await changeTenant(ctx, { user, ip: rc.ip }, tenant, body));
      },
    },

    'apollo.tenants.delete': {
      async handler({ tenantId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        await removeTenant(ctx, { user, ip: rc.ip }, tenant);
        return undefined;
      },
    },

    'apollo.tenants.provision': {
      handler: ({ tenantId }, rc) => provisioning(tenantId, 'provision', rc),
    },

    'apollo.tenants.deprovision': {
      handler: ({ tenantId }, rc) => provisioning(tenantId, 'deprovision', rc),
    },

    'apollo.tenants.task': {
      async handler({ tenantId, taskId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return taskView(await requireTask(ctx, tenant, taskId));
      },
    },
  });
}
