import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { auditLog, verifyAuditLog } from './service.js';

export function auditRoutes(ctx: AppContext) {
  return routes({
    'apollo.audit.list': {
      async handler({ query }, { actor }) {
        return auditLog(ctx, actor.user, query);
      },
    },
    'apollo.audit.verify': {
      async handler({ query }, { actor }) {
        return verifyAuditLog(ctx, actor.user, query);
      },
    },
  });
}
