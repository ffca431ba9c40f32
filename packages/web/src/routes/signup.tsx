import { createFileRoute, redirect } from '@tanstack/react-router';
import { SignUpPage } from '../features/sign-up/sign-up-page';
import { loadLanguage } from '../i18n';
import { isAuthenticated } from '../session/machine';

/** Creating an account: a new organisation's first administrator (the server says whether it is open). */
export const Route = createFileRoute('/signup')({
  beforeLoad: ({ context }) => {
    if (isAuthenticated(context.session.getSnapshot().value)) throw redirect({ to: '/' });
  },
  // The sign-up's texts come with the areas' (their own chunk), loaded with the page's code.
  loader: ({ context }) => loadLanguage(context.i18n),
  component: SignUpPage,
});
