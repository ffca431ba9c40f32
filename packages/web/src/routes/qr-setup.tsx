import { createFileRoute, redirect } from '@tanstack/react-router';
import { QrSetupPage } from '../features/auth/qr-setup-page';

export const Route = createFileRoute('/qr-setup')({
  beforeLoad: ({ context }) => {
    if (!context.session.getSnapshot().matches('twoFactorSetup')) throw redirect({ to: '/signin' });
  },
  component: QrSetupPage,
});
