import { Box, Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import type { Tenant, TenantConsentLink } from '@compliance-portal/sdk';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { rules, useValidator } from '../../components/ui/validation';
import { messageKeyOf } from '../../errors/api-errors';
import { useRenewConsent, useStartConsent } from './api/consent';
import { AppRegistrationGuide } from './app-registration-guide';

/** A Microsoft Entra ID: 00000000-0000-0000-0000-000000000000. */
const GUID = /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;
/** A tenant ID or a domain name (contoso.onmicrosoft.com). */
const DIRECTORY = /^([0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|([A-Za-z0-9-]+\.)+[A-Za-z]{2,63})$/;

/** What the link to Microsoft's admin consent page says, before the browser follows it. */
function LinkSummary({ link, tenant }: { link: TenantConsentLink; tenant: Tenant | undefined }) {
  const { t, i18n } = useTranslation();
  const url = new URL(link.consentUrl);
  const directory = decodeURIComponent(url.pathname.split('/')[1] ?? '');
  const rows: [string, string][] = [
    [
      t('tenantConnection:link.tenant'),
      directory === 'organizations'
        ? t('tenantConnection:link.tenantAny')
        : tenant
          ? `${tenant.tenantName} (${directory})`
          : directory,
    ],
    [t('tenantConnection:link.application'), url.searchParams.get('client_id') ?? ''],
    [t('tenantConnection:link.returnsTo'), url.searchParams.get('redirect_uri') ?? ''],
  ];
  return (
    <Stack gap="4" data-testid="consent-link">
      <Text>{t('tenantConnection:link.intro')}</Text>
      <Box
        as="dl"
        display="grid"
        gridTemplateColumns={{ base: '1fr', sm: 'auto 1fr' }}
        columnGap="6"
        rowGap={{ base: '0', sm: '2' }}
        fontSize="sm"
      >
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <Box as="dt" fontWeight="semibold" color="fg.muted">
              {label}
            </Box>
            <Box as="dd" overflowWrap="anywhere" mb={{ base: '2', sm: '0' }}>
              {value}
            </Box>
          </Fragment>
        ))}
      </Box>
      <Text fontSize="sm" color="fg.muted">
        {t('tenantConnection:link.expires', { time: formatDateTime(link.expiresAt, i18n.language) })}
      </Text>
    </Stack>
  );
}

/**
 * Connecting a tenant by admin consent: its name, the app registration's ID and secret, optionally
 * the tenant the administrator consents in; or, given a connected `tenant`, consent again for its
 * app registration. The server answers the link to Microsoft's consent page, shown before the
 * browser follows it; the help for each field and the app registration's permissions are beside it.
 */
export function ConsentDialog({
  organisationId,
  tenant,
  onManual,
  onClose,
}: {
  organisationId: string;
  tenant?: Tenant;
  /** Switches to the form of every field. */
  onManual?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const start = useStartConsent();
  const renew = useRenewConsent();
  const [touched, setTouched] = useState(false);
  const [values, setValues] = useState({ tenantName: '', applicationId: '', clientSecret: '', directory: '' });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  const check = useValidator();
  const errors = tenant
    ? {}
    : {
        tenantName: check(values.tenantName, rules.required(), rules.maxLength(120)),
        applicationId: check(values.applicationId, rules.required(), rules.pattern(GUID)),
        clientSecret: check(values.clientSecret, rules.required(), rules.maxLength(512)),
        directory: values.directory.trim() ? check(values.directory.trim(), rules.pattern(DIRECTORY)) : null,
      };
  // The same element at every render: typing in a field does not render the guide's table again.
  const guide = useMemo(
    () => (
      <Box mt="6">
        <AppRegistrationGuide />
      </Box>
    ),
    [],
  );
  const mutation = tenant ? renew : start;
  const link = mutation.data;
  const failure = mutation.error ? messageKeyOf(mutation.error) : null;

  const submit = () => {
    if (link) {
      // Microsoft's page: the browser comes back to /configuration/tenant-consent with its answer.
      window.location.assign(link.consentUrl);
      return;
    }
    setTouched(true);
    if (!Object.values(errors).every((e) => e === null)) return;
    if (tenant) renew.mutate(tenant.tenantId);
    else
      start.mutate({
        organisationId,
        tenantName: values.tenantName.trim(),
        applicationId: values.applicationId.trim(),
        clientSecret: values.clientSecret,
        ...(values.directory.trim() ? { directory: values.directory.trim() } : {}),
      });
  };

  return (
    <FormDialog
      title={
        link
          ? t('tenantConnection:link.title')
          : tenant
            ? t('tenantConnection:renewTitle', { name: tenant.tenantName })
            : t('tenantConnection:consentTitle')
      }
      formId="consent-form"
      onSubmit={submit}
      submitLabel={link ? t('tenantConnection:link.go') : t('tenantConnection:continue')}
      pending={mutation.isPending}
      onClose={onClose}
      {...(link ? {} : { aside: guide })}
    >
      {link ? (
        <LinkSummary link={link} tenant={tenant} />
      ) : (
        <Stack gap="4">
          <Text>
            {tenant
              ? t('tenantConnection:renewIntro', { name: tenant.tenantName })
              : t('tenantConnection:consentIntro')}
          </Text>
          {tenant ? null : (
            <>
              <TextField
                label={t('configuration:tenantName')}
                value={values.tenantName}
                onChange={set('tenantName')}
                error={errors.tenantName ?? null}
                showError={touched}
                helperText={t('tenantConnection:fields.tenantName')}
                maxLength={120}
              />
              <TextField
                label={t('configuration:applicationId')}
                value={values.applicationId}
                onChange={set('applicationId')}
                error={errors.applicationId ?? null}
                showError={touched}
                helperText={t('tenantConnection:fields.applicationId')}
                autoComplete="off"
                spellCheck={false}
              />
              <TextField
                label={t('configuration:clientSecret')}
                value={values.clientSecret}
                onChange={set('clientSecret')}
                error={errors.clientSecret ?? null}
                showError={touched}
                helperText={t('tenantConnection:fields.clientSecret')}
                type="password"
                autoComplete="new-password"
              />
              <Field.Root invalid={touched && !!errors.directory}>
                <Field.Label>{t('tenantConnection:fields.directory')}</Field.Label>
                <Input value={values.directory} onChange={set('directory')} autoComplete="off" spellCheck={false} />
                <Field.HelperText>{t('tenantConnection:fields.directoryHelp')}</Field.HelperText>
                <Field.ErrorText>{errors.directory}</Field.ErrorText>
              </Field.Root>
            </>
          )}
          {failure ? <StatusAlert status="error">{t(`apiErrors:${failure}`)}</StatusAlert> : null}
          {onManual && !tenant ? (
            <Button variant="plain" colorPalette="blue" alignSelf="flex-start" px="0" onClick={onManual}>
              {t('tenantConnection:manualInstead')}
            </Button>
          ) : null}
        </Stack>
      )}
    </FormDialog>
  );
}
