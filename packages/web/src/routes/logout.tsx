import { createFileRoute, redirect } from '@tanstack/react-router';
import { isAuthenticated } from '../session/machine';

/** Sends the user to the sign-in page, signing out a session that is still open. */
export const Route = createFileRoute('/logout')({
  beforeLoad: ({ context }) => {
    if (isAuthenticated(context.session.getSnapshot().value)) context.session.send({ type: 'session.logout' });
    throw redirect({ to: '/signin' });
  },
});
