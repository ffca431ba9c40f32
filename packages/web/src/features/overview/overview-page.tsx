import {
  Badge,
  Box,
  Button,
  Card,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { type Application, DASHBOARD_PERIOD_DAYS, type JobRun, type OverviewDashboard } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { FigureDefinitions } from '../../components/ui/figure-definitions';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { WRAPPING_BUTTON } from '../../components/ui/wrapping-button';
import { totalWithKinds } from '../../shared/items-by-kind';
import { failureLine, RunStatusBadge, ThrottleNote } from '../../shared/jobs/run-status';
import { RequireTenant, useApi, useTenant } from '../../shared/tenant';
import { overviewQuery, periodRunsQuery } from './api/queries';
import {
  AREA_TYPES,
  type Area,
  type AreaHealth,
  areaHealth,
  HEALTH_PALETTE,
  periodStart,
  runsPerDay,
} from './area-health';
import { FirstRunGuide, useFirstRunGuide } from './first-run-guide';
import { RunSparkline } from './run-sparkline';

/** Each area's dashboard and job monitor. */
const AREA_LINKS = {
  backup: { dashboard: '/backup-and-restore/dashboard', monitor: '/backup-and-restore/job-monitor' },
  emailArchive: { dashboard: '/archive/dashboard', monitor: '/archive/job-monitor' },
  teamsArchive: { dashboard: '/teams/dashboard', monitor: '/teams/job-monitor' },
  dataManagement: { dashboard: '/compliance/dashboard', monitor: '/compliance/monitoring' },
} as const satisfies Record<Area, { dashboard: string; monitor: string }>;

function Row({ label, value }: { label: string; value: ReactNode }) {
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
        <RunStatusBadge run={run} />
        <Text fontSize="xs" color="fg.muted">
          {formatDateTime(run.started ?? run.finished ?? run.queuedAt, i18n.language)}
        </Text>
      </HStack>
      <ThrottleNote run={run} size="xs" />
    </Stack>
  );
}

/** The runs of one area over the period, as the card's runs per day; a skeleton while they load. */
interface AreaRuns {
  runs: JobRun[] | undefined;
  failed: boolean;
}

/**
 * One area: its state in colour and words (a coloured edge and a badge), its figures, its runs per
 * day, and links to its dashboard and its job monitor.
 */
function AreaCard({
  area,
  health,
  periodRuns,
  children,
}: {
  area: Area;
  health: AreaHealth | null;
  periodRuns: AreaRuns;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const title = t(`overview:${area}`);
  const palette = health ? HEALTH_PALETTE[health] : 'gray';
  const runs = periodRuns.runs?.filter((r) => r.jobType === AREA_TYPES[area]);
  const headingId = `area-${area}-title`;
  return (
    <Card.Root
      as="section"
      aria-labelledby={headingId}
      data-testid={`area-${area}`}
      data-health={health ?? undefined}
      borderTopWidth="4px"
      borderTopColor={`${palette}.solid`}
    >
      <Card.Body gap="3">
        <HStack justify="space-between" align="flex-start" gap="2" wrap="wrap">
          <Heading as="h2" size="sm" id={headingId}>
            {title}
          </Heading>
          {health ? (
            <Badge colorPalette={palette} variant="subtle" data-testid="area-health">
              <VisuallyHidden>{t('overview:state')}: </VisuallyHidden>
              {health === 'none' && area === 'dataManagement'
                ? t('overview:health.quiet', { days: DASHBOARD_PERIOD_DAYS })
                : t(`overview:health.${health}`)}
            </Badge>
          ) : null}
        </HStack>
        {children}
        <Stack gap="1">
          <Text fontSize="sm" color="fg.muted">
            {t('overview:runs.title')}
          </Text>
          {runs ? (
            <RunSparkline days={runsPerDay(runs, DASHBOARD_PERIOD_DAYS)} testId={`runs-${area}`} />
          ) : periodRuns.failed ? (
            <Text fontSize="xs" color="fg.muted" data-testid={`runs-${area}`}>
              {t('overview:runs.failed', { days: DASHBOARD_PERIOD_DAYS })}
            </Text>
          ) : (
            <Skeleton height="8" />
          )}
        </Stack>
        <HStack gap="2" wrap="wrap" mt="auto">
          <Button asChild size="sm" variant="outline" colorPalette="blue" {...WRAPPING_BUTTON}>
            <Link to={AREA_LINKS[area].dashboard}>{t('overview:open', { area: title })}</Link>
          </Button>
          <Button asChild size="sm" variant="ghost" colorPalette="blue" {...WRAPPING_BUTTON}>
            <Link to={AREA_LINKS[area].monitor} aria-label={t('overview:monitorOf', { area: title })}>
              {t('overview:monitor')}
            </Link>
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function JobAreaCard({
  area,
  data,
  periodRuns,
}: {
  area: Exclude<Area, 'dataManagement'>;
  data: OverviewDashboard;
  periodRuns: AreaRuns;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const a = data[area];
  const runs = periodRuns.runs?.filter((r) => r.jobType === AREA_TYPES[area]);
  return (
    <AreaCard area={area} health={areaHealth(a.lastJob, runs)} periodRuns={periodRuns}>
      <Stack gap="1">
        <Text fontSize="sm" color="fg.muted">
          {t('overview:lastJob')}
        </Text>
        <LastJob run={a.lastJob} />
      </Stack>
      <Row label={t('overview:failedRuns')} value={formatNumber(a.failedRuns, lang)} />
      <Row label={t('overview:covered')} value={formatNumber(a.protectedCount, lang)} />
      {a.items !== undefined ? (
        <Row label={t('figures:itemsProtected.short')} value={totalWithKinds(a.items, a.itemsByKind, t, lang)} />
      ) : null}
      <Row label={t('figures:storedBytes.short')} value={formatBytes(a.bytes, lang)} />
    </AreaCard>
  );
}

function Overview({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const overview = useQuery(overviewQuery(api, tenantId));
  const runsQuery = useQuery(periodRunsQuery(api, tenantId, periodStart(DASHBOARD_PERIOD_DAYS).toISOString()));
  const periodRuns: AreaRuns = { runs: runsQuery.data, failed: runsQuery.isError };
  const d = overview.data;
  if (overview.isError) return <StatusAlert status="error">{t('overview:failed')}</StatusAlert>;
  if (!d) return <Skeleton height="48" aria-busy="true" />;
  const money = new Intl.NumberFormat(lang, { style: 'currency', currency: d.dataManagement.currency ?? 'EUR' });
  // The contract keys these records by application (onedrive, sharepoint, teams), typed as strings.
  const lefts = (record: Record<string, number>) =>
    (Object.entries(record) as [Application, number][])
      .map(([app, n]) => `${t(`backup:applications.${app}`)}: ${formatNumber(n, lang)}`)
      .join(' · ');
  const cleanups = runsQuery.data?.filter((r) => r.jobType === AREA_TYPES.dataManagement);
  return (
    <Stack gap="6">
      <Text color="fg.muted" fontSize="sm">
        {t('overview:intro', { days: d.periodDays })}
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="4">
        <JobAreaCard area="backup" data={d} periodRuns={periodRuns} />
        <JobAreaCard area="emailArchive" data={d} periodRuns={periodRuns} />
        <JobAreaCard area="teamsArchive" data={d} periodRuns={periodRuns} />
        <AreaCard area="dataManagement" health={cleanups ? areaHealth(null, cleanups) : null} periodRuns={periodRuns}>
          <Row label={t('overview:saved')} value={formatBytes(d.dataManagement.savedBytes, lang)} />
          <Row label={t('overview:saving')} value={money.format(d.dataManagement.monthlySaving)} />
        </AreaCard>
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <DashboardCard title={t('overview:license')} as="h2" gap="2" data-testid="licence">
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
        </DashboardCard>
        <DashboardCard title={t('overview:failures')} as="h2" gap="2">
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
                    {run.failure ? ` · ${failureLine(run.failure, t)}` : run.message ? ` · ${run.message}` : ''}
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </DashboardCard>
      </SimpleGrid>
      <FigureDefinitions figures={['storedBytes']} />
    </Stack>
  );
}

/**
 * The overview (/ and /dashboard): the first-run guide while the organisation is not set up, then
 * every area of the selected organisation at a glance, with links into each.
 */
export function OverviewPage() {
  const { t } = useTranslation();
  const { tenantId } = useTenant();
  const guide = useFirstRunGuide();
  return (
    <>
      <PageHeader title={t('pages:overview')} help="overview.a1" />
      {/* Without a tenant the guide's first step says what to do; the alert only when it does not show.
          With a tenant the guide follows the areas: it settles after them, and shown above them it
          would push them down under the reader's eye. */}
      {tenantId ? null : <FirstRunGuide guide={guide} />}
      {tenantId || (guide.settled && !guide.visible) ? (
        <RequireTenant>{(id) => <Overview tenantId={id} />}</RequireTenant>
      ) : null}
      {tenantId ? (
        <Box mt="6">
          <FirstRunGuide guide={guide} />
        </Box>
      ) : null}
    </>
  );
}
