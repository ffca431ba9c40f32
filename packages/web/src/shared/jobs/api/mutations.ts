/**
 * What a run's actions change, each with the invalidation of what it touches: stopping a run's job,
 * retrying a run, and fetching a restore's download (which changes nothing). A stop or retry reads
 * every job list, monitor and report of the tenant again (`jobKeys.tenant`), so the new or stopped run
 * shows at once.
 */
import type { JobRun, JobTask } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';
import { useApi } from '../../tenant';
import { waitForTask } from '../job-actions';
import { jobKeys } from './keys';

/** Refusals are said in the action's own words (the caller's onError), not in the generic toast as well. */
const quiet = { disableToast: true } as const;

/**
 * Stops the run's job (its schedule pauses until it is started again) and waits until the run
 * stopped; `onRequested` is told once the server took the request, when the lists are read again.
 */
export function useStopRun(tenantId: string, onRequested?: (run: JobRun) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) });
  return useMutation({
    mutationFn: async (run: JobRun): Promise<JobTask> => {
      const task = await api.apollo.jobs.stop({ tenantId, jobId: run.jobId }, quiet);
      onRequested?.(run);
      void refresh();
      return waitForTask(api, tenantId, task);
    },
    onSettled: refresh,
  });
}

/** Queues a retry of the run: its failed items where the job can, else the whole job. */
export function useRetryRun(tenantId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: JobRun) => api.apollo.monitoring.retry({ tenantId, reportId: run.reportId }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.tenant(tenantId) }),
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
