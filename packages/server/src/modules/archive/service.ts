/** The email archive's restores and downloads of archived mail, and the worker's setup as the legacy screens see it. */
import type { FullRestoreDownloadRequest, RestoreEmailRequest } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import type { StoreAt } from '../../archive-data/archive.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { RESTORED_FOLDER } from '../../jobs/executors/mail-restore.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { counted } from '../../words.js';
import { requireMailboxRead } from '../ediscovery/access.js';
import { latestRunId } from '../jobs/repository.js';
import { createJob } from '../jobs/service.js';
import type { WorkerRecord } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';
import { downloadMail, type MailDownload } from './downloads.js';
import {
  archivedMailFolders,
  archivingJobOfMails,
  countDiscoveredTeamsAndMailboxes,
  mailboxName,
} from './repository.js';

/** The version this server reports for its (built-in) archive worker. */
export const WORKER_VERSION = '0.1.0';

/** A folder path as typed: single slashes, none at either end. */
const normaliseFolder = (path: string | undefined) =>
  (path ?? '')
    .split('/')
    .map((p) => p.trim())
    .filter(Boolean)
    .join('/');

/**
 * Restores archived mails of a mailbox, into it or (with eDiscovery's right to read the mailbox) into
 * another one, as a restore job of the backup job that archived them; 404 when none of the mails is archived.
 */
export async function restoreArchivedMail(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: Actor,
  input: Omit<RestoreEmailRequest, 'workerIp'>,
): Promise<{ jobId: string; reportId: string }> {
  const target = input.targetMailbox && input.targetMailbox !== input.mailboxId ? input.targetMailbox : undefined;
  // Into another mailbox, the mails are read out of theirs: eDiscovery's right to read it is needed.
  if (target) await requireMailboxRead(ctx, connect, tenant, actor, input.mailboxId, 'archive.restore');
  const ids = input.messageIds.filter((id) => /^\d+$/.test(id));
  const sourceJobId = await archivingJobOfMails(ctx.db, tenant.tenantId, input.mailboxId, ids);
  if (!sourceJobId) throw notFound('Exchange Backup Job not found.');
  const job = await createJob(ctx, actor, tenant, {
    // The job lists and the monitor say whose mail it is by name.
    name: `Restore ${counted(ids.length, 'mail')} of ${(await mailboxName(ctx.db, tenant.tenantId, input.mailboxId)) ?? input.mailboxId}`.slice(
      0,
      120,
    ),
    type: 'restore',
    application: 'exchange',
    sources: [target ?? input.mailboxId],
    folders: [normaliseFolder(input.targetFolder) || RESTORED_FOLDER],
    restore: {
      sourceJobId,
      snapshot: ctx.now().toISOString(),
      sourceId: input.mailboxId,
      nodeIds: ids,
      target: target ? 'other' : 'original',
      ...(target ? { targetId: target } : {}),
      conflictPolicy: 'keepBoth',
    },
  });
  return { jobId: job.jobId, reportId: (await latestRunId(ctx.db, job.jobId)) ?? '' };
}

/** Archived mail as a file, for a user with eDiscovery's right to read the mailbox; the download is audited. */
export async function downloadArchivedMail(
  ctx: AppContext,
  storeAt: StoreAt,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: Actor,
  input: Omit<FullRestoreDownloadRequest, 'workerIp'>,
): Promise<MailDownload> {
  await requireMailboxRead(ctx, connect, tenant, actor, input.mailboxId, 'archive.download');
  const file = await downloadMail(ctx, storeAt, tenant.tenantId, input);
  // Reading someone's mail out of the archive is on the record.
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'archive.download',
    target: input.mailboxId,
    outcome: 'success',
    details: { messages: input.messageIds?.length ?? 'all', fileName: file.fileName },
  });
  return file;
}

/** The worker's setup: its addresses, its active tenant's archived mail folders and what discovery found there. */
export async function workerSetup(ctx: AppContext, worker: WorkerRecord) {
  const tenantId = worker.stagingtenantId;
  const folders = tenantId ? await archivedMailFolders(ctx.db, tenantId) : [];
  const found = tenantId ? await countDiscoveredTeamsAndMailboxes(ctx.db, tenantId) : undefined;
  return {
    workerId: worker.workerId,
    workerIp: worker.workerIp,
    indexIp: worker.indexIp,
    folders,
    teamsConfigured: (found?.teams ?? 0) > 0,
    exchangeConfigured: (found?.mailboxes ?? 0) > 0,
  };
}
