import { Button, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { useSession } from '../../session/context';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function SignInPage() {
  const { t } = useTranslation();
  const { send, context, matches } = useSession();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const busy = matches('signingIn');
  const emailError = !email ? t('validation:required') : EMAIL.test(email) ? null : t('validation:email');
  const passwordError = password ? null : t('validation:required');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (emailError || passwordError) return;
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
          <Field.Root invalid={touched && !!emailError} required>
            <Field.Label>{t('auth:email')}</Field.Label>
            <Input
              type="email"
              name="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Field.ErrorText>{emailError}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={touched && !!passwordError} required>
            <Field.Label>{t('auth:password')}</Field.Label>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Field.ErrorText>{passwordError}</Field.ErrorText>
          </Field.Root>
          <Button type="submit" colorPalette="blue" loading={busy} loadingText={t('auth:signingIn')}>
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
