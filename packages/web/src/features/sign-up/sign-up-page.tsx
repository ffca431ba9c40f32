/**
 * /signup: a new organisation's first administrator creates an account (apollo /register: an email
 * address and a password under the portal's rules; the server names the organisation after the
 * address's domain, on a trial licence), then checks the mail for the confirmation link. When the
 * server takes no sign-ups, the page says so and whom to ask.
 */
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { NewPasswordFields, useNewPassword } from '../../components/ui/new-password';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { useRegister } from './api/mutations';
import { signUpRefusal } from './refusals';
import { Notice } from './resend-confirmation';

export function SignUpPage() {
  const { config } = useRouteContext({ from: '__root__' });
  const [closedByServer, setClosedByServer] = useState(false);
  if (config.selfRegistration !== 'open' || closedByServer) return <SignUpClosed supportEmail={config.supportEmail} />;
  return <SignUpForm onClosed={() => setClosedByServer(true)} />;
}

function SignUpForm({ onClosed }: { onClosed: () => void }) {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const fresh = useNewPassword();
  const [touched, setTouched] = useState(false);
  /** What the server last refused, so that its refusal stands next to a field until that field changes. */
  const [sent, setSent] = useState<{ email: string; password: string } | null>(null);
  const serverAction = useServerAction();
  const register = useRegister(api);
  const check = useValidator();
  const form = useRef<HTMLFormElement>(null);

  const refusal = register.isError ? signUpRefusal(register.error) : null;
  const typedEmail = email.trim();
  const emailInvalid = check(email, rules.required(), rules.email());
  const emailRefused = refusal?.email && sent?.email === typedEmail ? t(`signUp:errors.${refusal.email}`) : null;
  const passwordRefused =
    refusal?.password && sent?.password === fresh.password
      ? t('signUp:errors.passwordRules', {
          rules: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
            refusal.password.map((rule) => t(`signUp:errors.rules.${rule}`)),
          ),
        })
      : null;
  const formError =
    refusal?.form === 'network' ? t('errors:network') : refusal?.form ? t(`signUp:errors.${refusal.form}`) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (emailInvalid || fresh.passwordError || fresh.confirmError || serverAction.disabled) return;
    const body = { email: typedEmail, password: fresh.password };
    setSent(body);
    register.mutate(body, {
      onSuccess: () => void navigate({ to: '/signup/check-mail', search: { email: body.email } }),
      onError: (error) => {
        const refused = signUpRefusal(error);
        if (refused.closed) return onClosed();
        // The first refused field takes the focus, so a keyboard or screen reader user lands on it.
        const field = refused.email ? 'email' : refused.password ? 'password' : null;
        const input = field ? form.current?.elements.namedItem(field) : null;
        if (input instanceof HTMLInputElement) input.focus();
      },
    });
  };

  return (
    <PublicLayout title={t('signUp:title')}>
      <form ref={form} onSubmit={submit} noValidate data-testid="sign-up-form">
        <Stack gap="4">
          <Text color="fg.muted">{t('signUp:intro')}</Text>
          <Text color="fg.muted" fontSize="sm">
            {t('signUp:joinHint')}
          </Text>
          {formError ? <StatusAlert status="error">{formError}</StatusAlert> : null}
          <TextField
            label={t('auth:email')}
            error={emailInvalid ?? emailRefused}
            showError={touched}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Text color="fg.muted" fontSize="sm">
            {t('auth:passwordRules')}
          </Text>
          <NewPasswordFields
            state={{ ...fresh, passwordError: fresh.passwordError ?? passwordRefused }}
            passwordLabel={t('auth:password')}
            confirmLabel={t('auth:confirmPassword')}
            passwordName="password"
            showErrors={touched}
          />
          <Button
            type="submit"
            colorPalette="blue"
            loading={register.isPending}
            loadingText={t('signUp:submitting')}
            {...serverAction}
          >
            {t('signUp:submit')}
          </Button>
          <Text fontSize="sm">
            {t('signUp:haveAccount')}{' '}
            <Link asChild color="brand.600">
              <RouterLink to="/signin">{t('auth:signIn')}</RouterLink>
            </Link>
          </Text>
        </Stack>
      </form>
    </PublicLayout>
  );
}

/** Sign-up is closed (PORTAL_SELF_REGISTRATION): who creates accounts instead. */
function SignUpClosed({ supportEmail }: { supportEmail: string }) {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('signUp:title')}>
      <Stack gap="4" data-testid="sign-up-closed">
        <Notice status="info" title={t('signUp:closed.title')}>
          {t('signUp:closed.text')}
        </Notice>
        <Text>{t('signUp:closed.colleagues')}</Text>
        <Text>{t('signUp:closed.partner')}</Text>
        {supportEmail ? (
          <Text>
            {t('signUp:closed.operator')}{' '}
            <Link href={`mailto:${supportEmail}`} color="brand.600" overflowWrap="anywhere">
              {supportEmail}
            </Link>
          </Text>
        ) : null}
        <Link asChild fontSize="sm" color="brand.600">
          <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
        </Link>
      </Stack>
    </PublicLayout>
  );
}
