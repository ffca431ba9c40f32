import { Box, Stack, Text } from '@chakra-ui/react';
import type { Tenant } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { useSaveTenant } from './api/mutations';
import { consentSetupQuery } from './api/queries';
import { AppRegistrationGuide } from './app-registration-guide';
import { useFailure } from './use-failure';

/** A Microsoft Entra ID (application, tenant, object): 00000000-0000-0000-0000-000000000000. */
const GUID = /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/**
 * A new tenant's seven fields, or an existing one's (its tenant and organisation fixed), each with
 * what it is and where the Microsoft Entra admin center shows it; a new tenant's redirect URI is the
 * portal's own; beside them, how to prepare the app registration and the permissions it needs.
 */
export function TenantForm({
  tenant,
  organisationId,
  onClose,
}: {
  tenant?: Tenant;
  organisationId: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const setup = useQuery(consentSetupQuery(api));
  const worker = useWorker();
  const failure = useFailure();
  const [touched, setTouched] = useState(false);
  const [values, setValues] = useState({
    tenantName: tenant?.tenantName ?? '',
    applicationId: tenant?.applicationId ?? '',
    clientSecret: '',
    tenantId: tenant?.tenantId ?? '',
    objectId: tenant?.objectId ?? '',
    redirectUri: tenant?.redirectUri ?? '',
    organisationId: tenant?.organisationId ?? organisationId,
  });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  // A new tenant's redirect URI is the portal's consent page, once the server has said which it is.
  const portalRedirect = setup.data?.redirectUri;
  useEffect(() => {
    if (!tenant && portalRedirect) setValues((v) => (v.redirectUri ? v : { ...v, redirectUri: portalRedirect }));
  }, [tenant, portalRedirect]);
  const check = useValidator();
  const guid = (value: string) => check(value, rules.required(), rules.pattern(GUID));
  const errors = {
    tenantName: check(values.tenantName, rules.required(), rules.maxLength(120)),
    applicationId: guid(values.applicationId),
    // Editing keeps the stored secret unless a new one is typed.
    clientSecret: tenant ? null : check(values.clientSecret, rules.required()),
    tenantId: guid(values.tenantId),
    objectId: guid(values.objectId),
    redirectUri: check(values.redirectUri, rules.required(), rules.url()),
    organisationId: check(values.organisationId, rules.required()),
  };
  const save = useSaveTenant(tenant, (saved) => {
    showToast('success', t('configuration:created', { name: saved.tenantName }));
    onClose();
  });
  // The same element at every render: typing in a field does not render the guide's table again.
  const guide = useMemo(
    () => (
      <Box mt="6">
        <AppRegistrationGuide />
      </Box>
    ),
    [],
  );
  const help = {
    tenantName: t('tenantConnection:fields.tenantName'),
    applicationId: t('tenantConnection:fields.applicationId'),
    clientSecret: t('tenantConnection:fields.clientSecret'),
    tenantId: t('tenantConnection:fields.tenantId'),
    objectId: t('tenantConnection:fields.objectId'),
    // The portal's own address is named only where the field holds another.
    redirectUri:
      portalRedirect && values.redirectUri.trim() !== portalRedirect
        ? `${t('tenantConnection:fields.redirectUri')} ${t('tenantConnection:fields.redirectUriThis', { uri: portalRedirect })}`
        : t('tenantConnection:fields.redirectUri'),
    organisationId:
      worker?.organisationName && worker.clientId === values.organisationId.trim()
        ? `${t('tenantConnection:fields.organisationId')} ${t('tenantConnection:fields.organisationIdNamed', { name: worker.organisationName })}`
        : t('tenantConnection:fields.organisationId'),
  } satisfies Record<keyof typeof values, string>;
  const field = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={set(key)}
      error={errors[key]}
      showError={touched}
      helperText={help[key]}
      {...extra}
    />
  );
  return (
    <FormDialog
      title={t(tenant ? 'configuration:editTenant' : 'configuration:createTenant')}
      formId="tenant-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null))
          save.mutate({
            tenantName: values.tenantName.trim(),
            applicationId: values.applicationId.trim(),
            clientSecret: values.clientSecret.trim(),
            tenantId: values.tenantId.trim(),
            objectId: values.objectId.trim(),
            redirectUri: values.redirectUri.trim(),
            organisationId: values.organisationId.trim(),
          });
      }}
      submitLabel={t('common:save')}
      pending={save.isPending}
      onClose={onClose}
      aside={guide}
    >
      <Stack gap="4">
        {field('tenantName', t('configuration:tenantName'), { maxLength: 120 })}
        {field('applicationId', t('configuration:applicationId'))}
        {field('clientSecret', t(tenant ? 'configuration:clientSecretKeep' : 'configuration:clientSecret'), {
          type: 'password',
          autoComplete: 'new-password',
          required: !tenant,
        })}
        {field('tenantId', t('configuration:tenantId'), { disabled: !!tenant })}
        {field('objectId', t('configuration:objectId'))}
        {field('redirectUri', t('configuration:redirectUri'), { type: 'url' })}
        {field('organisationId', t('configuration:organisationId'), { disabled: !!tenant })}
        {tenant ? (
          <Text fontSize="sm" color="fg.muted" data-testid="admin-consent-status">
            {tenant.adminConsentAt
              ? t('tenantConnection:consentHeld', {
                  date: formatDateTime(tenant.adminConsentAt, i18n.language),
                  by: tenant.adminConsentBy ?? '',
                })
              : t('tenantConnection:consentNever')}
          </Text>
        ) : null}
        {save.error ? (
          <StatusAlert status="error">{failure(save.error, tenant ? 'update' : 'create')}</StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
