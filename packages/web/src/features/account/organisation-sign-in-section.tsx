/**
 * How the user's organisation signs in: with Microsoft (from its Entra tenant), with password and
 * authenticator, or both. A tenant id set waits for a member's sign-in with Microsoft from it, which
 * proves that the organisation controls the directory; the section says where it stands and starts
 * that sign-in. Every change is confirmed in a dialog (password and a code, or a recovery code)
 * unless the session signed in with Microsoft a few minutes ago; the server refuses, with its own
 * message, what would lock members out.
 */
import { Alert, Box, Button, Checkbox, Field, Input, Stack, Text } from '@chakra-ui/react';
import type { EntraTenantBinding, SignInSettings } from '@compliance-portal/sdk';
import { ApiError } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { useSaveSignInSettings, useSignInWithMicrosoftAgain } from './api/mutations';
import { signInOptionsQuery, signInSettingsQuery } from './api/queries';
import { ReauthenticationFields, useReauthentication } from './reauthentication';
import { Section } from './security-parts';
import { WRAPPING_LABEL } from './wrapping';

const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The refusals that concern the confirmation: shown in its dialog, which stays open. */
const CONFIRMATION_CODES: ReadonlySet<string | undefined> = new Set([
  'reauthenticationRequired',
  'reauthenticationPasswordWrong',
  'reauthenticationCodeWrong',
  'accountLocked',
]);
const isConfirmationRefusal = (error: unknown) => error instanceof ApiError && CONFIRMATION_CODES.has(error.code);

/** What the form edits. */
type Draft = Pick<SignInSettings, 'microsoft' | 'entraTenantId' | 'password'>;
const draftOf = ({ microsoft, entraTenantId, password }: SignInSettings): Draft => ({
  microsoft,
  entraTenantId,
  password,
});

/** Where the organisation's tenant stands, and what to do about it. */
function TenantStatus({
  binding,
  canConfirm,
  onConfirm,
  confirming,
  confirmFailure,
  onStartAgain,
  startingAgain,
}: {
  binding: EntraTenantBinding;
  canConfirm: boolean;
  onConfirm: () => void;
  confirming: boolean;
  confirmFailure: string | null;
  onStartAgain: () => void;
  startingAgain: boolean;
}) {
  const { t, i18n } = useTranslation();
  const serverAction = useServerAction();
  const at = (iso: string | null) => formatDateTime(iso, i18n.language);
  const texts = 'accountSecurity:organisationSignIn';
  const status = binding.state === 'bound' ? 'success' : binding.state === 'pending' ? 'info' : 'warning';
  const title =
    binding.state === 'bound'
      ? t(`${texts}.boundTitle`)
      : binding.state === 'pending'
        ? t(`${texts}.pendingTitle`)
        : t(`${texts}.expiredTitle`);
  const words = { since: at(binding.since), until: at(binding.expiresAt), by: binding.by ?? '' };
  return (
    <Alert.Root status={status} alignItems="flex-start" data-testid="tenant-status" data-state={binding.state}>
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0">
        <Alert.Title>
          {t(`${texts}.tenantStatus`)}: {title}
        </Alert.Title>
        <Text fontFamily="mono" fontSize="sm" wordBreak="break-all">
          {binding.tenantId}
        </Text>
        <Alert.Description>
          <Stack gap="2">
            {binding.state === 'bound' ? (
              <Text>
                {binding.proof === 'operator' || !binding.by
                  ? t(`${texts}.boundByOperator`, words)
                  : t(`${texts}.bound`, words)}
              </Text>
            ) : null}
            {binding.state === 'pending' ? (
              <>
                <Text>{binding.by ? t(`${texts}.pending`, words) : t(`${texts}.pendingNoOne`, words)}</Text>
                <Text>{t(`${texts}.pendingWhy`)}</Text>
                {canConfirm ? (
                  <Stack gap="1" align="flex-start">
                    <Button
                      {...WRAPPING_LABEL}
                      size="sm"
                      colorPalette="blue"
                      loading={confirming}
                      onClick={onConfirm}
                      {...serverAction}
                    >
                      {t(`${texts}.confirm`)}
                    </Button>
                    <Text fontSize="sm">{t(`${texts}.confirmHint`)}</Text>
                  </Stack>
                ) : (
                  <Text fontSize="sm">{t(`${texts}.confirmNotNow`)}</Text>
                )}
                {confirmFailure ? <StatusAlert status="error">{confirmFailure}</StatusAlert> : null}
              </>
            ) : null}
            {binding.state === 'expired' ? (
              <>
                <Text>{t(`${texts}.expired`, words)}</Text>
                <Text>{t(`${texts}.pendingWhy`)}</Text>
                <Button
                  {...WRAPPING_LABEL}
                  size="sm"
                  variant="outline"
                  alignSelf="flex-start"
                  loading={startingAgain}
                  onClick={onStartAgain}
                  {...serverAction}
                >
                  {t(`${texts}.startAgain`)}
                </Button>
              </>
            ) : null}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * Asks who is making the change: the password and a code (or a recovery code); an account without
 * an authenticator confirms by signing in with Microsoft again instead.
 */
function ConfirmationDialog({
  secondFactor,
  pending,
  failure,
  onConfirm,
  onMicrosoft,
  onClose,
}: {
  secondFactor: boolean;
  pending: boolean;
  failure: string | null;
  onConfirm: (body: ReturnType<ReturnType<typeof useReauthentication>['body']>) => void;
  onMicrosoft: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const reauth = useReauthentication({ secondFactor: true, allowRecoveryCode: true });
  const [touched, setTouched] = useState(false);
  const texts = 'accountSecurity:organisationSignIn';
  return (
    <FormDialog
      title={t(`${texts}.reauthTitle`)}
      formId={formId}
      submitLabel={secondFactor ? t(`${texts}.reauthSubmit`) : t(`${texts}.reauthMicrosoft`)}
      pending={pending}
      onClose={onClose}
      onSubmit={() => {
        if (!secondFactor) {
          onMicrosoft();
          return;
        }
        setTouched(true);
        if (reauth.valid) onConfirm(reauth.body());
      }}
    >
      <Stack gap="4">
        <Text color="fg.muted">{secondFactor ? t(`${texts}.reauthIntro`) : t(`${texts}.reauthMicrosoftOnly`)}</Text>
        {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
        {secondFactor ? <ReauthenticationFields reauth={reauth} showErrors={touched} autoFocus /> : null}
      </Stack>
    </FormDialog>
  );
}

export function OrganisationSignInSection() {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { context } = useSession();
  const settings = useQuery(signInSettingsQuery(api));
  const options = useQuery(signInOptionsQuery(api));
  const [draft, setDraft] = useState<Draft | null>(null);
  const [touched, setTouched] = useState(false);
  // The settings waiting for the confirmation dialog, while it is open.
  const [asking, setAsking] = useState<Draft | null>(null);
  const serverAction = useServerAction();
  const save = useSaveSignInSettings(api);
  const microsoftAgain = useSignInWithMicrosoftAgain(api);
  useEffect(() => {
    if (settings.data && !draft) setDraft(draftOf(settings.data));
  }, [settings.data, draft]);

  const title = t('accountSecurity:organisationSignIn.title');
  if (settings.isError) {
    return (
      <Section title={title} testId="organisation-sign-in">
        <StatusAlert status="error">{t('accountSecurity:organisationSignIn.failed')}</StatusAlert>
      </Section>
    );
  }
  if (!draft || !settings.data) {
    return (
      <Section title={title} testId="organisation-sign-in">
        <Text color="fg.muted">{t('common:loading')}</Text>
      </Section>
    );
  }
  const current = settings.data;
  const offered = options.data?.microsoft ?? false;
  const tenant = draft.entraTenantId ?? '';
  const tenantError =
    draft.microsoft && !TENANT_ID.test(tenant) ? t('accountSecurity:organisationSignIn.tenantInvalid') : null;
  const failureText = (error: unknown) => t(`apiErrors:${messageKeyOf(error)}`);
  // A refusal of the confirmation is shown in its dialog; any other under the form.
  const formFailure = save.error && !isConfirmationRefusal(save.error) ? failureText(save.error) : null;
  const dialogFailure = save.error && isConfirmationRefusal(save.error) ? failureText(save.error) : null;

  const send = (values: Draft, confirmation = {}) => {
    save.mutate(
      { ...values, entraTenantId: values.entraTenantId?.trim() || null, ...confirmation },
      {
        onSuccess: (saved) => {
          setDraft(draftOf(saved));
          setAsking(null);
        },
        // The session's sign-in with Microsoft has become too old meanwhile: ask after all.
        onError: (error) => {
          if (isConfirmationRefusal(error)) setAsking(values);
        },
      },
    );
  };
  const request = (values: Draft) => {
    save.reset();
    if (current.reauthentication.needed) setAsking(values);
    else send(values);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (tenantError || serverAction.disabled) return;
    request(draft);
  };
  const change = (next: Partial<Draft>) => {
    save.reset();
    setDraft({ ...draft, ...next });
  };
  const recentUntil =
    !current.reauthentication.needed && current.reauthentication.microsoftUntil
      ? formatDateTime(current.reauthentication.microsoftUntil, i18n.language)
      : null;

  return (
    <Section title={title} testId="organisation-sign-in">
      <Text color="fg.muted">{t('accountSecurity:organisationSignIn.intro')}</Text>
      {current.entraTenant ? (
        <Box maxW="2xl">
          <TenantStatus
            binding={current.entraTenant}
            canConfirm={offered && current.microsoft}
            onConfirm={() => microsoftAgain.mutate(context.user?.user.email ?? '')}
            // Once the browser is on its way, the button stays busy until the page goes.
            confirming={microsoftAgain.isPending || microsoftAgain.isSuccess}
            confirmFailure={microsoftAgain.error ? failureText(microsoftAgain.error) : null}
            onStartAgain={() =>
              request({ ...draft, entraTenantId: current.entraTenant?.tenantId ?? draft.entraTenantId })
            }
            startingAgain={save.isPending}
          />
        </Box>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="4" maxW="md">
          {formFailure ? <StatusAlert status="error">{formFailure}</StatusAlert> : null}
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
          {recentUntil ? (
            <Text fontSize="sm" color="fg.muted" data-testid="microsoft-recent">
              {t('accountSecurity:organisationSignIn.microsoftRecent', { until: recentUntil })}
            </Text>
          ) : null}
          <Button
            {...WRAPPING_LABEL}
            type="submit"
            colorPalette="blue"
            alignSelf="flex-start"
            loading={save.isPending && asking === null}
            {...serverAction}
          >
            {t('accountSecurity:organisationSignIn.save')}
          </Button>
        </Stack>
      </form>
      {asking ? (
        <ConfirmationDialog
          secondFactor={current.reauthentication.secondFactor}
          pending={save.isPending || microsoftAgain.isPending}
          failure={dialogFailure ?? (microsoftAgain.error ? failureText(microsoftAgain.error) : null)}
          onConfirm={(confirmation) => send(asking, confirmation)}
          onMicrosoft={() => microsoftAgain.mutate(context.user?.user.email ?? '')}
          onClose={() => {
            setAsking(null);
            save.reset();
          }}
        />
      ) : null}
    </Section>
  );
}
