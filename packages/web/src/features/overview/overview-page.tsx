import { Card, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { JobRun, OverviewDashboard } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { StatusBadge } from '../../components/ui/status-badge';
import { RequireTenant, useApi } from '../backup/shared';

type AreaKey = 'backup' | 'emailArchive' | 'teamsArchive';
const AREA_LINKS = {
  backup: '/backup-and-restore/dashboard',
  emailArchive: '/archive/dashboard',
  teamsArchive: '/teams/dashboard',
  dataManagement: '/compliance/dashboard',
} as const;

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <HStack justify="space-between" gap="3">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="sm" fontWeight="medium" textAlign="end">
        {value}
      </Text>
    </HStack>
  );
}

function LastJob({ run }: { run: JobRun | null }) {
  const { t, i18n } = useTranslation();
  if (!run) return <Text fontSize="sm">{t('overview:noJob')}</Text>;
  return (
    <Stack gap="1">
      <Text fontSize="sm" fontWeight="medium">
        {run.jobName}
      </Text>
      <HStack gap="2" wrap="wrap">
        <StatusBadge status={run.status} />
        <Text fontSize="xs" color="fg.muted">
          {formatDateTime(run.started ?? run.finished, i18n.language)}
        </Text>
      </HStack>
    </Stack>
  );
}

function AreaCard({ area, data }: { area: AreaKey; data: OverviewDashboard }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const a = data[area];
  const title = t(`overview:${area}`);
  return (
    <Card.Root data-testid={`area-${area}`}>
      <Card.Body gap="3">
        <Heading as="h2" size="sm">
          {title}
        </Heading>
        <Stack gap="1">
          <Text fontSize="sm" color="fg.muted">
            {t('overview:lastJob')}
          </Text>
          <LastJob run={a.lastJob} />
        </Stack>
        <Row label={t('overview:failedRuns')} value={formatNumber(a.failedRuns, lang)} />
        <Row label={t('overview:covered')} value={formatNumber(a.protectedCount, lang)} />
        <Row label={t('overview:stored')} value={formatBytes(a.bytes, lang)} />
        <Link to={AREA_LINKS[area]}>{t('overview:open', { area: title })}</Link>
      </Card.Body>
    </Card.Root>
  );
}

function Overview({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const overview = useQuery({
    queryKey: ['tenant', tenantId, 'dashboard', 'overview'],
    queryFn: ({ signal }) => api.apollo.dashboards.overview({ tenantId }, { signal }),
  });
  const d = overview.data;
  if (overview.isError) return <StatusAlert status="error">{t('overview:failed')}</StatusAlert>;
  if (!d) return <Skeleton height="48" aria-busy="true" />;
  const money = new Intl.NumberFormat(lang, { style: 'currency', currency: d.dataManagement.currency ?? 'EUR' });
  const lefts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([app, n]) => `${t(`backup:applications.${app}`)}: ${formatNumber(n, lang)}`)
      .join(' · ');
  return (
    <Stack gap="6">
      <Text color="fg.muted" fontSize="sm">
        {t('overview:intro', { days: d.periodDays })}
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="4">
        <AreaCard area="backup" data={d} />
        <AreaCard area="emailArchive" data={d} />
        <AreaCard area="teamsArchive" data={d} />
        <Card.Root data-testid="area-dataManagement">
          <Card.Body gap="3">
            <Heading as="h2" size="sm">
              {t('overview:dataManagement')}
            </Heading>
            <Row label={t('overview:saved')} value={formatBytes(d.dataManagement.savedBytes, lang)} />
            <Row label={t('overview:saving')} value={money.format(d.dataManagement.monthlySaving)} />
            <Link to={AREA_LINKS.dataManagement}>{t('overview:open', { area: t('overview:dataManagement') })}</Link>
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <Card.Root data-testid="licence">
          <Card.Body gap="2">
            <Heading as="h2" size="sm">
              {t('overview:license')}
            </Heading>
            {d.license.kind === 'trial' ? (
              <>
                <Text fontSize="sm" fontWeight="medium">
                  {t('overview:trial')}
                </Text>
                <Row label={t('overview:backupJobsLeft')} value={lefts(d.license.backupJobsLeft)} />
                <Row label={t('overview:restoresLeft')} value={lefts(d.license.restoresLeft)} />
              </>
            ) : (
              <Text fontSize="sm">{t('overview:full')}</Text>
            )}
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Body gap="2">
            <Heading as="h2" size="sm">
              {t('overview:failures')}
            </Heading>
            {d.recentFailures.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                {t('overview:noFailures')}
              </Text>
            ) : (
              <Stack as="ul" gap="2" listStyleType="none" m="0" p="0" data-testid="recent-failures">
                {d.recentFailures.map((run) => (
                  <li key={run.reportId}>
                    <Text fontSize="sm" fontWeight="medium">
                      {run.jobName}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {t(`backup:types.${run.jobType}`)} · {formatDateTime(run.finished ?? run.started, lang)}
                      {run.message ? ` · ${run.message}` : ''}
                    </Text>
                  </li>
                ))}
              </Stack>
            )}
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
    </Stack>
  );
}

/** The overview (/ and /dashboard): every area of the selected organisation, with links into each. */
export function OverviewPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:overview')} />
      <RequireTenant>{(tenantId) => <Overview tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
