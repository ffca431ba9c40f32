import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { Monitor } from '../../shared/jobs/monitor';
import { Reports } from '../../shared/jobs/reports';
import { RequireTenant } from '../../shared/tenant';
import { AREA_TYPES } from './areas';

/** Running and recent backup and restore runs with live progress and each run's accounts and errors. */
export function BackupMonitorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:backupJobMonitor')} help="reports.a1" />
      <RequireTenant>
        {(tenantId) => (
          <Monitor
            from="/_app/_worker/backup-and-restore/job-monitor"
            tenantId={tenantId}
            area={{ types: AREA_TYPES, label: t('pages:backupJobMonitor') }}
          />
        )}
      </RequireTenant>
    </>
  );
}

/** One report per ended backup or restore run; its accounts, totals and failures, exported to xlsx or csv. */
export function BackupReportsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:backupReports')} help="reports.a2" />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            from="/_app/_worker/backup-and-restore/reports"
            tenantId={tenantId}
            area={{ types: AREA_TYPES, label: t('pages:backupReports') }}
          />
        )}
      </RequireTenant>
    </>
  );
}
