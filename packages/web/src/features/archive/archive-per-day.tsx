import { Heading, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AreaChart } from '../../components/ui/charts';
import { DashboardCard } from '../../components/ui/dashboard-card';
import { formatDate, formatNumber } from '../../components/ui/format';

/** One day of an archive: what was archived on it (deleted since or not) and what retention deleted on it. */
export interface ArchiveDay {
  date: string;
  archived: number;
  deleted: number;
}

/**
 * An archive's days over the period as they were: what each day archived stays on its day after a
 * deletion, and a deletion shows on its own day, as a deletion (its chart and its days in words).
 */
export function ArchivePerDay({ title, days }: { title: string; days: readonly ArchiveDay[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const deletions = days.filter((d) => d.deleted > 0);
  const deleted = deletions.reduce((n, d) => n + d.deleted, 0);
  return (
    <DashboardCard title={title} as="h2">
      <AreaChart
        label={`${title}: ${t('figures:perDay.archived')}`}
        points={days.map((d) => ({ x: formatDate(d.date, lang), y: d.archived }))}
        format={(y) => formatNumber(y, lang)}
      />
      <Heading as="h3" size="xs">
        {t('figures:perDay.deleted')}
      </Heading>
      <AreaChart
        label={`${title}: ${t('figures:perDay.deleted')}`}
        points={days.map((d) => ({ x: formatDate(d.date, lang), y: d.deleted }))}
        format={(y) => formatNumber(y, lang)}
        height={80}
      />
      <Text fontSize="sm" data-testid="archive-deletions">
        {deleted > 0
          ? t('figures:perDay.deletions', {
              count: deleted,
              days: deletions
                .map((d) =>
                  t('figures:perDay.deletionDay', {
                    date: formatDate(d.date, lang),
                    deleted: formatNumber(d.deleted, lang),
                  }),
                )
                .join(', '),
            })
          : t('figures:perDay.noDeletions')}
      </Text>
      <Text fontSize="xs" color="fg.muted">
        {t('figures:perDay.note')}
      </Text>
    </DashboardCard>
  );
}
