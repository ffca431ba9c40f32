import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
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
