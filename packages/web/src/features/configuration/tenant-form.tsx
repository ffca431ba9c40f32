import { Stack } from '@chakra-ui/react';
import type { Tenant } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { useOrganisationChanged } from '../../session/context';
import { useApi } from '../../shared/tenant';
import { configurationKeys } from './api/keys';
import { useFailure } from './use-failure';

/** A Microsoft Entra ID (application, tenant, object): 00000000-0000-0000-0000-000000000000. */
const GUID = /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/** A new tenant's seven fields, or an existing one's (its tenant and organisation fixed). */
export function TenantForm({
  tenant,
  organisationId,
  onClose,
}: {
  tenant?: Tenant;
  organisationId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const organisationChanged = useOrganisationChanged();
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
  const save = useMutation({
    mutationFn: () => {
      const v = Object.fromEntries(Object.entries(values).map(([k, x]) => [k, x.trim()])) as typeof values;
      return tenant
        ? api.apollo.tenants.update(
            {
              tenantId: tenant.tenantId,
              body: {
                tenantName: v.tenantName,
                applicationId: v.applicationId,
                objectId: v.objectId,
                redirectUri: v.redirectUri,
                ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}),
              },
            },
            { disableToast: true },
          )
        : api.apollo.tenants.create({ body: v }, { disableToast: true });
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
      // A tenant connected (the first, or one while none is active) becomes the worker's: the session follows.
      organisationChanged();
      showToast('success', t('configuration:created', { name: saved.tenantName }));
      onClose();
    },
  });
  const field = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={set(key)}
      error={errors[key]}
      showError={touched}
      {...extra}
    />
  );
  return (
    <FormDialog
      title={t(tenant ? 'configuration:editTenant' : 'configuration:createTenant')}
      formId="tenant-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) save.mutate();
      }}
      submitLabel={t('common:save')}
      pending={save.isPending}
      onClose={onClose}
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
        {save.error ? (
          <StatusAlert status="error">{failure(save.error, tenant ? 'update' : 'create')}</StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
