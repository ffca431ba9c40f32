import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';

export function SignInPage() {
  const { t } = useTranslation();
  const { send, context, matches } = useSession();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const busy = matches('signingIn');
  const serverAction = useServerAction();
  const check = useValidator();
  const emailError = check(email, rules.required(), rules.email());
  const passwordError = check(password, rules.required());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (emailError || passwordError || serverAction.disabled) return;
    send({
      type: 'session.login',
      email: email.trim(),
      password,
      ...(search.redirect ? { returnTo: search.redirect } : {}),
    });
  };

  return (
    <PublicLayout title={t('auth:signInTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">{t('auth:signInIntro')}</Text>
          {context.error ? (
            <Text role="alert" color="fg.error" data-testid="signin-error">
              {t(`auth:${context.error}`)}
            </Text>
          ) : null}
          <TextField
            label={t('auth:email')}
            error={emailError}
            showError={touched}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label={t('auth:password')}
            error={passwordError}
            showError={touched}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Button type="submit" colorPalette="blue" loading={busy} loadingText={t('auth:signingIn')} {...serverAction}>
            {t('auth:signIn')}
          </Button>
          <Link asChild fontSize="sm" alignSelf="flex-start" color="brand.600">
            <RouterLink to="/forgot-password">{t('auth:forgotPasswordLink')}</RouterLink>
          </Link>
        </Stack>
      </form>
    </PublicLayout>
  );
}
