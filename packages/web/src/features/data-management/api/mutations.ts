/**
 * Data management's changes, each with the invalidation of what it touches: a new price per GB, a
 * saved clean-up job and a clean-up started from the file manager change the tenant's jobs, runs and
 * dashboards (`dataManagementKeys.tenant`); the preview of a clean-up changes nothing. What the screen
 * does besides (a toast, closing a dialog) is handed in and runs on the mutation itself, so it happens
 * even when the dialog was closed meanwhile.
 */
import type {
  CleanupPreview,
  CleanupPreviewRequest,
  DataManagementApplication,
  Job,
  JobCreate,
  JobUpdate,
  PortalClient,
} from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataManagementKeys } from './keys';

/** A failure is said where it was asked, not in the generic toast as well. */
const quiet = { disableToast: true } as const;

/** Reads everything of the tenant again once a change is made. */
function useRefreshTenant(tenantId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: dataManagementKeys.tenant(tenantId) });
}

/** Saves the price per GB and month the savings are counted at. */
export function useSavePrice(api: PortalClient, tenantId: string, onSaved: () => void) {
  const refresh = useRefreshTenant(tenantId);
  return useMutation({
    mutationFn: (pricePerGbMonth: number) =>
      api.apollo.configuration.updateBackupConfig({ body: { tenantId, pricePerGbMonth } }),
    onSuccess: () => {
      refresh();
      onSaved();
    },
  });
}

/** A clean-up job's fields as its form edits them: what a change sends. */
type CleanupJobFields = JobUpdate & Pick<JobCreate, 'name' | 'sources'>;

/** Changes `job`, or creates a clean-up job of `application`'s files when there is none. */
export function useSaveCleanupJob(
  api: PortalClient,
  tenantId: string,
  job: Job | undefined,
  onSaved: (saved: Job) => void,
) {
  const refresh = useRefreshTenant(tenantId);
  return useMutation({
    mutationFn: ({ application, ...fields }: CleanupJobFields & { application: DataManagementApplication }) =>
      job
        ? api.apollo.jobs.update({ tenantId, jobId: job.jobId, body: fields }, quiet)
        : api.apollo.jobs.create({ tenantId, body: { ...fields, type: 'versionCleanup', application } }, quiet),
    onSuccess: (saved) => {
      refresh();
      onSaved(saved);
    },
  });
}

/** What cleaning up chosen files and folders would remove and free; a failure is said with its cause. */
export function usePreviewCleanup(api: PortalClient, tenantId: string, onPreview: (preview: CleanupPreview) => void) {
  return useMutation({
    mutationFn: (body: CleanupPreviewRequest) => api.apollo.dataManagement.preview({ tenantId, body }, quiet),
    onSuccess: onPreview,
  });
}

/** Starts the clean-up of chosen files and folders, as a job run once. */
export function useStartCleanup(api: PortalClient, tenantId: string, onStarted: (job: Job) => void) {
  const refresh = useRefreshTenant(tenantId);
  return useMutation({
    mutationFn: (body: JobCreate) => api.apollo.jobs.create({ tenantId, body }),
    onSuccess: (job) => {
      onStarted(job);
      refresh();
    },
  });
}
