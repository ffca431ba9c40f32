import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { requireTenant } from '../tenants/access.js';
import { consentSetup, finishConsent, renewConsent, startConsent } from './service.js';

export function tenantConsentRoutes(ctx: AppContext) {
  return routes({
    'apollo.tenants.consentSetup': {
      async handler() {
        return consentSetup(ctx);
      },
    },

    'apollo.tenants.startConsent': {
      async handler({ body }, rc) {
        return startConsent(ctx, { user: session(rc).auth.user, ip: rc.ip }, body);
      },
    },

    'apollo.tenants.finishConsent': {
      async handler({ body }, rc) {
        return finishConsent(ctx, { user: session(rc).auth.user, ip: rc.ip }, body);
      },
    },

    'apollo.tenants.renewConsent': {
      async handler({ tenantId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return renewConsent(ctx, { user, ip: rc.ip }, tenant);
      },
    },
  });
}
