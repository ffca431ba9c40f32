/**
 * The archive's changes, each with the invalidation of what it touches: saving an archive or deletion
 * job and restoring archived mail (the tenant's jobs, runs and reports: the new run shows in the
 * monitor), granting and revoking proxy rights (who may read a mailbox). What the screen does besides
 * (a toast, closing a dialog) is handed to the job and proxy-right hooks and runs on the mutation
 * itself, so it happens even when the dialog was closed meanwhile; the restore's dialog hands its own
 * to `mutate`.
 */
import type {
  ConflictPolicy,
  Job,
  JobCreate,
  JobUpdate,
  PortalClient,
  ProxyRight,
  RestoreStarted,
} from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { archiveKeys } from './keys';

/** A failure is said where it was asked (the form, the dialog), not in the generic toast as well. */
const quiet = { disableToast: true } as const;

/** A job's fields as its form edits them: what a change sends, and a new job with its kind. */
type JobFields = JobUpdate & Pick<JobCreate, 'name' | 'sources'>;

/**
 * Changes `job`, or creates a job of `kind` when there is none; the tenant's jobs, runs and reports
 * are read again.
 */
function useSaveJob(
  api: PortalClient,
  tenantId: string,
  job: Job | undefined,
  kind: Pick<JobCreate, 'type' | 'application'>,
  onSaved: (saved: Job) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: JobFields) =>
      job
        ? api.apollo.jobs.update({ tenantId, jobId: job.jobId, body: fields }, quiet)
        : api.apollo.jobs.create({ tenantId, body: { ...fields, ...kind } }, quiet),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: archiveKeys.tenant(tenantId) });
      onSaved(saved);
    },
  });
}

/** Saves an Exchange (mailboxes and folders) or a Teams (teams and chats) archive job. */
export function useSaveArchiveJob(
  api: PortalClient,
  tenantId: string,
  job: Job | undefined,
  of: 'exchange' | 'teams',
  onSaved: (saved: Job) => void,
) {
  const type = of === 'teams' ? 'teamsArchive' : 'exchangeArchive';
  return useSaveJob(api, tenantId, job, { type, application: of }, onSaved);
}

/** Saves an archive deletion job of Exchange mailboxes. */
export function useSaveDeletionJob(
  api: PortalClient,
  tenantId: string,
  job: Job | undefined,
  onSaved: (saved: Job) => void,
) {
  return useSaveJob(api, tenantId, job, { type: 'archiveDeletion', application: 'exchange' }, onSaved);
}

/**
 * Gives these accounts, people or groups the right to read a mailbox's archive; the mailbox's holders
 * are read again. A principal that holds the right meanwhile is refused (409), said by `onError`.
 */
export function useGrantProxyRights(
  api: PortalClient,
  workerIp: string,
  on: { onSuccess: (granted: ProxyRight[]) => void; onError: (error: Error) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mailboxId, principalIds }: { mailboxId: string; principalIds: string[] }) =>
      api.legacy.proxyRights.grant({ body: { workerIp, mailboxId, principalIds } }),
    onSuccess: (granted) => {
      on.onSuccess(granted);
      void queryClient.invalidateQueries({ queryKey: archiveKeys.proxyRights(workerIp) });
    },
    onError: on.onError,
  });
}

/** Takes a proxy right back; the holders are read again. */
export function useRevokeProxyRight(api: PortalClient, workerIp: string, onRevoked: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (right: ProxyRight) => api.legacy.proxyRights.revoke({ query: { workerIp, rightId: right.rightId } }),
    onSuccess: () => {
      onRevoked();
      void queryClient.invalidateQueries({ queryKey: archiveKeys.proxyRights(workerIp) });
    },
  });
}

export interface RestoreArchivedMail {
  mailboxId: string;
  messageIds: string[];
  /** Another mailbox; absent: the original one. */
  targetMailbox?: string;
  targetFolder: string;
}

/**
 * Restores archived mails of one mailbox, as a restore job: the tenant's jobs, runs and reports
 * change (the new run shows in the monitor). A refusal is said in the dialog, not in a toast.
 */
export function useRestoreArchivedMail(api: PortalClient, tenantId: string, workerIp: string) {
  const queryClient = useQueryClient();
  return useMutation<RestoreStarted, unknown, RestoreArchivedMail>({
    mutationFn: (input) =>
      api.legacy.email.restore(
        {
          body: {
            workerIp,
            mailboxId: input.mailboxId,
            messageIds: input.messageIds,
            ...(input.targetMailbox ? { targetMailbox: input.targetMailbox } : {}),
            targetFolder: input.targetFolder,
          },
        },
        quiet,
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: archiveKeys.tenant(tenantId) });
    },
  });
}

export interface RestoreMailboxItems {
  /** The job's name, as the job lists and the monitor show it. */
  name: string;
  mailboxId: string;
  /** The archive job that kept the items. */
  sourceJobId: string;
  /** The items in the restore's shared formats: `event:{id}`, `contact:{id}`, `task:{id}`. */
  nodeIds: string[];
  /** Another mailbox; absent: the original one. */
  targetMailbox?: string;
  conflictPolicy: ConflictPolicy;
}

/**
 * Restores archived calendar events, contacts or tasks of one mailbox as a restore job of the archive
 * job that kept them, from what is archived now: the tenant's jobs, runs and reports change (the new
 * run shows in the monitor). A refusal is said in the dialog, not in a toast.
 */
export function useRestoreMailboxItems(api: PortalClient, tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation<Job, unknown, RestoreMailboxItems>({
    mutationFn: (input) =>
      api.apollo.jobs.create(
        {
          tenantId,
          body: {
            name: input.name.slice(0, 120),
            type: 'restore',
            application: 'exchange',
            sources: [input.targetMailbox ?? input.mailboxId],
            restore: {
              sourceJobId: input.sourceJobId,
              snapshot: new Date().toISOString(),
              sourceId: input.mailboxId,
              nodeIds: input.nodeIds,
              target: input.targetMailbox ? 'other' : 'original',
              ...(input.targetMailbox ? { targetId: input.targetMailbox } : {}),
              conflictPolicy: input.conflictPolicy,
            },
          },
        },
        quiet,
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: archiveKeys.tenant(tenantId) });
    },
  });
}
