import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { consentSetup, finishConsent, renewConsent, startConsent } from './service.js';

export function tenantConsentRoutes(ctx: AppContext) {
  return routes({
    'apollo.tenants.consentSetup': {
      async handler() {
        return consentSetup(ctx);
      },
    },

    'apollo.tenants.startConsent': {
      async handler({ body }, { actor }) {
        return startConsent(ctx, actor, body);
      },
    },

    'apollo.tenants.finishConsent': {
      async handler({ body }, { actor }) {
        return finishConsent(ctx, actor, body);
      },
    },

    'apollo.tenants.renewConsent': {
      async handler(_args, { tenant, actor }) {
        return renewConsent(ctx, actor, tenant);
      },
    },
  });
}
