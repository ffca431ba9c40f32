import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert } from '../../components/ui/form-field';
import { NewPasswordFields, useNewPassword } from '../../components/ui/new-password';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useResetPassword } from './api/mutations';

export function ResetPasswordPage({ resetToken }: { resetToken: string }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const fresh = useNewPassword();
  const { password, confirm } = fresh;
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  const reset = useResetPassword(api, resetToken);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!fresh.passwordError && !fresh.confirmError && !serverAction.disabled)
      reset.mutate({ password, confirmPassword: confirm });
  };

  if (reset.isSuccess) {
    return (
      <PublicLayout title={t('auth:resetTitle')}>
        <Stack gap="4">
          <StatusAlert status="success">{t('auth:resetDone')}</StatusAlert>
          <Button asChild colorPalette="blue">
            <RouterLink to="/signin">{t('auth:signIn')}</RouterLink>
          </Button>
        </Stack>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout title={t('auth:resetTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">{t('auth:passwordRules')}</Text>
          {reset.isError ? (
            <StatusAlert status="error">
              {/* The link's user no longer exists (the server answers 404): say so; any other failure is a failed reset. */}
              {isNotFound(reset.error) ? t('auth:userDoesNotExist') : t('auth:resetFailed')}
            </StatusAlert>
          ) : null}
          <NewPasswordFields
            state={fresh}
            passwordLabel={t('auth:newPassword')}
            confirmLabel={t('auth:confirmPassword')}
            passwordName="password"
            showErrors={touched}
          />
          <Button type="submit" colorPalette="blue" loading={reset.isPending} {...serverAction}>
            {t('common:save')}
          </Button>
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
          </Link>
        </Stack>
      </form>
    </PublicLayout>
  );
}
