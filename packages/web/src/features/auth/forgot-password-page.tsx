import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { useForgotPassword } from './api/mutations';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  const send = useForgotPassword(api);
  const check = useValidator();
  const error = check(email, rules.required(), rules.email());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!error && !serverAction.disabled) send.mutate(email.trim());
  };

  return (
    <PublicLayout title={t('auth:forgotTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">{t('auth:forgotIntro')}</Text>
          {send.isSuccess ? <StatusAlert status="success">{t('auth:linkSent')}</StatusAlert> : null}
          {send.isError ? <StatusAlert status="error">{t('auth:sendLinkFailed')}</StatusAlert> : null}
          <TextField
            label={t('auth:email')}
            error={error}
            showError={touched}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" colorPalette="blue" loading={send.isPending} {...serverAction}>
            {t('auth:sendLink')}
          </Button>
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
          </Link>
        </Stack>
      </form>
    </PublicLayout>
  );
}
