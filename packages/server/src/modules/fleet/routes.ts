/** A partner's fleet: its clients' health, what needs attention first. */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { fleetFor } from './service.js';

export function fleetRoutes(ctx: AppContext) {
  return routes({
    'legacy.workers.fleet': {
      async handler({ query }, { actor }) {
        return fleetFor(ctx, actor.user, query);
      },
    },
  });
}
