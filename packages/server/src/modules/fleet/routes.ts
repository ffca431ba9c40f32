/** A partner's fleet: its clients' health, what needs attention first. */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { fleetFor } from './service.js';

export function fleetRoutes(ctx: AppContext) {
  return routes({
    'legacy.workers.fleet': {
      async handler({ query }, rc) {
        return fleetFor(ctx, session(rc).auth.user, query);
      },
    },
  });
}
