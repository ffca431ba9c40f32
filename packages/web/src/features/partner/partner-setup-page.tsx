import { Badge, Box, Button, Field, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { ApiError, type Client, type LicenseKind, type PortalClient } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatDate } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { WRAPPING_BUTTON } from '../../components/ui/wrapping-button';
import { useServerAction } from '../../offline/online';
import { storeWorker } from '../../session/storage';
import { useWorker } from '../../session/use-worker';
import { useUrlListState } from '../../shared/url-state';
import { partnerKeys } from './api/keys';
import { clientsQuery } from './api/queries';

/** A client's short name: lower-case letters, digits and hyphens (2 to 16 of them). */
const ABBR = /^[a-z0-9-]+$/;

/** A new client organisation: its name, short name, licence and administrator; the server gives it a worker. */
function AddClientForm({ api, onClose }: { api: PortalClient; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
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
  const add = useMutation({
    mutationFn: () =>
      api.legacy.workers.addPartnerClient({
        body: { name: name.trim(), abbr: abbr.trim(), license, adminEmail: adminEmail.trim() },
      }),
    onSuccess: (client) => {
      void queryClient.invalidateQueries({ queryKey: partnerKeys.clients() });
      showToast('success', t('partnerSetup:added', { name: client.name }));
      onClose();
    },
  });
  return (
    <FormDialog
      title={t('partnerSetup:addTitle')}
      formId="client-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) add.mutate();
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

/** The client list's defaults: by name, ten a page (its page, size, sort and search are in the address). */
const CLIENTS_LIST = { sort: 'name', pageSize: 10 } as const;

const byName = (a: Client, b: Client) => a.name.localeCompare(b.name);
const SORTS: Record<string, (a: Client, b: Client) => number> = {
  name: byName,
  license: (a, b) => a.license.localeCompare(b.license) || byName(a, b),
  createdAt: (a, b) => a.createdAt.localeCompare(b.createdAt),
};

/** A partner's client organisations: add one, or choose one and work as that client. */
export function PartnerSetupPage() {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useQuery(clientsQuery(api));
  const current = useWorker()?.clientId;
  const [adding, setAdding] = useState(false);
  const serverAction = useServerAction();
  const [state, setState] = useUrlListState(CLIENTS_LIST);

  const search = (state.search ?? '').trim().toLowerCase();
  const sorted = (clients.data ?? [])
    .filter((c) => !search || c.name.toLowerCase().includes(search) || c.worker.abbr.includes(search))
    .sort(SORTS[state.sort ?? 'name'] ?? byName);
  if (state.order === 'desc') sorted.reverse();
  const page = sorted.slice((state.page - 1) * state.pageSize, state.page * state.pageSize);

  /** The client's worker becomes the selected one (the worker cookie), as if chosen at sign-in. */
  const workAs = (client: Client) => {
    storeWorker(client.worker);
    // Everything cached belongs to the previous client.
    queryClient.removeQueries({ predicate: (q) => !partnerKeys.isClients(q.queryKey) });
    showToast('success', t('partnerSetup:workingAs', { name: client.name }));
    void navigate({ to: '/' });
  };

  const columns: Column<Client>[] = [
    {
      key: 'name',
      header: t('partnerSetup:name'),
      sortable: true,
      cell: (c) => (
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium">{c.name}</Text>
          {c.clientId === current ? <Badge colorPalette="blue">{t('partnerSetup:current')}</Badge> : null}
        </HStack>
      ),
    },
    {
      key: 'license',
      header: t('partnerSetup:licence'),
      sortable: true,
      cell: (c) => (
        <Badge colorPalette={c.license === 'trial' ? 'orange' : 'green'}>{t(`configuration:kinds.${c.license}`)}</Badge>
      ),
      hideBelow: 'sm',
    },
    {
      // The client's tenant by its domain: which Microsoft 365 organisation it is, never the worker's address.
      key: 'tenant',
      header: t('partnerSetup:tenantColumn'),
      cell: (c) => (
        <Text fontSize="sm" color={c.worker.tenantDomain ? undefined : 'fg.muted'} overflowWrap="anywhere">
          {c.worker.tenantDomain ?? t('partnerSetup:noTenant')}
        </Text>
      ),
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'createdAt',
      header: t('partnerSetup:createdAt'),
      sortable: true,
      cell: (c) => formatDate(c.createdAt, i18n.language),
      hideBelow: 'lg',
    },
    {
      key: 'actions',
      header: '',
      align: 'end',
      cell: (c) => (
        <Button
          size="xs"
          colorPalette="blue"
          variant={c.clientId === current ? 'outline' : 'solid'}
          onClick={() => workAs(c)}
          {...WRAPPING_BUTTON}
          {...serverAction}
        >
          {t('partner:workAs', { name: c.name })}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('pages:partnerSetup')} description={t('partner:chooseClient')} help="partner.a1" />
      {adding ? <AddClientForm api={api} onClose={() => setAdding(false)} /> : null}
      <Box data-testid="client-list">
        <DataTable
          label={t('partnerSetup:clients')}
          columns={columns}
          rows={clients.data ? page : undefined}
          total={sorted.length}
          rowKey={(c) => c.clientId}
          state={state}
          onStateChange={setState}
          loading={clients.isFetching}
          error={clients.error}
          onRetry={() => clients.refetch()}
          emptyText={search ? t('partnerSetup:noMatch') : t('partner:noClients')}
          searchPlaceholder={t('partnerSetup:search')}
          toolbar={
            <Button size="sm" colorPalette="blue" onClick={() => setAdding(true)} {...serverAction}>
              {t('partnerSetup:addClient')}
            </Button>
          }
        />
      </Box>
    </>
  );
}
