import { createFileRoute, redirect } from '@tanstack/react-router';
import { validateCallbackSearch } from '../features/auth/microsoft-callback-search';
import { MicrosoftCallbackPage } from '../features/auth/microsoft-sign-in';
import { isAuthenticated } from '../session/machine';

/** Where the identity platform returns after "Sign in with Microsoft" (the app registration's redirect URI). */
export const Route = createFileRoute('/signin_/microsoft')({
  validateSearch: validateCallbackSearch,
  beforeLoad: ({ context, search }) => {
    // Signed in, the page finishes only a sign-in under way (a member confirming the organisation's tenant).
    if (isAuthenticated(context.session.getSnapshot().value) && !search.code && !search.error) {
      throw redirect({ to: '/' });
    }
  },
  component: MicrosoftCallbackPage,
});
