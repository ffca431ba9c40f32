import { Alert, Badge, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Figure } from '../../components/ui/figure';
import { FigureDefinitions } from '../../components/ui/figure-definitions';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { JobsList } from '../../shared/jobs/jobs-list';
import { M365FailureAlert } from '../../shared/m365-failure';
import { RequireTenant, useApi, useTenant } from '../../shared/tenant';
import { teamsStatisticsQuery } from './api/queries';
import { ArchiveJobForm } from './archive-job-form';
import { ArchivePerDay } from './archive-per-day';

/**
 * Teams archive dashboard: teams, channels, chats and messages archived, those a legal hold keeps,
 * growth over 30 days; or that Teams is not set up.
 */
export function TeamsDashboardPage() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const lang = i18n.language;
  const stats = useQuery(teamsStatisticsQuery(api, workerIp));
  const s = stats.data;
  return (
    <>
      <PageHeader title={t('pages:teamsDashboard')} help="teamsArchive.a5" />
      {stats.isError ? (
        <M365FailureAlert title={t('m365:teamsDashboard')} error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !s ? (
        <Skeleton height="32" aria-busy="true" />
      ) : !s.configured ? (
        <Alert.Root status="info" data-testid="teams-not-configured">
          <Alert.Indicator />
          <Alert.Title>{t('teamsArchive:notConfigured')}</Alert.Title>
        </Alert.Root>
      ) : (
        <Stack gap="6">
          <Text fontSize="sm" color="fg.muted">
            {t('backup:dashboard.period', {
              days: s.periodDays,
              from: formatDate(s.growth[0]?.date, lang),
              to: formatDate(s.growth.at(-1)?.date, lang),
            })}
          </Text>
          {s.held > 0 ? (
            <HStack gap="2" wrap="wrap" data-testid="teams-held">
              <Badge colorPalette="orange" variant="solid">
                {t('archive:legalHold')}
              </Badge>
              <Text fontSize="sm">
                {t('teamsArchive:held', {
                  count: s.held,
                  sources: t('teamsArchive:sourceCount', {
                    count: s.heldSources,
                    n: formatNumber(s.heldSources, lang),
                  }),
                })}
              </Text>
            </HStack>
          ) : null}
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 5 }} gap="4">
            {(
              [
                [t('teamsArchive:teams'), formatNumber(s.teams, lang)],
                [t('teamsArchive:channels'), formatNumber(s.channels, lang)],
                [t('teamsArchive:chats'), formatNumber(s.chats, lang)],
                [t('figures:itemsProtected.label'), formatNumber(s.messages, lang), t('teamsArchive:messages')],
                [t('figures:storedBytes.label'), formatBytes(s.bytes, lang)],
              ] as [string, string, string?][]
            ).map(([label, value, note]) => (
              <Figure key={label} label={label} value={value} {...(note ? { note } : {})} />
            ))}
          </SimpleGrid>
          <ArchivePerDay
            title={t('teamsArchive:growth')}
            days={s.growth.map((d) => ({ date: d.date, archived: d.messages, deleted: d.deletedMessages ?? 0 }))}
          />
          <FigureDefinitions figures={['itemsProtected', 'storedBytes']} />
        </Stack>
      )}
    </>
  );
}

/** Teams archive jobs: teams and the accounts whose chats are archived, schedule; start, stop, remove. */
export function TeamsJobsPage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:teamsJobs')} help="teamsArchive.a1" />
      <RequireTenant>
        {(tenantId) => (
          <JobsList
            from="/_app/_worker/teams/jobs"
            tenantId={tenantId}
            trial={trial}
            area={{
              type: 'teamsArchive',
              applications: ['teams'],
              texts: {
                label: t('pages:teamsJobs'),
                empty: t('archiveJobs:empty'),
                create: t('archiveJobs:teamsCreate'),
              },
              trialLimited: false,
              renderForm: ({ job, onClose }) => (
                <ArchiveJobForm tenantId={tenantId} of="teams" {...(job ? { job } : {})} onClose={onClose} />
              ),
            }}
          />
        )}
      </RequireTenant>
    </>
  );
}
