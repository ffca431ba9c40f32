import { Text } from '@chakra-ui/react';
import { MAILBOX_PARTS } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { includedParts } from '../../shared/jobs/include-choice';
import { JobsList } from '../../shared/jobs/jobs-list';
import { RequireTenant, useTenant } from '../../shared/tenant';
import { ArchiveJobForm } from './archive-job-form';

/** Exchange archive jobs: list, create and edit with mailboxes and folder paths, start, stop, remove. */
export function ArchiveJobsPage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:archiveJobs')} help="emailArchive.a1" />
      <RequireTenant>
        {(tenantId) => (
          <JobsList
            from="/_app/_worker/archive/jobs"
            tenantId={tenantId}
            trial={trial}
            area={{
              type: 'exchangeArchive',
              applications: ['exchange'],
              texts: { label: t('pages:archiveJobs'), empty: t('archiveJobs:empty'), create: t('archiveJobs:create') },
              trialLimited: false,
              notFound: t('errors:exchangeJobNotFound'),
              renderForm: ({ job, onClose }) => (
                <ArchiveJobForm tenantId={tenantId} {...(job ? { job } : {})} onClose={onClose} />
              ),
              extraColumns: [
                {
                  key: 'include',
                  header: t('archiveJobs:include.column'),
                  cell: (j) => (
                    <Text truncate maxW="xs">
                      {j.include
                        ? includedParts(j.include, MAILBOX_PARTS)
                            .map((part) => t(`archiveJobs:include.parts.${part}`))
                            .join(', ')
                        : t('archiveJobs:include.everything')}
                    </Text>
                  ),
                  hideBelow: 'lg',
                },
                {
                  key: 'folders',
                  header: t('folders:label'),
                  cell: (j) => (
                    <Text truncate maxW="xs">
                      {j.folders?.length ? j.folders.join(', ') : t('folders:all')}
                    </Text>
                  ),
                  hideBelow: 'lg',
                },
              ],
            }}
          />
        )}
      </RequireTenant>
    </>
  );
}
