/** The authenticator app: its state, resetting it (then a new setup) and new recovery codes. */
import { Button, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { RecoveryCodeList } from '../../components/ui/recovery-code-list';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { useNewRecoveryCodes, useResetAuthenticator } from './api/mutations';
import { twoFactorStateQuery } from './api/queries';
import { changeErrorKey } from './change-errors';
import { ReauthenticationFields, useReauthentication } from './reauthentication';
import { BACK_HERE, DisclosedForm, Section, useDisclosure } from './security-parts';
import { WRAPPING_LABEL } from './wrapping';

/** Resets the authenticator, then the session leads through the QR setup of a new one. */
function ResetAuthenticator() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { send } = useSession();
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: true, allowRecoveryCode: true });
  const serverAction = useServerAction();
  const reset = useResetAuthenticator(api, () => send({ type: 'session.twoFactorReset', returnTo: BACK_HERE }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (reauth.valid && !serverAction.disabled) reset.mutate(reauth.body());
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
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const reauth = useReauthentication({ secondFactor: true, allowRecoveryCode: false });
  const serverAction = useServerAction();
  const make = useNewRecoveryCodes(api, (fresh) => {
    setCodes(fresh);
    disclosure.setOpen(false);
    reauth.reset();
    setTouched(false);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (reauth.valid && !serverAction.disabled) make.mutate(reauth.body());
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

export function AuthenticatorSection() {
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
