import { Text } from '@chakra-ui/react';
import { SITE_PARTS } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { includedParts } from '../../shared/jobs/include-choice';
import { JobsList } from '../../shared/jobs/jobs-list';
import { RequireTenant, useTenant } from '../../shared/tenant';
import { BACKUP_APPLICATIONS } from './areas';
import { BackupJobForm } from './job-form';

/** Backup jobs of OneDrive, SharePoint and Teams: list, create, edit, start, stop, remove. */
export function BackupJobsPage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:backupJobs')} help="backup.a1" />
      <RequireTenant>
        {(tenantId) => (
          <JobsList
            from="/_app/_worker/backup-and-restore/backup-jobs"
            tenantId={tenantId}
            trial={trial}
            area={{
              type: 'backup',
              applications: BACKUP_APPLICATIONS,
              texts: { label: t('pages:backupJobs'), empty: t('backup:noJobs'), create: t('backup:createJob') },
              trialLimited: true,
              extraColumns: [
                {
                  key: 'include',
                  header: t('backup:form.include.column'),
                  // Only a SharePoint backup chooses what it takes of each source.
                  cell: (j) =>
                    j.application !== 'sharepoint' ? null : (
                      <Text truncate maxW="xs">
                        {j.include
                          ? includedParts(j.include, SITE_PARTS)
                              .map((part) => t(`backup:form.include.parts.${part}`))
                              .join(', ')
                          : t('backup:form.include.everything')}
                      </Text>
                    ),
                  hideBelow: 'lg',
                },
              ],
              renderForm: ({ job, usedApplications, onClose }) => (
                <BackupJobForm
                  tenantId={tenantId}
                  trial={trial}
                  {...(job ? { job } : {})}
                  usedApplications={usedApplications}
                  onClose={onClose}
                />
              ),
            }}
          />
        )}
      </RequireTenant>
    </>
  );
}
