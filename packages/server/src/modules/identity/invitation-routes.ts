/** The invitation link's page (legacy `/auth/invitations/{token}`): who is invited, and accepting it. */
import type { AppContext } from '../../context.js';
import { passwordProblems, passwordRuleMessages } from '../../crypto/passwords.js';
import { badRequest } from '../../errors.js';
import { routes } from '../../http/contract.js';
import { acceptInvitation, findInvitation } from './invitations.js';

export function invitationRoutes(ctx: AppContext) {
  return routes({
    'legacy.invitations.get': {
      handler: ({ token }) => findInvitation(ctx, String(token)),
    },

    'legacy.invitations.accept': {
      async handler({ token, body }, rc) {
        // Checked as the reset page's password is, and answered alike.
        if (body.password !== body.confirmPassword) throw badRequest('The passwords do not match.');
        const problems = passwordProblems(body.password);
        if (problems.length > 0) {
          throw badRequest(
            problems.map((p) => passwordRuleMessages[p]).join(' '),
            Object.fromEntries(problems.map((p) => [p, [passwordRuleMessages[p]]])),
          );
        }
        return acceptInvitation(ctx, { code: String(token), password: body.password, ip: rc.ip });
      },
    },
  });
}
