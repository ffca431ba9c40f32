import { createFileRoute, redirect } from '@tanstack/react-router';

/** The name people guess for the sign-up (apollo's is /register): sent to /signup. */
export const Route = createFileRoute('/register')({
  beforeLoad: () => {
    throw redirect({ to: '/signup', replace: true });
  },
});
