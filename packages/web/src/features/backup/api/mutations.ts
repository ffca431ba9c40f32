/**
 * The backup area's changes, each with the invalidation of what it touches: saving a backup job (the
 * tenant's jobs, runs, reports and dashboards) and starting a restore (the tenant's jobs); and the
 * downloads of a restore's archive and of a backed-up list's csv, which change nothing. What the screen does besides (a toast,
 * closing a dialog) is handed in and runs on the mutation itself, so it happens even when the dialog
 * was closed meanwhile.
 */
import {
  type Application,
  type DiscoveryNode,
  type Job,
  type JobCreate,
  type JobUpdate,
  type PortalClient,
  saveDownload,
} from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';
import { backupKeys } from './keys';

/** A backup job's fields as the form edits them: what a change sends. */
type BackupJobFields = JobUpdate & Pick<JobCreate, 'name' | 'sources'>;

/**
 * Changes `job`, or creates a backup job of `application` when there is none. A failure is said in
 * the form, not in the generic toast as well.
 */
export function useSaveBackupJob(
  api: PortalClient,
  tenantId: string,
  job: Job | undefined,
  onSaved: (saved: Job) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ application, ...fields }: BackupJobFields & { application: Application }) => {
      if (job) return api.apollo.jobs.update({ tenantId, jobId: job.jobId, body: fields }, { disableToast: true });
      const body: JobCreate = { ...fields, type: 'backup', application };
      return api.apollo.jobs.create({ tenantId, body }, { disableToast: true });
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: backupKeys.tenant(tenantId) });
      onSaved(saved);
    },
  });
}

/** Creates a restore job; the tenant's jobs are read again (the restores a trial has left among them). */
export function useStartRestore(
  api: PortalClient,
  tenantId: string,
  on: { onSuccess: (created: Job) => void; onError: () => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: JobCreate) => api.apollo.jobs.create({ tenantId, body }),
    onSuccess: (created) => {
      on.onSuccess(created);
      void queryClient.invalidateQueries({ queryKey: backupKeys.jobs(tenantId) });
    },
    onError: on.onError,
  });
}

/** Saves the ZIP a restore to download prepared. */
export function useRestoreArchiveDownload(api: PortalClient, jobId: string) {
  return useMutation({
    mutationFn: async () => {
      const file = await api.legacy.jobs.downloadRestoreArchive({ body: { jobId } });
      saveBlob(file.blob, file.fileName ?? 'restore.zip');
    },
  });
}

/**
 * A backed-up SharePoint list's items as csv, as the chosen snapshot had them, saved under the name
 * the server gives it (the list's). Changes nothing read.
 */
export function useListCsvDownload(api: PortalClient, tenantId: string, job: Job, sourceId: string, snapshot: string) {
  return useMutation({
    mutationFn: async (list: DiscoveryNode) => {
      const file = await api.apollo.discovery.listCsv({
        tenantId,
        locationId: job.locationId ?? '',
        sourceId,
        listId: list.nodeId.slice('list:'.length),
        query: { snapshot },
      });
      saveDownload(file, `${list.name}.csv`);
    },
  });
}
