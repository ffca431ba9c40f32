/**
 * Sign-in and security: the email address, the password, the authenticator app and new recovery
 * codes, each changed with the current password again (and a code while two-factor sign-in is on),
 * through apollo's /manage/info and /manage/2fa with the portal's session token.
 */
import { Badge, Button, Card, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { InfoResponse } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { NewPasswordFields, useNewPassword } from '../../components/ui/new-password';
import { RecoveryCodeList } from '../../components/ui/recovery-code-list';
import { rules, useValidator } from '../../components/ui/validation';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { changeErrorKey } from './change-errors';
import { ReauthenticationFields, useReauthentication } from './reauthentication';
import { accountInfoQuery, accountKeys, twoFactorStateQuery } from './security-queries';
import { WRAPPING_LABEL } from './wrapping';

const quiet = { disableToast: true } as const;
/** Where the user comes back to after setting up a new authenticator. */
const BACK_HERE = '/account/settings?tab=security';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card.Root as="section" aria-labelledby={id} data-testid={testId}>
      <Card.Body gap="3">
        <Heading as="h2" size="md" id={id}>
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * A change behind a button: the button opens its form, which takes the focus; Cancel closes it and
 * gives the focus back to the button.
 */
function useDisclosure() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return { open, setOpen, opener };
}

/**
 * A change behind a button (see {@link useDisclosure}): the button, or its form with the fields,
 * the submit button and Cancel.
 */
function DisclosedForm({
  disclosure,
  openLabel,
  onOpen,
  onSubmit,
  submitLabel,
  submitPalette = 'blue',
  pending,
  children,
}: {
  disclosure: ReturnType<typeof useDisclosure>;
  openLabel: string;
  /** Clears what the last attempt left before the form opens. */
  onOpen: () => void;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  submitPalette?: string;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  const formId = useId();
  if (!disclosure.open) {
    return (
      <Button
        {...WRAPPING_LABEL}
        ref={disclosure.opener}
        variant="outline"
        size="sm"
        alignSelf="flex-start"
        aria-expanded={false}
        aria-controls={formId}
        onClick={() => {
          onOpen();
          disclosure.setOpen(true);
        }}
      >
        {openLabel}
      </Button>
    );
  }
  return (
    <form id={formId} onSubmit={onSubmit} noValidate>
      <Stack gap="3" maxW="md">
        {children}
        <Flex gap="2" wrap="wrap">
          <Button {...WRAPPING_LABEL} type="submit" colorPalette={submitPalette} loading={pending} {...serverAction}>
            {submitLabel}
          </Button>
          <Button {...WRAPPING_LABEL} variant="ghost" onClick={() => disclosure.setOpen(false)}>
            {t('common:cancel')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}

/** Keeps the session's user (the user menu, the stored user) on the address the server knows. */
function useSessionEmail(info: InfoResponse | undefined) {
  const { context, send } = useSession();
  const user = context.user?.user;
  useEffect(() => {
    if (info && user && info.email !== user.email)
      send({ type: 'session.userUpdated', user: { ...user, email: info.email } });
  }, [info, user, send]);
}

function EmailSection({ twoFactorOn }: { twoFactorOn: boolean }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { context } = useSession();
  const queryClient = useQueryClient();
  const info = useQuery(accountInfoQuery(api));
  useSessionEmail(info.data);
  const email = info.data?.email ?? context.user?.user.email ?? '';
  const disclosure = useDisclosure();
  const [newEmail, setNewEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: twoFactorOn, allowRecoveryCode: true });
  const serverAction = useServerAction();
  const change = useMutation({
    mutationFn: (body: { newEmail: string } & ReturnType<typeof reauth.body>) =>
      api.apollo.auth.updateInfo({ body }, quiet),
    onSuccess: (answer) => {
      queryClient.setQueryData(accountKeys.info(), answer);
      void queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() });
      disclosure.setOpen(false);
      reauth.reset();
      setTouched(false);
    },
  });
  const check = useValidator();
  const emailError =
    check(newEmail, rules.required(), rules.email()) ??
    (newEmail.trim().toLowerCase() === email.toLowerCase() ? t('accountSecurity:email.same') : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (emailError || !reauth.valid || serverAction.disabled) return;
    change.mutate({ newEmail: newEmail.trim(), ...reauth.body() });
  };

  return (
    <Section title={t('accountSecurity:email.title')} testId="email-section">
      {/* The session's address until the server's arrives. */}
      <Flex gap="2" wrap="wrap" align="center">
        <Text wordBreak="break-all" data-testid="current-email">
          {t('accountSecurity:email.current', { email })}
        </Text>
        {info.data ? (
          <Badge colorPalette={info.data.isEmailConfirmed ? 'green' : 'orange'} variant="subtle">
            {info.data.isEmailConfirmed ? t('accountSecurity:email.confirmed') : t('accountSecurity:email.unconfirmed')}
          </Badge>
        ) : null}
      </Flex>
      {/* Section 8: the account the session names is gone. */}
      {isNotFound(info.error) ? <StatusAlert status="error">{t('auth:userDoesNotExist')}</StatusAlert> : null}
      {change.isSuccess && change.variables ? (
        <StatusAlert status="success">
          {t('accountSecurity:email.sent', { newEmail: change.variables.newEmail, email })}
        </StatusAlert>
      ) : null}
      <DisclosedForm
        disclosure={disclosure}
        openLabel={t('accountSecurity:email.submit')}
        onOpen={() => {
          change.reset();
          setNewEmail('');
        }}
        onSubmit={submit}
        submitLabel={t('accountSecurity:email.submit')}
        pending={change.isPending}
      >
        <Text color="fg.muted" fontSize="sm">
          {t('accountSecurity:email.intro')}
        </Text>
        {change.isError ? <StatusAlert status="error">{t(changeErrorKey(change.error))}</StatusAlert> : null}
        <TextField
          label={t('accountSecurity:email.newEmail')}
          error={emailError}
          showError={touched}
          type="email"
          name="newEmail"
          autoComplete="email"
          // The field that opens with the form takes the focus: the keyboard goes on where the button was.
          autoFocus
          value={newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <ReauthenticationFields reauth={reauth} showErrors={touched} />
      </DisclosedForm>
    </Section>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const queryClient = useQueryClient();
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: false, allowRecoveryCode: false });
  const fresh = useNewPassword(reauth.password);
  const serverAction = useServerAction();
  const change = useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) => api.apollo.auth.updateInfo({ body }, quiet),
    onSuccess: (answer) => {
      queryClient.setQueryData(accountKeys.info(), answer);
      // Every other session ended: the activity's count of them is out of date.
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      disclosure.setOpen(false);
      reauth.reset();
      fresh.clear();
      setTouched(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (fresh.passwordError || fresh.confirmError || !reauth.valid || serverAction.disabled) return;
    change.mutate({ oldPassword: reauth.password, newPassword: fresh.password });
  };

  return (
    <Section title={t('accountSecurity:password.title')} testId="password-section">
      <Text color="fg.muted" fontSize="sm">
        {t('accountSecurity:password.intro')}
      </Text>
      {change.isSuccess ? <StatusAlert status="success">{t('accountSecurity:password.done')}</StatusAlert> : null}
      <DisclosedForm
        disclosure={disclosure}
        openLabel={t('accountSecurity:password.submit')}
        onOpen={() => change.reset()}
        onSubmit={submit}
        submitLabel={t('accountSecurity:password.submit')}
        pending={change.isPending}
      >
        {change.isError ? <StatusAlert status="error">{t(changeErrorKey(change.error))}</StatusAlert> : null}
        <ReauthenticationFields reauth={reauth} showErrors={touched} autoFocus />
        <Text color="fg.muted" fontSize="sm">
          {t('auth:passwordRules')}
        </Text>
        <NewPasswordFields
          state={fresh}
          passwordLabel={t('accountSecurity:newPassword')}
          confirmLabel={t('accountSecurity:confirmPassword')}
          passwordName="newPassword"
          showErrors={touched}
        />
      </DisclosedForm>
    </Section>
  );
}

/** Resets the authenticator, then the session leads through the QR setup of a new one. */
function ResetAuthenticator() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { send } = useSession();
  const queryClient = useQueryClient();
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: true, allowRecoveryCode: true });
  const serverAction = useServerAction();
  const reset = useMutation({
    mutationFn: () =>
      api.apollo.auth.twoFactor(
        { body: { resetSharedKey: true, resetRecoveryCodes: false, forgetMachine: false, ...reauth.body() } },
        quiet,
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: accountKeys.all });
      send({ type: 'session.twoFactorReset', returnTo: BACK_HERE });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (reauth.valid && !serverAction.disabled) reset.mutate();
  };
  return (
    <Stack gap="3" as="section" aria-label={t('accountSecurity:authenticator.resetTitle')}>
      <DisclosedForm
        disclosure={disclosure}
        openLabel={t('accountSecurity:authenticator.resetTitle')}
        onOpen={() => reset.reset()}
        onSubmit={submit}
        submitLabel={t('accountSecurity:authenticator.resetSubmit')}
        submitPalette="red"
        pending={reset.isPending}
      >
        <Heading as="h3" size="sm">
          {t('accountSecurity:authenticator.resetTitle')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('accountSecurity:authenticator.resetIntro')}
        </Text>
        {reset.isError ? <StatusAlert status="error">{t(changeErrorKey(reset.error))}</StatusAlert> : null}
        <ReauthenticationFields reauth={reauth} showErrors={touched} autoFocus />
      </DisclosedForm>
    </Stack>
  );
}

/** New recovery codes, shown once until the user says they are saved. */
function NewRecoveryCodes() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const queryClient = useQueryClient();
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const reauth = useReauthentication({ secondFactor: true, allowRecoveryCode: false });
  const serverAction = useServerAction();
  const make = useMutation({
    mutationFn: () =>
      api.apollo.auth.twoFactor(
        { body: { resetSharedKey: false, resetRecoveryCodes: true, forgetMachine: false, ...reauth.body() } },
        quiet,
      ),
    onSuccess: (answer) => {
      const { recoveryCodes, ...state } = answer;
      queryClient.setQueryData(accountKeys.twoFactor(), state);
      setCodes(recoveryCodes ?? []);
      disclosure.setOpen(false);
      reauth.reset();
      setTouched(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (reauth.valid && !serverAction.disabled) make.mutate();
  };
  const saved = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (codes) saved.current?.focus();
  }, [codes]);

  if (codes) {
    return (
      <Stack gap="3" as="section" aria-label={t('accountSecurity:authenticator.codesTitle')}>
        <StatusAlert status="success">{t('accountSecurity:authenticator.codesShown')}</StatusAlert>
        <RecoveryCodeList codes={codes} />
        <Button
          {...WRAPPING_LABEL}
          ref={saved}
          colorPalette="blue"
          alignSelf="flex-start"
          onClick={() => setCodes(null)}
          data-testid="codes-saved"
        >
          {t('accountSecurity:authenticator.codesSaved')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="3" as="section" aria-label={t('accountSecurity:authenticator.codesTitle')}>
      <DisclosedForm
        disclosure={disclosure}
        openLabel={t('accountSecurity:authenticator.codesTitle')}
        onOpen={() => make.reset()}
        onSubmit={submit}
        submitLabel={t('accountSecurity:authenticator.codesSubmit')}
        pending={make.isPending}
      >
        <Heading as="h3" size="sm">
          {t('accountSecurity:authenticator.codesTitle')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('accountSecurity:authenticator.codesIntro')}
        </Text>
        {make.isError ? <StatusAlert status="error">{t(changeErrorKey(make.error))}</StatusAlert> : null}
        <ReauthenticationFields reauth={reauth} showErrors={touched} autoFocus />
      </DisclosedForm>
    </Stack>
  );
}

function AuthenticatorSection() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { send } = useSession();
  const state = useQuery(twoFactorStateQuery(api));
  return (
    <Section title={t('accountSecurity:authenticator.title')} testId="authenticator-section">
      {state.isPending ? (
        <Skeleton height="5" data-testid="authenticator-loading" />
      ) : state.isError ? (
        <Stack gap="2">
          <StatusAlert status="error">{t('accountSecurity:authenticator.loadFailed')}</StatusAlert>
          <Button {...WRAPPING_LABEL} alignSelf="flex-start" size="sm" onClick={() => void state.refetch()}>
            {t('common:retry')}
          </Button>
        </Stack>
      ) : state.data.isTwoFactorEnabled ? (
        <>
          <Text data-testid="authenticator-state">
            {t('accountSecurity:authenticator.on', { count: state.data.recoveryCodesLeft })}
          </Text>
          <ResetAuthenticator />
          <NewRecoveryCodes />
        </>
      ) : (
        <>
          <Text data-testid="authenticator-state">{t('accountSecurity:authenticator.off')}</Text>
          <Button
            {...WRAPPING_LABEL}
            colorPalette="blue"
            alignSelf="flex-start"
            onClick={() => send({ type: 'session.twoFactorReset', returnTo: BACK_HERE })}
          >
            {t('accountSecurity:authenticator.setUp')}
          </Button>
        </>
      )}
    </Section>
  );
}

/** The security tab: email, password and the authenticator. */
export function SecuritySection() {
  const { api } = useRouteContext({ from: '__root__' });
  const state = useQuery(twoFactorStateQuery(api));
  return (
    <Stack gap="4" maxW="3xl">
      {/* Until the two-factor state is known, the email form asks for a code: the safe guess. */}
      <EmailSection twoFactorOn={state.data?.isTwoFactorEnabled ?? true} />
      <PasswordSection />
      <AuthenticatorSection />
    </Stack>
  );
}
