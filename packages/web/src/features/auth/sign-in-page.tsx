import { Box, Button, Link, Stack, Text } from '@chakra-ui/react';
import { getRouteApi, Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, type ReactNode, type Ref, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { switchLanguage } from '../../i18n';
import { type ServerActionProps, useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { MicrosoftSignIn } from './microsoft-sign-in';
import { findPrerenderedSignIn, PRERENDERED_ATTRIBUTE, SIGN_UP_ATTRIBUTE, takePrerenderedSignIn } from './prerendered';

export function SignInPage() {
  const { t, i18n } = useTranslation();
  const { config } = useRouteContext({ from: '__root__' });
  const { send, context, matches } = useSession();
  const search = getRouteApi('/signin').useSearch();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const busy = matches('signingIn');
  const serverAction = useServerAction();
  const check = useValidator();
  const emailError = check(email, rules.required(), rules.email());
  const passwordError = check(password, rules.required());
  const form = useRef<HTMLFormElement>(null);
  // The page prerendered at build time is still in the document while this first renders.
  findPrerenderedSignIn();

  const signIn = (values: { email: string; password: string }) => {
    setTouched(true);
    const invalid = check(values.email, rules.required(), rules.email()) ?? check(values.password, rules.required());
    if (invalid || serverAction.disabled) return;
    send({
      type: 'session.login',
      email: values.email.trim(),
      password: values.password,
      ...(search.redirect ? { returnTo: search.redirect } : {}),
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn({ email, password });
  };
  // Once on screen, takes over what was typed into the prerendered page, its focus, its language and
  // its submission: a layout effect, right after the swap, before any input reaches the page's own
  // fields (what did reach them is kept).
  useLayoutEffect(() => {
    const early = takePrerenderedSignIn();
    if (!early) return;
    setEmail((typed) => typed || early.email);
    setPassword((typed) => typed || early.password);
    const field = early.focused ? form.current?.elements.namedItem(early.focused) : null;
    if (field instanceof HTMLInputElement) field.focus();
    if (early.language === 'en' || early.language === 'de') {
      if (early.language !== i18n.language) void switchLanguage(i18n, early.language);
    }
    if (early.submitted) signIn(early);
  });

  return (
    <SignInView
      email={email}
      password={password}
      onEmailChange={setEmail}
      onPasswordChange={setPassword}
      emailError={emailError}
      passwordError={passwordError}
      showErrors={touched}
      error={context.error ? t(`auth:${context.error}`) : null}
      busy={busy}
      serverAction={serverAction}
      onSubmit={submit}
      forgotPasswordLink={<RouterLink to="/forgot-password">{t('auth:forgotPasswordLink')}</RouterLink>}
      signUpLink={
        config.selfRegistration === 'open' ? <RouterLink to="/signup">{t('auth:createAccount')}</RouterLink> : null
      }
      errorAction={
        context.error === 'emailNotConfirmed' ? (
          <RouterLink to="/signup/check-mail" search={email.trim() ? { email: email.trim() } : {}}>
            {t('auth:resendConfirmation')}
          </RouterLink>
        ) : null
      }
      formRef={form}
      otherWays={<MicrosoftSignIn email={email} returnTo={search.redirect} onNeedEmail={() => setTouched(true)} />}
    />
  );
}

export interface SignInViewProps {
  email: string;
  password: string;
  onEmailChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
  emailError: string | null;
  passwordError: string | null;
  showErrors: boolean;
  /** The sign-in's failure, translated. */
  error: string | null;
  busy: boolean;
  serverAction: ServerActionProps;
  onSubmit: (event: FormEvent) => void;
  /** The link to /forgot-password (the router's link in the app, a plain one when prerendered). */
  forgotPasswordLink: ReactElement;
  /**
   * The link to /signup when people may sign up (the server's /app-config.json says so). Prerendered,
   * it is always there but invisible, its line kept so that nothing moves when the boot script shows it
   * (scripts/prerender.ts); closed, the boot script takes it out.
   */
  signUpLink?: ReactElement | null;
  /** What to do about the failure, under it (a link). */
  errorAction?: ReactNode;
  formRef?: Ref<HTMLFormElement>;
  /** Other ways to sign in, under the form (none when prerendered: the server says which it offers). */
  otherWays?: ReactNode;
  /** Rendered at build time: the form is marked so that the app can take over from it. */
  prerendered?: boolean;
}

/**
 * The sign-in page as its props describe it: rendered by SignInPage in the app and, at build time,
 * by src/features/auth/prerender.tsx into index.html so that /signin paints before any script runs.
 */
export function SignInView(props: SignInViewProps) {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('auth:signInTitle')}>
      <form
        ref={props.formRef}
        onSubmit={props.onSubmit}
        noValidate
        {...(props.prerendered ? { [PRERENDERED_ATTRIBUTE]: '' } : {})}
      >
        <Stack gap="4">
          <Text color="fg.muted">{t('auth:signInIntro')}</Text>
          {props.error ? (
            <Text role="alert" color="fg.error" data-testid="signin-error">
              {props.error}
            </Text>
          ) : null}
          {props.errorAction ? (
            <Link asChild fontSize="sm" alignSelf="flex-start" color="brand.600">
              {props.errorAction}
            </Link>
          ) : null}
          <TextField
            label={t('auth:email')}
            error={props.emailError}
            showError={props.showErrors}
            type="email"
            name="email"
            autoComplete="username"
            value={props.email}
            onChange={(e) => props.onEmailChange(e.target.value)}
          />
          <TextField
            label={t('auth:password')}
            error={props.passwordError}
            showError={props.showErrors}
            type="password"
            name="password"
            autoComplete="current-password"
            value={props.password}
            onChange={(e) => props.onPasswordChange(e.target.value)}
          />
          <Button
            type="submit"
            colorPalette="blue"
            loading={props.busy}
            loadingText={t('auth:signingIn')}
            {...props.serverAction}
          >
            {t('auth:signIn')}
          </Button>
          <Link asChild fontSize="sm" alignSelf="flex-start" color="brand.600">
            {props.forgotPasswordLink}
          </Link>
          {props.signUpLink ? (
            <Text
              fontSize="sm"
              data-testid="sign-up-offer"
              {...(props.prerendered ? { [SIGN_UP_ATTRIBUTE]: '', visibility: 'hidden' } : {})}
            >
              {t('auth:noAccount')}{' '}
              <Link asChild color="brand.600">
                {props.signUpLink}
              </Link>
            </Text>
          ) : null}
        </Stack>
      </form>
      {props.otherWays ? <Box mt="4">{props.otherWays}</Box> : null}
    </PublicLayout>
  );
}
