import { Button, Field, HStack, Input, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { ApiError, DASHBOARD_TOP, type DataManagementDashboard } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaChart } from '../../components/ui/charts';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { Figure } from '../../components/ui/figure';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { useBelow } from '../../components/ui/use-below';
import { parseNumber, rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { RequireTenant, useApi } from '../../shared/tenant';
import { dataManagementKeys } from './api/keys';
import { dataManagementDashboardQuery } from './api/queries';

const money = (value: number, currency: string, lang: string) =>
  new Intl.NumberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 4 }).format(value);

/** The price per GB per month the savings are counted at; an administrator changes it here. */
function PriceEditor({ tenantId, price, currency }: { tenantId: string; price: number; currency: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(price));
  const check = useValidator();
  // A price from 0 to 1000, a German decimal comma too.
  const error = check(value, rules.required(), rules.number(), rules.min(0), rules.max(1000));
  const parsed = parseNumber(value) ?? 0;
  const saveAction = useServerAction(!!error);
  const save = useMutation({
    mutationFn: () => api.apollo.configuration.updateBackupConfig({ body: { tenantId, pricePerGbMonth: parsed } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: dataManagementKeys.tenant(tenantId) });
      showToast('success', t('dataManagement:priceSaved'));
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!saveAction.disabled) save.mutate();
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
  const phone = useBelow().has('sm');
  const d = dashboard.data;
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
  const coverage = d.coverage;
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
            <Table.ScrollArea tabIndex={0}>
              <Table.Root size="sm" aria-label={t('dataManagement:topUnmanaged')}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('dataManagement:site')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('dataManagement:used')}</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {unmanaged.map((s) => (
                    <Table.Row key={s.siteId}>
                      <Table.Cell>{s.displayName}</Table.Cell>
                      <Table.Cell textAlign="end">{formatBytes(s.bytes, lang)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
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
            <Table.ScrollArea tabIndex={0}>
              <Table.Root size="sm" aria-label={t('dataManagement:topCandidates')}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('dataManagement:columns.name')}</Table.ColumnHeader>
                    {/* Long German headers wrap rather than widen the card past its box. */}
                    <Table.ColumnHeader textAlign="end" whiteSpace="normal" hideBelow="sm">
                      {t('dataManagement:oldVersions')}
                    </Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end" whiteSpace="normal">
                      {t('dataManagement:columns.reclaimable')}
                    </Table.ColumnHeader>
                    {coverage ? (
                      <Table.ColumnHeader whiteSpace="normal" hideBelow="sm">
                        {t('figures:coverage.column')}
                      </Table.ColumnHeader>
                    ) : null}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {candidates.map((c) => (
                    <Table.Row key={c.sourceId}>
                      <Table.Cell>
                        {c.displayName}
                        <Text color="fg.muted" fontSize="xs" whiteSpace="normal">
                          {t(`dataManagement:${c.kind}`)}
                          {/* On a phone its old versions and whether a job covers it stand here, their columns hidden. */}
                          {phone ? (
                            <>
                              {' · '}
                              {t('dataManagement:oldVersions')}: {formatNumber(c.eligibleVersions, lang)}
                              {coverage
                                ? ` · ${t('figures:coverage.column')}: ${
                                    c.covered ? t('figures:coverage.inJob') : t('figures:coverage.notInJob')
                                  }`
                                : null}
                            </>
                          ) : null}
                        </Text>
                      </Table.Cell>
                      <Table.Cell textAlign="end" hideBelow="sm">
                        {formatNumber(c.eligibleVersions, lang)}
                      </Table.Cell>
                      <Table.Cell textAlign="end">{formatBytes(c.reclaimableBytes, lang)}</Table.Cell>
                      {coverage ? (
                        <Table.Cell data-testid={`covered-${c.sourceId}`} hideBelow="sm">
                          {c.covered ? t('figures:coverage.inJob') : t('figures:coverage.notInJob')}
                        </Table.Cell>
                      ) : null}
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
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
      <PageHeader title={t('pages:complianceDashboard')} />
      <RequireTenant>{(tenantId) => <Dashboard tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
