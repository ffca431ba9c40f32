import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { auditLog, verifyAuditLog } from './service.js';

export function auditRoutes(ctx: AppContext) {
  return routes({
    'apollo.audit.list': {
      async handler({ query }, rc) {
        return auditLog(ctx, session(rc).auth.user, query);
      },
    },
    'apollo.audit.verify': {
      async handler({ query }, rc) {
        return verifyAuditLog(ctx, session(rc).auth.user, query);
      },
    },
  });
}
