import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { passwordAcceptable } from '../../components/ui/password-rules';
import { rules, useValidator } from '../../components/ui/validation';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';

export function ResetPasswordPage({ resetToken }: { resetToken: string }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  const reset = useMutation({
    mutationFn: () =>
      api.legacy.auth.resetPassword(
        { token: resetToken, body: { password, confirmPassword: confirm } },
        { disableToast: true },
      ),
  });
  const check = useValidator();
  const passwordError =
    check(password, rules.required()) ?? (passwordAcceptable(password) ? null : t('auth:passwordRules'));
  const confirmError = check(confirm, rules.required()) ?? (confirm === password ? null : t('auth:passwordsDiffer'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!passwordError && !confirmError && !serverAction.disabled) reset.mutate();
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
              {/* Section 8: the link's user is gone (404), else the reset failed. */}
              {isNotFound(reset.error) ? t('auth:userDoesNotExist') : t('auth:resetFailed')}
            </StatusAlert>
          ) : null}
          <TextField
            label={t('auth:newPassword')}
            error={passwordError}
            showError={touched}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <TextField
            label={t('auth:confirmPassword')}
            error={confirmError}
            showError={touched}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
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
