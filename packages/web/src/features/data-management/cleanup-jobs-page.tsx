import { Link, Text } from '@chakra-ui/react';
import type { Job } from '@compliance-portal/sdk';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import type { ExportColumn } from '../../components/ui/export-button';
import { formatDate } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { JobsList } from '../../shared/jobs/jobs-list';
import { RequireTenant, useTenant } from '../../shared/tenant';
import { CLEANUP_APPLICATIONS } from './areas';
import { CleanupJobForm } from './cleanup-job-form';

/** A clean-up job's rule in words: the versions it keeps, or the day before which it removes them. */
function useRuleText(): (job: Job) => string | null {
  const { t, i18n } = useTranslation();
  return (j) => {
    const rule = j.cleanupRule;
    if (!rule) return null;
    return rule.kind === 'keepNewest'
      ? t('cleanupJobs:keepNewest', { count: rule.count })
      : t('cleanupJobs:olderThan', { date: formatDate(rule.date, i18n.language) });
  };
}

/** The rule in the list's export: its words, and how many chosen paths it is limited to. */
function useRuleExport(): ExportColumn<Job> {
  const { t } = useTranslation();
  const ruleText = useRuleText();
  return {
    header: t('cleanupJobs:rule'),
    value: (j) =>
      [ruleText(j) ?? '', j.paths?.length ? t('cleanupJobs:paths', { count: j.paths.length }) : '']
        .filter(Boolean)
        .join(' '),
  };
}

function useRuleColumn(): Column<Job> {
  const { t } = useTranslation();
  const ruleText = useRuleText();
  return {
    key: 'rule',
    header: t('cleanupJobs:rule'),
    // On a phone the rule stands under the job's name.
    hideBelow: 'sm',
    stack: true,
    cell: (j) => {
      const text = ruleText(j);
      if (!text) return '—';
      return (
        <Text data-testid="cleanup-rule">
          {text}
          {j.paths?.length ? (
            <Text as="span" display="block" fontSize="xs" color="fg.muted">
              {t('cleanupJobs:paths', { count: j.paths.length })}
            </Text>
          ) : null}
        </Text>
      );
    },
  };
}

/**
 * Data management's clean-up jobs: old file versions of SharePoint sites and OneDrives removed on a
 * schedule under a rule; listed, created, edited, started, stopped and removed as every area's jobs,
 * their runs in the data-management monitor.
 */
export function CleanupJobsPage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  const ruleColumn = useRuleColumn();
  const ruleExport = useRuleExport();
  return (
    <>
      <PageHeader title={t('pages:cleanupJobs')} description={t('cleanupJobs:description')} help="dataManagement.a4" />
      <RequireTenant>
        {(tenantId) => (
          <JobsList
            from="/_app/_worker/compliance/jobs"
            tenantId={tenantId}
            trial={trial}
            area={{
              type: 'versionCleanup',
              applications: CLEANUP_APPLICATIONS,
              texts: { label: t('pages:cleanupJobs'), empty: t('cleanupJobs:empty'), create: t('cleanupJobs:create') },
              trialLimited: false,
              // Clean-up writes nowhere and keeps nothing: its rule stands where a backup's retention does.
              instead: { destination: null, retention: ruleColumn },
              exportInstead: { retention: ruleExport },
              renderForm: ({ job, onClose }) => (
                <CleanupJobForm tenantId={tenantId} {...(job ? { job } : {})} onClose={onClose} />
              ),
            }}
          />
        )}
      </RequireTenant>
      <Text fontSize="sm" color="fg.muted" mt="2">
        <Link asChild colorPalette="blue">
          <RouterLink to="/compliance/monitoring">{t('cleanupJobs:runs')}</RouterLink>
        </Link>
      </Text>
    </>
  );
}
