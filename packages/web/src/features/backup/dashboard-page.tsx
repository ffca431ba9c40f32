import { Box, Heading, SimpleGrid, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { DASHBOARD_PERIOD_DAYS, type DashboardDetails, JOB_STATUSES } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaChart, BarList } from '../../components/ui/charts';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { Figure } from '../../components/ui/figure';
import { FigureDefinitions } from '../../components/ui/figure-definitions';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { STATUS_PALETTE, StatusBadge } from '../../components/ui/status-badge';
import { type Column, TableView } from '../../components/ui/table-view';
import { ItemsCell, itemsByKindText } from '../../shared/items-by-kind';
import { RequireTenant, useApi } from '../../shared/tenant';
import { dashboardQuery } from './api/queries';
import { BACKUP_APPLICATIONS, type BackupApplication } from './areas';

type DetailEntry = DashboardDetails['entries'][number];

/** A figure's note when there is one (the props leave it out rather than say undefined). */
const withNote = (note: string | undefined) => (note ? { note } : {});

function ApplicationDashboard({ tenantId, application }: { tenantId: string; application: BackupApplication }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const basic = useQuery(dashboardQuery(api, tenantId, application, 'basic'));
  const size = useQuery(dashboardQuery(api, tenantId, application, 'size'));
  const details = useQuery(dashboardQuery(api, tenantId, application, 'details'));
  if (basic.isError || size.isError || details.isError)
    return <StatusAlert status="error">{t('backup:dashboard.failed')}</StatusAlert>;
  if (!basic.data || !size.data || !details.data)
    return (
      <Stack gap="4" aria-busy="true" aria-label={t('common:loading')}>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height="24" />
          ))}
        </SimpleGrid>
        <Skeleton height="48" />
      </Stack>
    );
  const b = basic.data;
  // On a phone the items, last backup and status stand under the name.
  const detailColumns: Column<DetailEntry>[] = [
    {
      key: 'name',
      header: t('backup:columns.name'),
      cell: (e) => e.displayName,
      sortable: true,
      sortValue: (e) => e.displayName,
    },
    {
      key: 'items',
      header: t('figures:itemsProtected.short'),
      cell: (e) => <ItemsCell total={e.items} kinds={e.itemsByKind} />,
      align: 'end',
      hideBelow: 'sm',
      stack: true,
      sortable: true,
      sortValue: (e) => e.items,
    },
    {
      key: 'bytes',
      header: t('figures:storedBytes.short'),
      cell: (e) => formatBytes(e.bytes, lang),
      align: 'end',
      sortable: true,
      sortValue: (e) => e.bytes,
    },
    {
      key: 'lastBackup',
      header: t('backup:columns.lastBackup'),
      cell: (e) => formatDateTime(e.lastBackup, lang),
      hideBelow: 'md',
      stack: true,
      sortable: true,
      sortValue: (e) => e.lastBackup,
    },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (e) => (e.lastStatus ? <StatusBadge status={e.lastStatus} /> : '—'),
      hideBelow: 'sm',
      stack: true,
      sortable: true,
      sortValue: (e) => (e.lastStatus ? t(`status:${e.lastStatus}`) : null),
    },
  ];
  const s = size.data;
  const unit = t(`backup:units.${application}`);
  return (
    <Stack gap="6">
      <Text fontSize="sm" color="fg.muted" data-testid="dashboard-period">
        {t('backup:dashboard.period', {
          days: DASHBOARD_PERIOD_DAYS,
          from: formatDate(b.from, lang),
          to: formatDate(b.to, lang),
        })}
      </Text>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        <Figure
          label={t('backup:dashboard.protected', { unit })}
          value={`${formatNumber(b.protectedCount, lang)} / ${formatNumber(b.discoveredCount, lang)}`}
          note={t('backup:dashboard.protectedNote')}
        />
        <Figure
          label={t('figures:itemsProtected.label')}
          value={formatNumber(b.items, lang)}
          {...withNote(itemsByKindText(b.itemsByKind, t, lang))}
        />
        <Figure
          label={t('figures:storedBytes.label')}
          value={formatBytes(s.storedBytes, lang)}
          note={t('backup:dashboard.growth', { size: formatBytes(Math.max(0, s.growthBytes), lang) })}
        />
        <Figure
          label={t('backup:dashboard.lastSuccess')}
          value={b.lastSuccessfulJob ? formatDateTime(b.lastSuccessfulJob.finished, lang) : '—'}
          {...(b.lastSuccessfulJob ? { note: b.lastSuccessfulJob.jobName } : { note: t('backup:dashboard.noSuccess') })}
        />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4">
        <DashboardCard title={t('figures:perDay.storedSize')} as="h3" gridColumn={{ lg: 'span 2' }}>
          <AreaChart
            label={t('figures:perDay.storedSize')}
            points={s.series.map((p) => ({ x: formatDate(p.date, lang), y: p.bytes }))}
            format={(y) => formatBytes(y, lang)}
          />
          <Heading as="h4" size="xs">
            {t('figures:perDay.itemsProtected')}
          </Heading>
          <AreaChart
            label={t('figures:perDay.itemsProtected')}
            points={s.series.map((p) => ({ x: formatDate(p.date, lang), y: p.items }))}
            format={(y) => formatNumber(y, lang)}
            height={100}
          />
        </DashboardCard>
        <DashboardCard title={t('backup:dashboard.jobsByStatus')} as="h3">
          <BarList
            label={t('backup:dashboard.jobsByStatus')}
            category={t('backup:columns.status')}
            format={(count) => t('backup:dashboard.runCount', { count, value: formatNumber(count, lang) })}
            bars={JOB_STATUSES.map((st) => ({
              key: st,
              label: t(`status:${st}`),
              value: b.jobsByStatus[st],
              palette: STATUS_PALETTE[st],
            }))}
          />
        </DashboardCard>
      </SimpleGrid>
      <Box>
        <Heading as="h3" size="sm" mb="3">
          {t('backup:dashboard.details', { unit })}
        </Heading>
        {details.data.entries.length === 0 ? (
          <Text color="fg.muted" data-testid="details-empty">
            {t('backup:dashboard.noDetails')}
          </Text>
        ) : (
          <TableView
            label={t('backup:dashboard.details', { unit })}
            columns={detailColumns}
            rows={details.data.entries}
            rowKey={(e) => e.sourceId}
          />
        )}
      </Box>
      <FigureDefinitions figures={['itemsProtected', 'storedBytes']} />
    </Stack>
  );
}

/** Backup dashboard: OneDrive, SharePoint and Teams figures of the last 30 days. */
export function BackupDashboardPage() {
  const { t } = useTranslation();
  const [application, setApplication] = useState<BackupApplication>(BACKUP_APPLICATIONS[0]);
  return (
    <>
      <PageHeader title={t('pages:backupDashboard')} help="backup.a4" />
      <RequireTenant>
        {(tenantId) => (
          <Tabs.Root
            value={application}
            onValueChange={(e) => setApplication(e.value as BackupApplication)}
            variant="line"
            lazyMount
          >
            <Tabs.List>
              {BACKUP_APPLICATIONS.map((a) => (
                <Tabs.Trigger key={a} value={a}>
                  {t(`backup:applications.${a}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {BACKUP_APPLICATIONS.map((a) => (
              <Tabs.Content key={a} value={a}>
                <ApplicationDashboard tenantId={tenantId} application={a} />
              </Tabs.Content>
            ))}
          </Tabs.Root>
        )}
      </RequireTenant>
    </>
  );
}
