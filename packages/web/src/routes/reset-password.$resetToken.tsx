import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';

function ResetPasswordRoute() {
  const { resetToken } = Route.useParams();
  return <ResetPasswordPage resetToken={resetToken} />;
}

export const Route = createFileRoute('/reset-password/$resetToken')({ component: ResetPasswordRoute });
