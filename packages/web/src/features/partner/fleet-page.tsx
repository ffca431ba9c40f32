import { Box, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import {
  type Client,
  FLEET_AREAS,
  type FleetAttention,
  type FleetClient,
  type FleetPage as FleetPageData,
} from '@compliance-portal/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/ui/data-table';
import { ExportButtons } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatDateTime, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { useServerAction } from '../../offline/online';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { AddClientForm } from './add-client-form';
import { clientsQuery, FLEET_EXPORT_PAGE_SIZE, fetchFleetPage, fleetQuery } from './api/queries';
import { ATTENTION_PALETTE, fleetRowActions, type OpenClient, useFleetColumns } from './fleet-columns';
import { fleetExportColumns } from './fleet-export';
import { issueTarget } from './fleet-issues';
import { FLEET_FILTERS, type FleetSearch, fleetListState, fleetQueryOf, fromListChange } from './fleet-list';
import { FLEET_ATTENTION_FILTERS, FLEET_CONNECTIONS, FLEET_LICENCES } from './fleet-search';
import { useSwitchClient } from './switch-client';

const LEVELS: readonly FleetAttention[] = ['critical', 'warning', 'ok'];

/** While a client just added is not yet in the fleet's figures, they are read again this often, for at most so long. */
const AWAIT_POLL_MS = 1500;
const AWAIT_LIMIT_MS = 30_000;

/** Every client of the fleet by attention, each a button that shows those clients (and again all of them). */
function AttentionCounts({
  counts,
  chosen,
  onChoose,
}: {
  counts: FleetPageData['counts'] | undefined;
  chosen: FleetSearch['attention'];
  onChoose: (level: FleetAttention | undefined) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <HStack gap="2" wrap="wrap" role="group" aria-label={t('fleet:counts')} data-testid="fleet-counts">
      {LEVELS.map((level) => {
        const count = counts?.[level] ?? 0;
        const pressed = chosen === level;
        return (
          <Button
            key={level}
            size="sm"
            variant={pressed ? 'subtle' : 'outline'}
            colorPalette={ATTENTION_PALETTE[level]}
            aria-pressed={pressed}
            onClick={() => onChoose(pressed ? undefined : level)}
            disabled={!counts}
            data-level={level}
            borderWidth="1px"
            borderColor="colorPalette.muted"
          >
            <Text as="span" fontWeight="bold">
              {counts ? formatNumber(count, i18n.language) : '–'}
            </Text>{' '}
            {t(`fleet:attention.${level}`)}
          </Button>
        );
      })}
    </HStack>
  );
}

/**
 * The partner's landing page: every client with what needs attention first, paged, sorted, searched
 * and filtered by the server (all in the address), counted by attention, exported whole; one click on
 * a client's issue opens that client on the page the issue is on. Adding a client starts here too.
 */
export function FleetPage({
  search,
  onSearch,
}: {
  /** The fleet's address, as the route validated it. */
  search: FleetSearch;
  /** Writes a change of the list or its filters into the address. */
  onSearch: (change: Partial<FleetSearch>) => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const current = useWorker()?.clientId;
  const serverAction = useServerAction();
  const switchClient = useSwitchClient();
  const [adding, setAdding] = useState(false);
  // After a client is added: how many clients the fleet must count before its figures include it.
  const [awaited, setAwaited] = useState<number | null>(null);
  const query = fleetQueryOf(search);
  const fleet = useQuery({ ...fleetQuery(api, query), refetchInterval: awaited === null ? false : AWAIT_POLL_MS });
  const counted = fleet.data ? fleet.data.counts.critical + fleet.data.counts.warning + fleet.data.counts.ok : null;
  // The server's figures are a snapshot some seconds old: a client just added comes with a later one.
  useEffect(() => {
    if (awaited === null) return;
    if (counted !== null && counted >= awaited) return setAwaited(null);
    const giveUp = setTimeout(() => setAwaited(null), AWAIT_LIMIT_MS);
    return () => clearTimeout(giveUp);
  }, [awaited, counted]);
  const lang = i18n.language;
  const now = Date.now();

  const update = onSearch;
  const filtered = FLEET_FILTERS.some((f) => search[f] !== undefined);

  /** Works as the client (its worker from the client list) on the page of its issue, or its dashboard. */
  const open: OpenClient = async (row, where) => {
    const byId = (list: readonly Client[]) => list.find((c) => c.clientId === row.clientId);
    const none: Client[] = [];
    // A client added since the list was read is not in it: the list is read again once.
    const client =
      byId(await queryClient.ensureQueryData(clientsQuery(api)).catch(() => none)) ??
      byId(await queryClient.fetchQuery(clientsQuery(api)).catch(() => none));
    if (!client) {
      showToast('error', t('partner:switcher.loadFailed'));
      return;
    }
    const target = issueTarget(where === 'issue' ? row.issues[0] : undefined);
    await switchClient(client, { to: target.to, search: target.search });
  };

  const columns = useFleetColumns({ current, now, onOpen: open });
  const rowActions = fleetRowActions(t, open, serverAction);

  return (
    <>
      <PageHeader title={t('pages:partnerSetup')} description={t('fleet:description')} help="partner.a1" />
      {adding ? (
        <AddClientForm
          api={api}
          onClose={() => setAdding(false)}
          onAdded={() => setAwaited(counted === null ? null : counted + 1)}
        />
      ) : null}
      <Stack gap="4" data-testid="client-list">
        <Flex gap="3" wrap="wrap" align="center" justify="space-between">
          <AttentionCounts
            counts={fleet.data?.counts}
            chosen={search.attention}
            onChoose={(attention) => update({ attention })}
          />
          {fleet.data ? (
            <Text fontSize="xs" color="fg.muted">
              {t('fleet:generatedAt', { time: formatDateTime(fleet.data.generatedAt, lang) })}
            </Text>
          ) : null}
        </Flex>
        <Flex gap="2" wrap="wrap" align="center" role="group" aria-label={t('fleet:filters.label')}>
          <FilterSelect
            label={t('fleet:filters.attention')}
            value={search.attention ?? ''}
            all={t('fleet:filters.allAttention')}
            options={FLEET_ATTENTION_FILTERS.map((v) => ({ value: v, label: t(`fleet:attention.${v}`) }))}
            onChange={(v) => update({ attention: v || undefined })}
          />
          <FilterSelect
            label={t('fleet:filters.license')}
            value={search.license ?? ''}
            all={t('fleet:filters.allLicences')}
            options={FLEET_LICENCES.map((v) => ({ value: v, label: t(`configuration:kinds.${v}`) }))}
            onChange={(v) => update({ license: v || undefined })}
          />
          <FilterSelect
            label={t('fleet:filters.connection')}
            value={search.connection ?? ''}
            all={t('fleet:filters.allConnections')}
            options={FLEET_CONNECTIONS.map((v) => ({ value: v, label: t(`fleet:connection.${v}`) }))}
            onChange={(v) => update({ connection: v || undefined })}
          />
          <FilterSelect
            label={t('fleet:filters.area')}
            value={search.area ?? ''}
            all={t('fleet:filters.allAreas')}
            options={FLEET_AREAS.map((v) => ({ value: v, label: t(`fleet:areas.${v}`) }))}
            onChange={(v) => update({ area: v || undefined })}
          />
          <FilterSelect
            label={t('fleet:filters.running')}
            value={search.running ?? ''}
            all={t('fleet:filters.allRunning')}
            options={[
              { value: 'yes', label: t('fleet:filters.runningYes') },
              { value: 'no', label: t('fleet:filters.runningNo') },
            ]}
            onChange={(v) => update({ running: v || undefined })}
          />
          {filtered ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                update({
                  attention: undefined,
                  license: undefined,
                  connection: undefined,
                  area: undefined,
                  running: undefined,
                })
              }
            >
              {t('fleet:clearFilters')}
            </Button>
          ) : null}
        </Flex>
        <Box>
          <DataTable<FleetClient>
            label={t('fleet:label')}
            columns={columns}
            rows={fleet.data?.items}
            total={fleet.data?.total ?? 0}
            rowKey={(c) => c.clientId}
            state={fleetListState(search)}
            onStateChange={(change) => update(fromListChange(change))}
            loading={fleet.isFetching}
            error={fleet.error}
            errorText={t('fleet:loadFailed')}
            onRetry={() => void fleet.refetch()}
            emptyText={search.search || filtered ? t('fleet:noMatch') : t('fleet:empty')}
            searchPlaceholder={t('fleet:search')}
            rowActions={rowActions}
            toolbar={
              <>
                <ExportButtons
                  title={t('fleet:exportTitle')}
                  columns={fleetExportColumns(t, now)}
                  pageSize={FLEET_EXPORT_PAGE_SIZE}
                  fetchPage={({ page, pageSize }) => fetchFleetPage(api, { ...query, page, pageSize })}
                />
                <Button size="sm" colorPalette="blue" onClick={() => setAdding(true)} {...serverAction}>
                  {t('partnerSetup:addClientTrigger')}
                </Button>
              </>
            }
          />
        </Box>
      </Stack>
    </>
  );
}
