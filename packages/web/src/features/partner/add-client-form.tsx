import { Field, NativeSelect, Stack } from '@chakra-ui/react';
import { ApiError, type LicenseKind, type PortalClient } from '@compliance-portal/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { useAddClient } from './api/mutations';

/** A client's short name: lower-case letters, digits and hyphens (2 to 16 of them). */
const ABBR = /^[a-z0-9-]+$/;

/** A new client organisation: its name, short name, licence and administrator; the server gives it a worker. */
export function AddClientForm({ api, onClose }: { api: PortalClient; onClose: () => void }) {
  const { t } = useTranslation();
  const [touched, setTouched] = useState(false);
  const [name, setName] = useState('');
  const [abbr, setAbbr] = useState('');
  const [license, setLicense] = useState<LicenseKind>('trial');
  const [adminEmail, setAdminEmail] = useState('');
  const check = useValidator();
  const errors = {
    name: check(name, rules.required(), rules.minLength(2), rules.maxLength(120)),
    abbr: check(abbr, rules.required(), rules.minLength(2), rules.maxLength(16), rules.pattern(ABBR)),
    adminEmail: check(adminEmail, rules.required(), rules.email()),
  };
  const add = useAddClient(api);
  const submit = () =>
    add.mutate(
      { name: name.trim(), abbr: abbr.trim(), license, adminEmail: adminEmail.trim() },
      {
        onSuccess: (client) => {
          showToast('success', t('partnerSetup:added', { name: client.name }));
          onClose();
        },
      },
    );
  return (
    <FormDialog
      title={t('partnerSetup:addTitle')}
      formId="client-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) submit();
      }}
      submitLabel={t('partnerSetup:addClient')}
      pending={add.isPending}
      onClose={onClose}
    >
      <Stack gap="4">
        <TextField
          label={t('partnerSetup:name')}
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          showError={touched}
        />
        <TextField
          label={t('partnerSetup:abbr')}
          value={abbr}
          maxLength={16}
          onChange={(e) => setAbbr(e.target.value.toLowerCase())}
          error={errors.abbr}
          showError={touched}
        />
        <Field.Root>
          <Field.Label>{t('partnerSetup:licence')}</Field.Label>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field value={license} onChange={(e) => setLicense(e.target.value as LicenseKind)}>
              <option value="trial">{t('configuration:kinds.trial')}</option>
              <option value="full">{t('configuration:kinds.full')}</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <TextField
          label={t('partnerSetup:adminEmail')}
          type="email"
          value={adminEmail}
          onChange={(e) => setAdminEmail(e.target.value)}
          error={errors.adminEmail}
          showError={touched}
        />
        {add.error ? (
          <StatusAlert status="error">
            {t('partnerSetup:addFailed')} {add.error instanceof ApiError ? t(`apiErrors:${add.error.messageKey}`) : ''}
          </StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
