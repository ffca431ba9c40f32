import {
  Badge,
  Button,
  Card,
  Field,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ApiError, type Client, type LicenseKind, type PortalClient } from '@compliance-portal/sdk';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { readWorker, storeWorker } from '../../session/storage';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A new client organisation: its name, short name, licence and administrator; the server gives it a worker. */
function AddClientForm({ api, onClose }: { api: PortalClient; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [touched, setTouched] = useState(false);
  const [name, setName] = useState('');
  const [abbr, setAbbr] = useState('');
  const [license, setLicense] = useState<LicenseKind>('trial');
  const [adminEmail, setAdminEmail] = useState('');
  const errors = {
    name: name.trim().length >= 2 ? null : t('validation:tooShort', { value: 2 }),
    abbr: /^[a-z0-9-]{2,16}$/.test(abbr) ? null : t('partnerSetup:abbrPattern'),
    adminEmail: EMAIL.test(adminEmail.trim()) ? null : t('validation:email'),
  };
  const add = useMutation({
    mutationFn: () =>
      api.legacy.workers.addPartnerClient({
        body: { name: name.trim(), abbr, license, adminEmail: adminEmail.trim() },
      }),
    onSuccess: (client) => {
      void queryClient.invalidateQueries({ queryKey: ['legacy', 'clients'] });
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

export const clientsQueryOptions = (api: PortalClient) =>
  queryOptions({ queryKey: ['legacy', 'clients'], queryFn: () => api.legacy.workers.clients() });

/** A partner's client organisations: choose one and work as that client. */
export function PartnerSetupPage() {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useQuery(clientsQueryOptions(api));
  const current = readWorker()?.clientId;
  const [adding, setAdding] = useState(false);
  const [search, setSearch] = useState('');
  const shown = (clients.data ?? []).filter((c) => c.name.toLowerCase().includes(search.trim().toLowerCase()));

  const workAs = (client: Client) => {
    storeWorker(client.worker);
    // Everything cached belongs to the previous client.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'legacy' || q.queryKey[1] !== 'clients' });
    void navigate({ to: '/' });
  };

  return (
    <>
      <PageHeader title={t('pages:partnerSetup')} description={t('partner:chooseClient')} />
      <HStack gap="3" wrap="wrap" mb="4" align="flex-end">
        <Field.Root width="auto">
          <Field.Label fontSize="sm">{t('partnerSetup:search')}</Field.Label>
          <Input size="sm" type="search" value={search} onChange={(e) => setSearch(e.target.value)} maxW="xs" />
        </Field.Root>
        <Button size="sm" colorPalette="blue" onClick={() => setAdding(true)}>
          {t('partnerSetup:addClient')}
        </Button>
      </HStack>
      {adding ? <AddClientForm api={api} onClose={() => setAdding(false)} /> : null}
      {clients.isPending ? (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="32" />
          ))}
        </SimpleGrid>
      ) : clients.isError ? (
        <Button onClick={() => void clients.refetch()} alignSelf="flex-start">
          {t('common:retry')}
        </Button>
      ) : clients.data.length === 0 ? (
        <Text>{t('partner:noClients')}</Text>
      ) : (
        <SimpleGrid
          columns={{ base: 1, sm: 2, lg: 3 }}
          gap="4"
          data-testid="client-list"
          aria-label={t('partnerSetup:clients')}
        >
          {shown.map((client) => (
            <Card.Root key={client.clientId} variant={client.clientId === current ? 'subtle' : 'outline'}>
              <Card.Body>
                <Stack gap="2">
                  <Text fontWeight="semibold">{client.name}</Text>
                  <HStack gap="2" wrap="wrap">
                    <Badge colorPalette={client.license === 'trial' ? 'orange' : 'green'}>
                      {t('partner:licence', { licence: t(`configuration:kinds.${client.license}`) })}
                    </Badge>
                    {client.clientId === current ? (
                      <Badge colorPalette="blue">{t('partnerSetup:current')}</Badge>
                    ) : null}
                  </HStack>
                  <Text fontSize="sm" color="fg.muted">
                    {t('partnerSetup:worker', { ip: client.worker.workerIp })}
                  </Text>
                </Stack>
              </Card.Body>
              <Card.Footer>
                <Button size="sm" colorPalette="blue" onClick={() => workAs(client)}>
                  {t('partner:workAs', { name: client.name })}
                </Button>
              </Card.Footer>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
