import { Badge, Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import { ApiError, type StorageLocation } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatNumber } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { showToast } from '../../components/ui/toaster';
import { type Rule, rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { locationsQuery } from '../../shared/api/queries';
import { useApi } from '../../shared/tenant';
import { configurationKeys } from './api/keys';
import { storeOf } from './store-address';
import { useFailure } from './use-failure';

/** A site address the server takes (see storeOf); else the generic "does not match" message. */
const siteAddressRule = (): Rule<string> => (value) =>
  value.trim() === '' || storeOf(value) ? null : { key: 'pattern' };

/**
 * A location's name, site address and, for an object store, its credentials. The secret is never sent
 * back: editing a location that has one keeps it unless a new one is typed.
 */
function LocationForm({
  tenantId,
  location,
  onClose,
}: {
  tenantId: string;
  location?: StorageLocation;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const failure = useFailure();
  const [touched, setTouched] = useState(false);
  const [name, setName] = useState(location?.name ?? '');
  const [siteAddress, setSiteAddress] = useState(location?.siteAddress ?? '');
  const [accessKeyId, setAccessKeyId] = useState(location?.accessKeyId ?? '');
  const [secret, setSecret] = useState('');
  const store = storeOf(siteAddress);
  const secretStored = !!location?.hasSecret;
  const check = useValidator();
  // S3 signs with an access key ID and a secret: both are needed unless the location keeps a secret.
  const s3 = store === 's3';
  const errors = {
    name: check(name, rules.required(), rules.maxLength(120)),
    siteAddress: check(siteAddress, rules.required(), rules.maxLength(2048), siteAddressRule()),
    accessKeyId: s3
      ? check(accessKeyId, rules.required(), rules.maxLength(256))
      : check(accessKeyId, rules.maxLength(256)),
    secret:
      s3 && !secretStored
        ? check(secret, rules.required(), rules.maxLength(1024))
        : check(secret, rules.maxLength(1024)),
  };
  const save = useMutation({
    mutationFn: () => {
      const keyId = accessKeyId.trim();
      const body = {
        name: name.trim(),
        siteAddress: siteAddress.trim(),
        ...(keyId ? { accessKeyId: keyId } : {}),
        // The secret as typed: spaces may be part of it. None keeps the stored one.
        ...(secret ? { secret } : {}),
      };
      // A failure is said in the form, not in the generic toast as well.
      return location
        ? api.apollo.locations.update({ tenantId, locationId: location.locationId, body }, { disableToast: true })
        : api.apollo.locations.create({ tenantId, body }, { disableToast: true });
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) });
      showToast('success', t('configuration:created', { name: saved.name }));
      onClose();
    },
  });
  return (
    <FormDialog
      title={t(location ? 'configuration:editLocation' : 'configuration:createLocation')}
      formId="location-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) save.mutate();
      }}
      submitLabel={t('common:save')}
      pending={save.isPending}
      // The server tests an object store (a probe written, read back and deleted) before it saves: seconds.
      pendingLabel={t(store === 'azureBlob' || s3 ? 'configuration:testingStore' : 'configuration:saving')}
      onClose={onClose}
    >
      <Stack gap="4">
        <TextField
          label={t('configuration:locationName')}
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          showError={touched}
        />
        <TextField
          label={t('configuration:siteAddress')}
          type="url"
          value={siteAddress}
          spellCheck={false}
          onChange={(e) => setSiteAddress(e.target.value)}
          error={errors.siteAddress}
          showError={touched}
          helperText={
            // Lines of the help text (a span, as the field's description is): the addresses break anywhere.
            <chakra.span display="block" wordBreak="break-word">
              {t('configuration:siteAddressHelp.intro')}
              {(['server', 'azureBlob', 's3'] as const).map((kind) => (
                <chakra.span key={kind} display="block" ps="3" mt="0.5">
                  {t(`configuration:siteAddressHelp.${kind}`)}
                </chakra.span>
              ))}
            </chakra.span>
          }
        />
        <TextField
          label={t('configuration:accessKeyId')}
          value={accessKeyId}
          required={s3}
          maxLength={256}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setAccessKeyId(e.target.value)}
          error={errors.accessKeyId}
          showError={touched}
          helperText={t('configuration:accessKeyIdHelp')}
        />
        <TextField
          label={t('configuration:secret')}
          type="password"
          value={secret}
          required={s3 && !secretStored}
          maxLength={1024}
          autoComplete="off"
          {...(secretStored ? { placeholder: t('configuration:secretStored') } : {})}
          onChange={(e) => setSecret(e.target.value)}
          error={errors.secret}
          showError={touched}
          helperText={t(secretStored ? 'configuration:secretKeep' : 'configuration:secretHelp')}
        />
        {save.error ? (
          <StatusAlert status="error">
            <span data-testid="location-failure">
              {failure(save.error, location ? 'updateLocation' : 'createLocation')}
            </span>
          </StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}

export function LocationsSection({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const failure = useFailure();
  // A second list behind its own tab: its page stays in the page, not in the address (the tab is not
  // there either, so a page restored from the address would sit behind the tenants tab).
  const [state, setState] = useListState({ pageSize: 10 });
  const [editing, setEditing] = useState<StorageLocation | 'new' | null>(null);
  const [removing, setRemoving] = useState<StorageLocation | null>(null);
  const serverAction = useServerAction();
  const locations = useQuery(locationsQuery(api, tenantId));
  const remove = useMutation({
    mutationFn: (l: StorageLocation) =>
      api.apollo.locations.delete({ tenantId, locationId: l.locationId }, { disableToast: true }),
    onSuccess: (_r, l) => {
      setRemoving(null);
      showToast('success', t('configuration:removed', { name: l.name }));
      void queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) });
    },
  });
  // The server's refusal of a location in use, in the reader's language.
  const removeFailure =
    remove.error instanceof ApiError && remove.error.status === 409
      ? t('configuration:inUse')
      : failure(remove.error, 'removeLocation');
  const rows = locations.data ?? [];
  const columns: Column<StorageLocation>[] = [
    { key: 'name', header: t('configuration:locationName'), cell: (l) => l.name },
    {
      key: 'siteAddress',
      header: t('configuration:siteAddress'),
      cell: (l) => (
        <Text truncate maxW="sm">
          {l.siteAddress}
        </Text>
      ),
      hideBelow: 'md',
    },
    {
      key: 'store',
      header: t('configuration:storage'),
      // A location from before the stores were told apart keeps its data in the server's own store.
      cell: (l) => (
        <Badge variant="subtle" colorPalette={l.store === 'azureBlob' || l.store === 's3' ? 'purple' : 'gray'}>
          {t(`configuration:stores.${l.store ?? 'server'}`)}
        </Badge>
      ),
    },
    {
      key: 'usedByJobs',
      header: t('configuration:usedBy'),
      cell: (l) => formatNumber(l.usedByJobs, i18n.language),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'actions',
      header: '',
      align: 'end',
      cell: (l) => (
        <HStack gap="1" justify="flex-end" role="group" aria-label={t('configuration:actionsFor', { name: l.name })}>
          <Button size="xs" variant="ghost" onClick={() => setEditing(l)} {...serverAction}>
            {t('configuration:edit')}
          </Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setRemoving(l)} {...serverAction}>
            {t('configuration:remove')}
          </Button>
        </HStack>
      ),
    },
  ];
  return (
    <Stack gap="4">
      <DataTable
        label={t('configuration:locations')}
        columns={columns}
        rows={locations.data ? rows.slice((state.page - 1) * state.pageSize, state.page * state.pageSize) : undefined}
        total={rows.length}
        rowKey={(l) => l.locationId}
        state={state}
        onStateChange={setState}
        loading={locations.isFetching}
        error={locations.error}
        errorText={t('configuration:failed')}
        onRetry={() => locations.refetch()}
        emptyText={t('configuration:noLocations')}
        toolbar={
          <Button size="sm" colorPalette="blue" onClick={() => setEditing('new')} {...serverAction}>
            {t('configuration:addLocation')}
          </Button>
        }
      />
      {editing ? (
        <LocationForm
          tenantId={tenantId}
          {...(editing === 'new' ? {} : { location: editing })}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={!!removing}
        title={t('configuration:removeLocationTitle')}
        confirmLabel={t('configuration:remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        <Stack gap="2">
          <Text>{t('configuration:removeLocationText', { name: removing?.name ?? '' })}</Text>
          {remove.error ? (
            <StatusAlert status="error">
              <span data-testid="location-refusal">{removeFailure}</span>
            </StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}
