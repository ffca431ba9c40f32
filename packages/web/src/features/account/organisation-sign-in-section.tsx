/**
 * How the user's organisation signs in: with Microsoft (bound to its Entra tenant), with password and
 * authenticator, or both. The server keeps at least one way open and refuses, with its own message,
 * turning passwords off before the person has signed in with Microsoft.
 */
import { Button, Checkbox, Field, Input, Stack, Text } from '@chakra-ui/react';
import type { SignInSettings } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { accountKeys } from './api/keys';
import { signInOptionsQuery, signInSettingsQuery } from './api/queries';
import { quiet, Section } from './security-parts';
import { WRAPPING_LABEL } from './wrapping';

const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function OrganisationSignInSection() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const queryClient = useQueryClient();
  const settings = useQuery(signInSettingsQuery(api));
  const options = useQuery(signInOptionsQuery(api));
  const [draft, setDraft] = useState<SignInSettings | null>(null);
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  useEffect(() => {
    if (settings.data && !draft) setDraft(settings.data);
  }, [settings.data, draft]);
  const save = useMutation({
    mutationFn: (body: SignInSettings) => api.legacy.auth.updateSignInSettings({ body }, quiet),
    onSuccess: (saved) => {
      setDraft(saved);
      queryClient.setQueryData(accountKeys.signInSettings(), saved);
    },
  });

  const title = t('accountSecurity:organisationSignIn.title');
  if (settings.isError) {
    return (
      <Section title={title} testId="organisation-sign-in">
        <StatusAlert status="error">{t('accountSecurity:organisationSignIn.failed')}</StatusAlert>
      </Section>
    );
  }
  if (!draft) {
    return (
      <Section title={title} testId="organisation-sign-in">
        <Text color="fg.muted">{t('common:loading')}</Text>
      </Section>
    );
  }
  const offered = options.data?.microsoft ?? false;
  const tenant = draft.entraTenantId ?? '';
  const tenantError =
    draft.microsoft && !TENANT_ID.test(tenant) ? t('accountSecurity:organisationSignIn.tenantInvalid') : null;
  const failure = save.error ? messageKeyOf(save.error) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (tenantError) return;
    save.reset();
    save.mutate({ ...draft, entraTenantId: tenant.trim() === '' ? null : tenant.trim() });
  };
  const change = (next: Partial<SignInSettings>) => {
    save.reset();
    setDraft({ ...draft, ...next });
  };

  return (
    <Section title={title} testId="organisation-sign-in">
      <Text color="fg.muted">{t('accountSecurity:organisationSignIn.intro')}</Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="4" maxW="md">
          {failure ? <StatusAlert status="error">{t(`apiErrors:${failure}`)}</StatusAlert> : null}
          {save.isSuccess ? (
            <StatusAlert status="success">{t('accountSecurity:organisationSignIn.saved')}</StatusAlert>
          ) : null}
          <Stack gap="1">
            <Checkbox.Root
              checked={draft.microsoft}
              disabled={!offered && !draft.microsoft}
              onCheckedChange={(e) => change({ microsoft: e.checked === true })}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('accountSecurity:organisationSignIn.microsoft')}</Checkbox.Label>
            </Checkbox.Root>
            <Text fontSize="sm" color="fg.muted">
              {offered
                ? t('accountSecurity:organisationSignIn.microsoftHint')
                : t('accountSecurity:organisationSignIn.notOffered')}
            </Text>
          </Stack>
          {draft.microsoft ? (
            <Field.Root invalid={touched && tenantError !== null} required>
              <Field.Label>{t('accountSecurity:organisationSignIn.tenantId')}</Field.Label>
              <Input
                name="entraTenantId"
                value={tenant}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => change({ entraTenantId: e.target.value })}
              />
              <Field.HelperText>{t('accountSecurity:organisationSignIn.tenantHint')}</Field.HelperText>
              <Field.ErrorText>{tenantError}</Field.ErrorText>
            </Field.Root>
          ) : null}
          <Stack gap="1">
            <Checkbox.Root checked={draft.password} onCheckedChange={(e) => change({ password: e.checked === true })}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('accountSecurity:organisationSignIn.password')}</Checkbox.Label>
            </Checkbox.Root>
            <Text fontSize="sm" color="fg.muted">
              {t('accountSecurity:organisationSignIn.passwordHint')}
            </Text>
          </Stack>
          <Button
            {...WRAPPING_LABEL}
            type="submit"
            colorPalette="blue"
            alignSelf="flex-start"
            loading={save.isPending}
            {...serverAction}
          >
            {t('accountSecurity:organisationSignIn.save')}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}
