import { createFileRoute, redirect } from '@tanstack/react-router';
import { SignInPage } from '../features/auth/sign-in-page';
import { isAuthenticated } from '../session/machine';

export const Route = createFileRoute('/signin')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: ({ context }) => {
    if (isAuthenticated(context.session.getSnapshot().value)) throw redirect({ to: '/' });
  },
  component: SignInPage,
});
