import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { RUN_AREA_TYPES } from '../../shared/jobs/areas';
import { Monitor } from '../../shared/jobs/monitor';
import { Reports } from '../../shared/jobs/reports';
import { RequireTenant } from '../../shared/tenant';

/** The job monitor and reports of the email archive (archiving and deletion) and of the Teams archive. */
export function ArchiveMonitorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:archiveJobMonitor')} help="reports.a1" />
      <RequireTenant>
        {(tenantId) => (
          <Monitor
            from="/_app/_worker/archive/job-monitor"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.emailArchive, label: t('pages:archiveJobMonitor') }}
          />
        )}
      </RequireTenant>
    </>
  );
}

export function ArchiveReportsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:archiveReports')} help="reports.a2" />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            from="/_app/_worker/archive/reports"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.emailArchive, label: t('pages:archiveReports') }}
          />
        )}
      </RequireTenant>
    </>
  );
}

export function TeamsMonitorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:teamsJobMonitor')} help="reports.a1" />
      <RequireTenant>
        {(tenantId) => (
          <Monitor
            from="/_app/_worker/teams/job-monitor"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.teamsArchive, label: t('pages:teamsJobMonitor') }}
          />
        )}
      </RequireTenant>
    </>
  );
}

export function TeamsReportsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:teamsReporting')} help="reports.a2" />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            from="/_app/_worker/teams/reporting"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.teamsArchive, label: t('pages:teamsReporting') }}
          />
        )}
      </RequireTenant>
    </>
  );
}
