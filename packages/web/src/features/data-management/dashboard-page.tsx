import { Button, Field, HStack, Input, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ApiError, DASHBOARD_TOP, type DataManagementDashboard } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaChart } from '../../components/ui/charts';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { Figure } from '../../components/ui/figure';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { type Column, TableView } from '../../components/ui/table-view';
import { showToast } from '../../components/ui/toaster';
import { parseNumber, rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { RequireTenant, useApi } from '../../shared/tenant';
import { useSavePrice } from './api/mutations';
import { dataManagementDashboardQuery } from './api/queries';

type Site = DataManagementDashboard['topSitesWithoutDataManagement'][number];
type Candidate = DataManagementDashboard['topCleanupCandidates'][number];

const money = (value: number, currency: string, lang: string) =>
  new Intl.NumberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 4 }).format(value);

/** The price per GB per month the savings are counted at; an administrator changes it here. */
function PriceEditor({ tenantId, price, currency }: { tenantId: string; price: number; currency: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  // Written as the reader writes numbers: 0,02 in German.
  const [value, setValue] = useState(() =>
    price.toLocaleString(i18n.language, { maximumFractionDigits: 4, useGrouping: false }),
  );
  const check = useValidator();
  // A price from 0 to 1000, a German decimal comma too.
  const error = check(value, rules.required(), rules.number(), rules.min(0), rules.max(1000));
  const parsed = parseNumber(value) ?? 0;
  const saveAction = useServerAction(!!error);
  const save = useSavePrice(api, tenantId, () => showToast('success', t('dataManagement:priceSaved')));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!saveAction.disabled) save.mutate(parsed);
      }}
    >
      <HStack gap="2" align="flex-end" wrap="wrap">
        <Field.Root width="auto" invalid={!!error}>
          <Field.Label fontSize="sm">
            {t('dataManagement:price')} ({currency})
          </Field.Label>
          <Input size="sm" width="28" inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" size="sm" colorPalette="blue" loading={save.isPending} {...saveAction}>
          {t('dataManagement:priceSave')}
        </Button>
      </HStack>
      {save.error instanceof ApiError ? (
        <StatusAlert status="error">{t(`apiErrors:${save.error.messageKey}`)}</StatusAlert>
      ) : null}
    </form>
  );
}

type Coverage = NonNullable<DataManagementDashboard['coverage']>;

/** How many of the analysed sites clean-up jobs include, in words that agree with the tables beside it. */
function CoverageStatement({ coverage }: { coverage: Coverage }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const uncovered = coverage.sites - coverage.covered;
  const text =
    uncovered === 0
      ? t('figures:coverage.all', { count: coverage.sites })
      : coverage.covered === 0
        ? t('figures:coverage.none', { count: coverage.sites })
        : t('figures:coverage.some', {
            covered: formatNumber(coverage.covered, lang),
            total: formatNumber(coverage.sites, lang),
            uncovered: formatNumber(uncovered, lang),
          });
  return (
    <Text fontSize="sm" data-testid="coverage-statement">
      {text}
    </Text>
  );
}

function Dashboard({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const dashboard = useQuery(dataManagementDashboardQuery(api, tenantId));
  const d = dashboard.data;
  const coverage = d?.coverage;
  const inJob = (covered: boolean | undefined) =>
    covered ? t('figures:coverage.inJob') : t('figures:coverage.notInJob');
  const unmanagedColumns: Column<Site>[] = [
    {
      key: 'name',
      header: t('dataManagement:site'),
      cell: (u) => u.displayName,
      sortable: true,
      sortValue: (u) => u.displayName,
    },
    {
      key: 'used',
      header: t('dataManagement:used'),
      cell: (u) => formatBytes(u.bytes, lang),
      align: 'end',
      sortable: true,
      sortValue: (u) => u.bytes,
    },
  ];
  // On a phone a candidate's old versions and whether a job covers it stand under its name.
  const candidateColumns: Column<Candidate>[] = [
    {
      key: 'name',
      header: t('dataManagement:columns.name'),
      cell: (c) => (
        <>
          {c.displayName}
          <Text color="fg.muted" fontSize="xs" whiteSpace="normal">
            {t(`dataManagement:${c.kind}`)}
          </Text>
        </>
      ),
      sortable: true,
      sortValue: (c) => c.displayName,
    },
    {
      key: 'oldVersions',
      header: t('dataManagement:oldVersions'),
      cell: (c) => formatNumber(c.eligibleVersions, lang),
      align: 'end',
      hideBelow: 'sm',
      stack: true,
      sortable: true,
      sortValue: (c) => c.eligibleVersions,
    },
    {
      key: 'reclaimable',
      header: t('dataManagement:columns.reclaimable'),
      cell: (c) => formatBytes(c.reclaimableBytes, lang),
      align: 'end',
      sortable: true,
      sortValue: (c) => c.reclaimableBytes,
    },
    ...(coverage
      ? [
          {
            key: 'covered',
            header: t('figures:coverage.column'),
            cell: (c: Candidate) => <span data-testid={`covered-${c.sourceId}`}>{inJob(c.covered)}</span>,
            hideBelow: 'sm' as const,
            stack: true,
            sortable: true,
            sortValue: (c: Candidate) => inJob(c.covered),
          },
        ]
      : []),
  ];
  // The dashboard needs no storage location: the storage analysis reads the sites from Microsoft 365,
  // so a failure is said by its cause.
  if (dashboard.isError)
    return (
      <M365FailureAlert title={t('m365:dashboard')} error={dashboard.error} onRetry={() => void dashboard.refetch()} />
    );
  if (!d) return <Skeleton height="40" aria-busy="true" />;
  // The top 10 and top 20, whatever the answer holds.
  const unmanaged = d.topSitesWithoutDataManagement.slice(0, DASHBOARD_TOP.sitesWithoutDataManagement);
  const candidates = d.topCleanupCandidates.slice(0, DASHBOARD_TOP.cleanupCandidates);
  return (
    <Stack gap="6">
      <Text fontSize="sm" color="fg.muted">
        {t('backup:dashboard.period', {
          days: d.periodDays,
          from: formatDate(d.from, lang),
          to: formatDate(d.to, lang),
        })}{' '}
        {t('dataManagement:analysisNote')}
      </Text>
      <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
        <Figure label={t('dataManagement:used')} value={formatBytes(d.storageUsedBytes, lang)} />
        <Figure label={t('dataManagement:saved')} value={formatBytes(d.storageSavedBytes, lang)} />
        <Figure
          label={t('dataManagement:monthlySaving')}
          value={money(d.monthlySaving, d.currency, lang)}
          note={`${t('dataManagement:price')}: ${money(d.pricePerGbMonth, d.currency, lang)}`}
        />
      </SimpleGrid>
      <PriceEditor key={d.pricePerGbMonth} tenantId={tenantId} price={d.pricePerGbMonth} currency={d.currency} />
      <DashboardCard title={t('dataManagement:usage')} as="h2">
        <AreaChart
          label={`${t('dataManagement:usage')}: ${t('dataManagement:usedSeries')}`}
          title={t('dataManagement:usedSeries')}
          points={d.series.map((p) => ({ x: formatDate(p.date, lang), y: p.usedBytes }))}
          format={(y) => formatBytes(y, lang)}
        />
        <AreaChart
          label={`${t('dataManagement:usage')}: ${t('dataManagement:savedSeries')}`}
          title={t('dataManagement:savedSeries')}
          points={d.series.map((p) => ({ x: formatDate(p.date, lang), y: p.savedBytes }))}
          format={(y) => formatBytes(y, lang)}
        />
      </DashboardCard>
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
        <DashboardCard title={t('dataManagement:topUnmanaged')} as="h2">
          {coverage ? <CoverageStatement coverage={coverage} /> : null}
          {unmanaged.length === 0 && !coverage ? (
            <Text color="fg.muted">{t('dataManagement:noUnmanaged')}</Text>
          ) : unmanaged.length === 0 ? null : (
            <TableView
              label={t('dataManagement:topUnmanaged')}
              columns={unmanagedColumns}
              rows={unmanaged}
              rowKey={(u) => u.siteId}
              chooseColumns={false}
            />
          )}
        </DashboardCard>
        <DashboardCard title={t('dataManagement:topCandidates')} as="h2">
          {coverage && coverage.withOldVersions > 0 ? (
            <Text fontSize="sm" data-testid="coverage-old-versions">
              {t('figures:coverage.oldVersions', {
                total: formatNumber(coverage.withOldVersions, lang),
                covered: formatNumber(coverage.coveredWithOldVersions, lang),
                uncovered: formatNumber(coverage.withOldVersions - coverage.coveredWithOldVersions, lang),
              })}
            </Text>
          ) : null}
          {candidates.length === 0 ? (
            <Text color="fg.muted">{t('dataManagement:noCandidates')}</Text>
          ) : (
            <TableView
              label={t('dataManagement:topCandidates')}
              columns={candidateColumns}
              rows={candidates}
              rowKey={(c) => c.sourceId}
              chooseColumns={false}
            />
          )}
        </DashboardCard>
      </SimpleGrid>
    </Stack>
  );
}

/** Storage used and saved over 30 days, the saving at the price per GB, the sites worth a clean-up. */
export function DataManagementDashboardPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:complianceDashboard')} help="dataManagement.a5" />
      <RequireTenant>{(tenantId) => <Dashboard tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
