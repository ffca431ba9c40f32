import { createFileRoute, redirect } from '@tanstack/react-router';
import { CodeVerificationPage } from '../features/auth/code-verification-page';

export const Route = createFileRoute('/code-verification')({
  beforeLoad: ({ context }) => {
    if (!context.session.getSnapshot().matches('twoFactorVerification')) throw redirect({ to: '/signin' });
  },
  component: CodeVerificationPage,
});
