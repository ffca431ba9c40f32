/** The email address: shown with whether it is confirmed, and changed through a confirmation link. */
import { Badge, Flex, Text } from '@chakra-ui/react';
import type { InfoResponse } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { useChangeEmail } from './api/mutations';
import { accountInfoQuery } from './api/queries';
import { changeErrorKey } from './change-errors';
import { ReauthenticationFields, useReauthentication } from './reauthentication';
import { DisclosedForm, Section, useDisclosure } from './security-parts';

/** Keeps the session's user (the user menu, the stored user) on the address the server knows. */
function useSessionEmail(info: InfoResponse | undefined) {
  const { context, send } = useSession();
  const user = context.user?.user;
  useEffect(() => {
    if (info && user && info.email !== user.email)
      send({ type: 'session.userUpdated', user: { ...user, email: info.email } });
  }, [info, user, send]);
}

export function EmailSection({ twoFactorOn }: { twoFactorOn: boolean }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { context } = useSession();
  const info = useQuery(accountInfoQuery(api));
  useSessionEmail(info.data);
  const email = info.data?.email ?? context.user?.user.email ?? '';
  const disclosure = useDisclosure();
  const [newEmail, setNewEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: twoFactorOn, allowRecoveryCode: true });
  const serverAction = useServerAction();
  const change = useChangeEmail(api, () => {
    disclosure.setOpen(false);
    reauth.reset();
    setTouched(false);
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
      {/* The account the session names no longer exists (the server answers 404): say so. */}
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
