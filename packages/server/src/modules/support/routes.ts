/** Support: the contacts of the /account/support page and its requests (service.ts). */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { sendSupportRequest, supportContacts } from './service.js';

export function supportRoutes(ctx: AppContext) {
  return routes({
    'apollo.support.contacts': {
      async handler() {
        return supportContacts(ctx);
      },
    },
    'apollo.support.createRequest': {
      async handler({ body }, { actor }) {
        const request = await sendSupportRequest(ctx, actor, body);
        return { ...request, createdAt: request.createdAt.toISOString() };
      },
    },
  });
}
