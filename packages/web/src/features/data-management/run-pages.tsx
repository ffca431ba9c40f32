import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { RUN_AREA_TYPES } from '../../shared/jobs/areas';
import { Monitor } from '../../shared/jobs/monitor';
import { Reports } from '../../shared/jobs/reports';
import { RequireTenant } from '../../shared/tenant';

/** The job monitor of version clean-ups. */
export function DataManagementMonitorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:complianceMonitoring')} help="reports.a1" />
      <RequireTenant>
        {(tenantId) => (
          <Monitor
            from="/_app/_worker/compliance/monitoring"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.dataManagement, label: t('pages:complianceMonitoring') }}
          />
        )}
      </RequireTenant>
    </>
  );
}

/** Data-management reports: one per clean-up run, its sites and OneDrives with the versions removed. */
export function DataManagementReportsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:complianceReporting')} help="reports.a2" />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            from="/_app/_worker/compliance/reporting"
            tenantId={tenantId}
            area={{ types: RUN_AREA_TYPES.dataManagement, label: t('pages:complianceReporting') }}
          />
        )}
      </RequireTenant>
    </>
  );
}
