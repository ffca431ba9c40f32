/** Sign-in with Microsoft Entra ID (entra.ts) and the organisation's sign-in settings, on the legacy API. */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { completeMicrosoftSignIn, entraAppOf, startMicrosoftSignIn } from './entra.js';
import { readSignInSettings, updateSignInSettings } from './sign-in-settings.js';

export function entraRoutes(ctx: AppContext) {
  return routes({
    'legacy.auth.signInOptions': {
      async handler() {
        return { microsoft: entraAppOf(ctx) !== undefined };
      },
    },
    'legacy.auth.microsoftStart': {
      async handler({ body }) {
        return startMicrosoftSignIn(ctx, body.email);
      },
    },
    'legacy.auth.microsoftComplete': {
      async handler({ body }, rc) {
        return completeMicrosoftSignIn(ctx, body, rc.ip, rc.request.headers['user-agent']);
      },
    },
    'legacy.auth.signInSettings': {
      async handler(_args, rc) {
        return readSignInSettings(ctx, session(rc).auth);
      },
    },
    'legacy.auth.updateSignInSettings': {
      async handler({ body }, rc) {
        return updateSignInSettings(ctx, session(rc).auth, rc.ip, body);
      },
    },
  });
}
