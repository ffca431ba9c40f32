import { Button, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { MAX_ACCOUNTS_PAGE_SIZE, type Report, type RunAccount } from '@compliance-portal/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { StatusBadge } from '../../components/ui/status-badge';
import { sumOfKinds, totalWithKinds } from '../items-by-kind';
import { useApi } from '../tenant';
import { fetchReportAccountsPage } from './api/pages';
import { CleanupAccounts } from './cleanup-accounts';
import { HeldItems } from './held-items';
import { failureTexts, RunAccountsTable } from './run-accounts';

/**
 * One report: its title, status, totals and accounts (a clean-up's sites and OneDrives), exported; an
 * archive deletion's also the items legal holds kept.
 */
export function ReportView({ tenantId, report, onBack }: { tenantId: string; report: Report; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const heldHeading = useId();
  const exportColumns: ExportColumn<RunAccount>[] = [
    { header: t('backup:columns.account'), value: (a) => a.displayName },
    { header: t('backup:columns.status'), value: (a) => t(`status:${a.status}`) },
    { header: t('backup:columns.items'), value: (a) => a.items },
    { header: t('backup:columns.failures'), value: (a) => a.failedItems },
    { header: t('backup:columns.bytes'), value: (a) => a.bytes },
    { header: t('backup:columns.errors'), value: (a) => failureTexts(a, t).join('; ') },
  ];
  const totals = [
    [t('backup:columns.accounts'), formatNumber(report.totals.accounts, lang)],
    [
      t('backup:columns.items'),
      totalWithKinds(
        report.totals.itemsByKind ? sumOfKinds(report.totals.itemsByKind) : report.totals.items,
        report.totals.itemsByKind,
        t,
        lang,
      ),
    ],
    [t('figures:bytesRead.short'), formatBytes(report.totals.bytes, lang)],
    // A failed run never reads "0 failures": it failed as a whole.
    [
      t('backup:columns.failures'),
      report.status === 'failed' && report.totals.failures === 0
        ? t('runs:failures.runFailed')
        : formatNumber(report.totals.failures, lang),
    ],
  ] as const;
  return (
    <Stack gap="4">
      <Button alignSelf="flex-start" variant="ghost" size="sm" onClick={onBack}>
        ‹ {t('backup:backToReports')}
      </Button>
      <Stack gap="1">
        {/* The run's dates stand below, in the reader's language: the title's own date is for file names. */}
        <Heading as="h2" size="lg" data-testid="report-title">
          {report.jobName}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <StatusBadge status={report.status} warnings={report.totals.failures > 0} />{' '}
          {formatDateTime(report.started, lang)} – {formatDateTime(report.finished, lang)}
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        {totals.map(([label, value]) => (
          <Stack key={label} gap="0" borderWidth="1px" borderRadius="md" p="3">
            <Text fontSize="sm" color="fg.muted">
              {label}
            </Text>
            <Text fontSize="xl" fontWeight="semibold">
              {value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
      {report.jobType === 'versionCleanup' ? (
        <CleanupAccounts tenantId={tenantId} reportId={report.reportId} title={report.title} />
      ) : (
        <RunAccountsTable
          label={t('backup:runAccounts')}
          tenantId={tenantId}
          from="reporting"
          reportId={report.reportId}
          toolbar={
            <ExportButtons
              title={report.title}
              columns={exportColumns}
              fetchPage={({ page, pageSize, after }) =>
                fetchReportAccountsPage(api, tenantId, report.reportId, {
                  page,
                  pageSize,
                  sort: 'displayName',
                  order: 'asc',
                  ...(after ? { after } : {}),
                })
              }
              keyOf={(a) => a.accountId}
              pageSize={MAX_ACCOUNTS_PAGE_SIZE}
            />
          }
        />
      )}
      {report.jobType === 'archiveDeletion' ? (
        <Stack gap="2" as="section" aria-labelledby={heldHeading}>
          <Heading as="h3" size="md" id={heldHeading}>
            {t('deletionJobs:heldItems')}
          </Heading>
          <HeldItems tenantId={tenantId} reportId={report.reportId} title={report.title} />
        </Stack>
      ) : null}
    </Stack>
  );
}
