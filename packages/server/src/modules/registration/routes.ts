/**
 * Self-registration (apollo `POST /register`): a new account, the administrator of a customer
 * organisation made for it. A module of its own above identity and organisations, since it makes
 * both; neither of them imports it.
 */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { invalidEmail, isEmail } from '../identity/users.js';
import { registerAccount, registrationClosed, selfRegistrationOpen } from './service.js';

export function registrationRoutes(ctx: AppContext) {
  return routes({
    'apollo.auth.register': {
      validateBody: false,
      async handler({ body }, rc) {
        // A closed portal refuses every registration alike, before looking at the address.
        if (!(await selfRegistrationOpen(ctx))) throw registrationClosed();
        const { email, password } = (body ?? {}) as { email?: unknown; password?: unknown };
        if (!isEmail(email)) throw invalidEmail(email);
        await registerAccount(ctx, email, password, rc.ip);
        return undefined;
      },
    },
  });
}
