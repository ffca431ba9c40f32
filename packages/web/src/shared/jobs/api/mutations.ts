/**
 * What the job lists' and a run's actions change, each with the invalidation of what it touches:
 * starting, stopping and removing a job, stopping a run's job, retrying a run, and fetching a restore's
 * download (which changes nothing). A start, stop, removal or retry reads every job list, monitor and
 * report of the tenant again (`jobKeys.tenant`), so the new or stopped run shows at once, and the
 * organisation's audit log, which records each of them; a removal also its licence, which counts jobs.
 */
import type { Job, JobRun, JobTask } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';
import { useOrganisationRefresh } from '../../api/organisation';
import { useApi } from '../../tenant';
import { jobKeys } from './keys';
import { waitForTask } from './tasks';

/** Refusals are said in the action's own words (the caller's onError), not in the generic toast as well. */
const quiet = { disableToast: true } as const;

export type JobAction = 'start' | 'stop' | 'remove';
/** A start, stop or removal of a job (waiting for its confirmation, or asked for). */
export interface PendingAction {
  job: Job;
  action: JobAction;
}

/** How a job's action ended: a start's or stop's task as it ended (or stood when the wait gave up). */
interface JobActionOutcome extends PendingAction {
  task: JobTask | null;
}

/** What the list hears of a job's action besides its end: said in its own words. */
interface JobActionEvents {
  /** The server took a start or stop: the lists are being read again, the run is queued or stopping. */
  onRequested: (request: PendingAction) => void;
  /** A start's run as the monitor lists it (undefined when it could not be read), to link to. */
  onRunQueued: (job: Job, run: JobRun | undefined) => void;
  onSuccess: (outcome: JobActionOutcome) => void;
  onError: (error: Error, request: PendingAction) => void;
}

/**
 * Starts, stops or removes a job. A start or stop is followed until its task ends (a minute at most);
 * the lists are read again as soon as the server took it, and again at its end.
 */
export function useJobAction(tenantId: string, on: JobActionEvents) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  const refresh = () => queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) });
  return useMutation({
    mutationFn: async (request: PendingAction): Promise<JobActionOutcome> => {
      const { job, action } = request;
      if (action === 'remove') {
        await api.apollo.jobs.delete({ tenantId, jobId: job.jobId }, quiet);
        return { job, action, task: null };
      }
      const task =
        action === 'start'
          ? await api.apollo.jobs.start({ tenantId, jobId: job.jobId }, quiet)
          : await api.apollo.jobs.stop({ tenantId, jobId: job.jobId }, quiet);
      // Seen at once, not once a worker took the run.
      on.onRequested(request);
      void refresh();
      void organisation.auditLog();
      if (action === 'start') {
        // The newest run first: a queued one has not started (nulls first).
        const newest = await api.apollo.monitoring
          .list({ tenantId, query: { jobId: job.jobId, sort: 'started', order: 'desc', pageSize: 1 } }, quiet)
          .catch(() => null);
        on.onRunQueued(job, newest?.items[0]);
      }
      return { job, action, task: await waitForTask(api, tenantId, task) };
    },
    onSuccess: (outcome) => {
      on.onSuccess(outcome);
      void refresh();
      // The licence counts the organisation's backup jobs and restores.
      if (outcome.action === 'remove') void organisation.licence();
    },
    onError: (error, request) => on.onError(error, request),
    onSettled: organisation.auditLog,
  });
}

/**
 * Stops the run's job (its schedule pauses until it is started again) and waits until the run
 * stopped; `onRequested` is told once the server took the request, when the lists are read again.
 */
export function useStopRun(tenantId: string, onRequested?: (run: JobRun) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  const refresh = () => queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) });
  return useMutation({
    mutationFn: async (run: JobRun): Promise<JobTask> => {
      const task = await api.apollo.jobs.stop({ tenantId, jobId: run.jobId }, quiet);
      onRequested?.(run);
      void refresh();
      void organisation.auditLog();
      return waitForTask(api, tenantId, task);
    },
    onSettled: () => Promise.all([refresh(), organisation.auditLog()]),
  });
}

/** Queues a retry of the run: its failed items where the job can, else the whole job. */
export function useRetryRun(tenantId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (run: JobRun) => api.apollo.monitoring.retry({ tenantId, reportId: run.reportId }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) }),
    onSettled: organisation.auditLog,
  });
}

/** Saves the ZIP a restore as a download prepared (its job's latest finished run's). */
export function useRunDownload() {
  const api = useApi();
  return useMutation({
    mutationFn: async (run: JobRun) => {
      const file = await api.legacy.jobs.downloadRestoreArchive({ body: { jobId: run.jobId } }, quiet);
      saveBlob(file.blob, file.fileName ?? 'restore.zip');
    },
  });
}
