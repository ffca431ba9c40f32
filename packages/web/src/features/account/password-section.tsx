/** The password, changed with the current one; every other session ends. */
import { Text } from '@chakra-ui/react';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { NewPasswordFields, useNewPassword } from '../../components/ui/new-password';
import { useServerAction } from '../../offline/online';
import { useChangePassword } from './api/mutations';
import { changeErrorKey } from './change-errors';
import { ReauthenticationFields, useReauthentication } from './reauthentication';
import { DisclosedForm, Section, useDisclosure } from './security-parts';

export function PasswordSection() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const disclosure = useDisclosure();
  const [touched, setTouched] = useState(false);
  const reauth = useReauthentication({ secondFactor: false, allowRecoveryCode: false });
  const fresh = useNewPassword(reauth.password);
  const serverAction = useServerAction();
  const change = useChangePassword(api, () => {
    disclosure.setOpen(false);
    reauth.reset();
    fresh.clear();
    setTouched(false);
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
