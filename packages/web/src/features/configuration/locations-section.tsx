import { Badge, Button, chakra, Stack, Text } from '@chakra-ui/react';
import { ApiError, type LocationInput, type StorageLocation } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatDateTime, formatNumber } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { actionState, type RowActions } from '../../components/ui/row-actions';
import { showToast } from '../../components/ui/toaster';
import { type Rule, rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { locationsQuery } from '../../shared/api/queries';
import { useApi } from '../../shared/tenant';
import { useRemoveLocation, useSaveLocation, useTestLocationStore } from './api/mutations';
import { type Store, storeOf } from './store-address';
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
  // Azure takes the account key as the secret (or a SAS in the address). The portal's own store needs
  // neither: their fields are shown, checked and sent for an object store only.
  const s3 = store === 's3';
  const objectStore = s3 || store === 'azureBlob';
  const errors = {
    name: check(name, rules.required(), rules.maxLength(120)),
    siteAddress: check(siteAddress, rules.required(), rules.maxLength(2048), siteAddressRule()),
    accessKeyId: s3 ? check(accessKeyId, rules.required(), rules.maxLength(256)) : null,
    secret: !objectStore
      ? null
      : s3 && !secretStored
        ? check(secret, rules.required(), rules.maxLength(1024))
        : check(secret, rules.maxLength(1024)),
  };
  // A failure is said in the form, not in the generic toast as well.
  const save = useSaveLocation(tenantId, location, (saved) => {
    showToast('success', t('configuration:created', { name: saved.name }));
    onClose();
  });
  const body = (): LocationInput => {
    const keyId = s3 ? accessKeyId.trim() : '';
    return {
      name: name.trim(),
      siteAddress: siteAddress.trim(),
      ...(keyId ? { accessKeyId: keyId } : {}),
      // The secret as typed: spaces may be part of it. None keeps the stored one.
      ...(objectStore && secret ? { secret } : {}),
    };
  };
  return (
    <FormDialog
      title={t(location ? 'configuration:editLocation' : 'configuration:createLocation')}
      formId="location-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) save.mutate(body());
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
              {t('locations:form.siteAddressHelp.intro')}
              {(['azureBlob', 's3', 'server'] as const).map((kind) => (
                <chakra.span key={kind} display="block" ps="3" mt="0.5">
                  {t(`locations:form.siteAddressHelp.${kind}`)}
                </chakra.span>
              ))}
            </chakra.span>
          }
        />
        {store ? (
          <Text fontSize="sm" data-testid="location-goes-to" role="status">
            <chakra.span fontWeight="semibold">
              {t('locations:form.goesTo', { kind: t(`locations:kinds.${store}`) })}
            </chakra.span>{' '}
            {t(store === 'server' ? 'locations:form.serverNotTested' : 'locations:form.tested')}
          </Text>
        ) : null}
        {s3 ? (
          <TextField
            label={t('configuration:accessKeyId')}
            value={accessKeyId}
            required
            maxLength={256}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setAccessKeyId(e.target.value)}
            error={errors.accessKeyId}
            showError={touched}
          />
        ) : null}
        {objectStore ? (
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
        ) : null}
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

/** The store a location's data is in; a location from before the stores were told apart: the server's. */
const storeOfLocation = (l: StorageLocation): Store => l.store ?? 'server';

/** Where a location's data goes: the kind of store and its address, or what the site address is for. */
function StoreCell({ location }: { location: StorageLocation }) {
  const { t } = useTranslation();
  const store = storeOfLocation(location);
  return (
    <Stack gap="1" minW="0" maxW="md" data-testid="location-store">
      <Badge alignSelf="flex-start" variant="subtle" colorPalette={store === 'server' ? 'gray' : 'purple'}>
        {t(`locations:kinds.${store}`)}
      </Badge>
      {store === 'server' ? (
        <>
          <Text fontSize="xs" color="fg.muted">
            {t('locations:serverStore')}
          </Text>
          <Text fontSize="xs" wordBreak="break-all">
            {t('locations:siteAddress', { address: location.siteAddress })}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {t('locations:siteAddressNote')}
          </Text>
        </>
      ) : (
        <Text fontSize="xs" fontFamily="mono" wordBreak="break-all">
          {location.storeAddress ?? location.siteAddress}
        </Text>
      )}
    </Stack>
  );
}

/**
 * What deleting a location does: which location and store, that no job may write to it (the number
 * of jobs that do, when some do: the server then refuses) and that it cannot be undone.
 */
function LocationRemovalText({ location }: { location: StorageLocation }) {
  const { t, i18n } = useTranslation();
  const store = storeOfLocation(location);
  const where = `${t(`locations:kinds.${store}`)}, ${store === 'server' ? location.siteAddress : (location.storeAddress ?? location.siteAddress)}`;
  return (
    <Text fontWeight="semibold" data-testid="location-removal-what" wordBreak="break-word">
      {location.usedByJobs > 0
        ? t('confirmations:location.inUse', {
            name: location.name,
            count: location.usedByJobs,
            n: formatNumber(location.usedByJobs, i18n.language),
          })
        : t('confirmations:location.text', { name: location.name, where })}
    </Text>
  );
}

/** Whether the location's store was tested, when, and what came of it. */
function ProbeCell({ location, testId }: { location: StorageLocation; testId: string }) {
  const { t, i18n } = useTranslation();
  const probe = location.probe;
  if (storeOfLocation(location) === 'server' || !probe) {
    return (
      <Text fontSize="xs" color="fg.muted" data-testid={testId}>
        {t(storeOfLocation(location) === 'server' ? 'locations:probe.server' : 'locations:probe.never')}
      </Text>
    );
  }
  return (
    <Stack gap="1" minW="0" maxW="xs" data-testid={testId}>
      <Badge alignSelf="flex-start" variant="subtle" colorPalette={probe.ok ? 'green' : 'red'}>
        {t(probe.ok ? 'locations:probe.ok' : 'locations:probe.failed')}
      </Badge>
      <Text fontSize="xs" color="fg.muted">
        {t('locations:probe.at', { at: formatDateTime(probe.at, i18n.language) })}
      </Text>
      {probe.ok ? null : (
        <Text fontSize="xs" wordBreak="break-word">
          {probe.code ? t(`apiErrors:${probe.code}`) : null}
          {probe.reason ? ` (${probe.reason})` : null}
        </Text>
      )}
    </Stack>
  );
}

export function LocationsSection({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const failure = useFailure();
  // A second list behind its own tab: its page stays in the page, not in the address (the tab is not
  // there either, so a page restored from the address would sit behind the tenants tab).
  const [state, setState] = useListState({ pageSize: 10 });
  const [editing, setEditing] = useState<StorageLocation | 'new' | null>(null);
  const [removing, setRemoving] = useState<StorageLocation | null>(null);
  const serverAction = useServerAction();
  const locations = useQuery(locationsQuery(api, tenantId));
  const test = useTestLocationStore(tenantId);
  const remove = useRemoveLocation(tenantId, (l) => {
    setRemoving(null);
    showToast('success', t('configuration:removed', { name: l.name }));
  });
  // The server's refusal of a location in use, in the reader's language.
  const removeFailure =
    remove.error instanceof ApiError && remove.error.status === 409
      ? t('configuration:inUse')
      : failure(remove.error, 'removeLocation');
  const rows = locations.data ?? [];
  const rowActions: RowActions<StorageLocation> = {
    header: t('table:actions'),
    rowLabel: (l) => l.name,
    actions: (l) => [
      ...(storeOfLocation(l) === 'server'
        ? []
        : [
            {
              key: 'test',
              label: t('locations:probe.test'),
              ariaLabel: t('locations:probe.testOf', { name: l.name }),
              quiet: true,
              loading: test.isPending && test.variables?.locationId === l.locationId,
              onSelect: () =>
                test.mutate(l, {
                  onSuccess: (probed) =>
                    probed.probe?.ok
                      ? showToast('success', t('locations:probe.worked', { name: l.name }))
                      : showToast('error', t('locations:probe.failedToast', { name: l.name })),
                }),
              ...actionState(serverAction),
            },
          ]),
      {
        key: 'edit',
        label: t('configuration:edit'),
        quiet: true,
        onSelect: () => setEditing(l),
        ...actionState(serverAction),
      },
      {
        key: 'remove',
        label: t('configuration:removeTrigger'),
        quiet: true,
        palette: 'red',
        onSelect: () => setRemoving(l),
        ...actionState(serverAction),
      },
    ],
  };
  const columns: Column<StorageLocation>[] = [
    { key: 'name', header: t('configuration:locationName'), cell: (l) => l.name },
    {
      key: 'store',
      header: t('locations:where'),
      cell: (l) => <StoreCell location={l} />,
    },
    {
      key: 'probe',
      header: t('locations:lastTest'),
      cell: (l) => <ProbeCell location={l} testId="location-probe" />,
      // A narrow screen has no room for the test's column: it is said under the location's name.
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'usedByJobs',
      header: t('configuration:usedBy'),
      cell: (l) => formatNumber(l.usedByJobs, i18n.language),
      align: 'end',
      hideBelow: 'md',
    },
  ];
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="fg.muted" data-testid="locations-intro">
        {t('locations:intro')}
      </Text>
      {test.error ? (
        <StatusAlert status="error">
          <span data-testid="location-test-failure">
            {t('locations:probe.failure')}
            {test.error instanceof ApiError ? ` ${t(`apiErrors:${test.error.messageKey}`)}` : ''}
          </span>
        </StatusAlert>
      ) : null}
      <DataTable
        label={t('configuration:locations')}
        columns={columns}
        rowActions={rowActions}
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
          {removing ? <LocationRemovalText location={removing} /> : null}
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
