import { Alert, Button, Stack } from '@chakra-ui/react';
import type { Application, Job, JobType } from '@compliance-portal/sdk';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { useServerAction } from '../../offline/online';
import { useApi } from '../tenant';
import type { PendingAction } from './api/mutations';
import { fetchJobsPage } from './api/pages';
import { JobActionDialog } from './job-action-dialog';
import {
  type JobColumnsInstead,
  TRIAL_LIMITS_ID,
  useJobColumns,
  useJobExportColumns,
  useJobRowActions,
} from './job-columns';
import { jobListQueryOf } from './list-search';
import { StartedNotice } from './run-notice';
import { type JobsRoute, useJobsList } from './use-jobs-list';

/** What a jobs list is about: one job type, its workloads, texts, form and extra columns. */
export interface JobArea {
  type: JobType;
  applications: readonly Application[];
  texts: { label: string; empty: string; create: string };
  /** The trial's one-job-per-application limit applies (backup jobs). */
  trialLimited: boolean;
  /** What a 404 on one of these jobs says, when the catalogue has a text for it. */
  notFound?: string;
  renderForm: (props: { job?: Job; usedApplications: ReadonlySet<string>; onClose: () => void }) => ReactNode;
  extraColumns?: Column<Job>[];
  /** The area's own column in place of the destination or the retention, or none (null); in the export too. */
  instead?: JobColumnsInstead<Column<Job>>;
  exportInstead?: JobColumnsInstead<ExportColumn<Job>>;
  /** What the area says in a start, stop or removal's confirmation beside its own words. */
  actionDetails?: (pending: PendingAction) => ReactNode;
}

/** A trial's limit of one job per application, with the applications that have one. */
function TrialLimits({ area, used }: { area: JobArea; used: ReadonlySet<string> }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="info" data-testid="trial-limits">
      <Alert.Indicator />
      <Alert.Title id={TRIAL_LIMITS_ID}>
        {t('backup:trialLimits', {
          used:
            area.applications
              .filter((a) => used.has(a))
              .map((a) => t(`backup:applications.${a}`))
              .join(', ') || t('backup:none'),
        })}
      </Alert.Title>
    </Alert.Root>
  );
}

/**
 * An area's jobs of one type: listed, sorted, searched and filtered by application on the server (the
 * list's state in the address), created and edited in the area's form, started, stopped and removed
 * after a confirmation.
 */
export function JobsList({
  from,
  tenantId,
  trial,
  area,
}: {
  from: JobsRoute;
  tenantId: string;
  trial: boolean;
  area: JobArea;
}) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  const list = useJobsList(from, tenantId, trial, area);
  const api = useApi();
  const { state, setState, jobs, locations, form, setForm, pending, setPending, started, setStarted, act } = list;
  const exportColumns = useJobExportColumns(area.exportInstead);
  const columns = useJobColumns({
    tenantId,
    locations: locations.data,
    ...(area.extraColumns ? { extraColumns: area.extraColumns } : {}),
    ...(area.instead ? { instead: area.instead } : {}),
  });
  const rowActions = useJobRowActions({
    limited: list.limited,
    onAction: (job, action) => setPending({ job, action }),
    onEdit: (job) => setForm({ job }),
  });

  return (
    <Stack gap="4">
      {list.limited ? <TrialLimits area={area} used={list.usedApplications} /> : null}
      {started ? (
        <StartedNotice job={started.job} reportId={started.reportId} onDismiss={() => setStarted(null)} />
      ) : null}
      <QueryDataTable
        query={jobs}
        label={area.texts.label}
        columns={columns}
        rowActions={rowActions}
        rowKey={(j) => j.jobId}
        state={state}
        onStateChange={setState}
        emptyText={area.texts.empty}
        searchPlaceholder={t('backup:searchJobs')}
        toolbar={
          <>
            <FilterSelect
              label={t('backup:columns.application')}
              value={list.application}
              all={t('backup:allApplications')}
              options={area.applications.map((a) => ({ value: a, label: t(`backup:applications.${a}`) }))}
              onChange={list.setApplication}
            />
            <ExportButtons
              title={area.texts.label}
              columns={exportColumns}
              fetchPage={({ page, pageSize }) =>
                fetchJobsPage(api, tenantId, jobListQueryOf(area.type, { ...state, page, pageSize }, list.application))
              }
            />
            <Button
              size="sm"
              colorPalette="blue"
              onClick={() => setForm({})}
              title={list.allUsed ? t('apiErrors:trialBackupJobs') : undefined}
              {...serverAction}
              {...(list.allUsed && !serverAction.disabled ? { 'aria-describedby': TRIAL_LIMITS_ID } : {})}
              disabled={serverAction.disabled || list.allUsed || locations.data?.length === 0}
            >
              {area.texts.create}
            </Button>
          </>
        }
      />
      {locations.data?.length === 0 ? <StatusAlert status="error">{t('backup:form.noLocation')}</StatusAlert> : null}
      {form
        ? area.renderForm({
            ...(form.job ? { job: form.job } : {}),
            usedApplications: list.usedApplications,
            onClose: () => setForm(null),
          })
        : null}
      <JobActionDialog
        pending={pending}
        busy={act.isPending}
        details={pending ? area.actionDetails?.(pending) : undefined}
        onConfirm={(p) => act.mutate(p)}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}
