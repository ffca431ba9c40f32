import { SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { DASHBOARD_TOP } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { Figure } from '../../components/ui/figure';
import { FigureDefinitions } from '../../components/ui/figure-definitions';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { itemsByKindText } from '../../shared/items-by-kind';
import { useApi, useTenant } from '../../shared/tenant';
import { archiveStatisticsQuery, mailboxesTopQuery } from './api/queries';
import { ArchivePerDay } from './archive-per-day';

/** Email archive dashboard: mailboxes, items and size, growth over 30 days, the top 10, the last job. */
export function ArchiveDashboardPage() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const lang = i18n.language;
  const stats = useQuery(archiveStatisticsQuery(api, workerIp));
  const top = useQuery(mailboxesTopQuery(api, workerIp));
  const s = stats.data;
  // The top 10, whatever the answer holds.
  const largest = top.data?.slice(0, DASHBOARD_TOP.mailboxes);
  const figures: [string, string, string?][] = s
    ? [
        [t('archive:mailboxes'), formatNumber(s.mailboxes, lang)],
        [
          t('figures:itemsProtected.label'),
          formatNumber(s.items, lang),
          itemsByKindText(s.itemsByKind, t, lang) ?? t('archive:items'),
        ],
        [t('figures:storedBytes.label'), formatBytes(s.bytes, lang)],
        [
          t('backup:dashboard.lastSuccess'),
          s.lastSuccessfulJob ? formatDateTime(s.lastSuccessfulJob.finished, lang) : t('backup:dashboard.noSuccess'),
        ],
      ]
    : [];
  return (
    <>
      <PageHeader title={t('pages:archiveDashboard')} help="emailArchive.a7" />
      {stats.isError ? (
        <StatusAlert status="error">{t('backup:dashboard.failed')}</StatusAlert>
      ) : !s ? (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height="24" />
          ))}
        </SimpleGrid>
      ) : (
        <Stack gap="6">
          <Text fontSize="sm" color="fg.muted">
            {t('backup:dashboard.period', {
              days: s.periodDays,
              from: formatDate(s.growth[0]?.date, lang),
              to: formatDate(s.growth.at(-1)?.date, lang),
            })}
          </Text>
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
            {figures.map(([label, value, note]) => (
              <Figure key={label} label={label} value={value} {...(note ? { note } : {})} />
            ))}
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
            <ArchivePerDay
              title={t('archive:growth')}
              days={s.growth.map((d) => ({ date: d.date, archived: d.items, deleted: d.deletedItems ?? 0 }))}
            />
            <DashboardCard title={t('archive:top')} as="h2">
              {largest?.length ? (
                <Table.Root size="sm" aria-label={t('archive:top')}>
                  <Table.Body>
                    {largest.map((m) => (
                      <Table.Row key={m.mailboxId}>
                        <Table.Cell>{m.name}</Table.Cell>
                        <Table.Cell textAlign="end">{formatBytes(m.sizeBytes, lang)}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              ) : (
                <Text color="fg.muted">{t('archive:noMailboxes')}</Text>
              )}
            </DashboardCard>
          </SimpleGrid>
          <FigureDefinitions figures={['itemsProtected', 'storedBytes']} />
        </Stack>
      )}
    </>
  );
}
