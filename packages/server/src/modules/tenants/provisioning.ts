import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { counted } from '../../words.js';
import type { User } from '../identity/users.js';
import {
  countLocations,
  createBackupConfig,
  disableScheduledJobs,
  findTenant,
  finishTask,
  insertTask,
  markProvisioningFailed,
  recordTaskStep,
  type TaskRow,
  type TenantRecord,
  updateTenant,
} from './repository.js';

export type TaskKind = TaskRow['kind'];

export function taskView(r: TaskRow) {
  return {
    taskId: r.task_id,
    tenantId: r.tenant_id,
    kind: r.kind,
    status: r.status,
    progress: r.progress,
    ...(r.message ? { message: r.message } : {}),
    started: new Date(r.started).toISOString(),
    finished: r.finished ? new Date(r.finished).toISOString() : null,
  };
}

/**
 * Provisioning prepares a tenant for jobs: its configuration is checked, its backup settings are
 * created and, with no location yet, it is marked as needing one. Deprovisioning stops its scheduled
 * jobs. Both run after the answer; the task's status endpoint reports progress until they end.
 */
export async function startTask(ctx: AppContext, user: User, tenant: TenantRecord, kind: TaskKind, ip: string) {
  const { tenantId } = tenant;
  const taskId = randomUUID();
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const task = await insertTask(tx, { taskId, tenantId, kind, started: now });
    await updateTenant(tx, tenantId, { provisioning: kind === 'provision' ? 'provisioning' : 'deprovisioning' }, now);
    await ctx.audit(
      {
        actorUserId: user.id,
        actorEmail: user.email,
        organisationId: tenant.organisationId,
        action: `tenant.${kind}`,
        target: tenantId,
        outcome: 'success',
        ip,
        details: { taskId },
      },
      tx,
    );
    return task;
  });
  setImmediate(() => {
    runTask(ctx, tenantId, taskId, kind).catch(async (error: unknown) => {
      ctx.log.error({ err: error, taskId }, 'provisioning task failed');
      // The task must end, or its tenant stays locked in provisioning or deprovisioning for good.
      await failTask(ctx, tenantId, taskId, kind).catch((again: unknown) =>
        ctx.log.error({ err: again, taskId }, 'provisioning task could not be marked as failed'),
      );
    });
  });
  if (!row) throw new Error('task insert returned nothing');
  return taskView(row);
}

async function step(ctx: AppContext, taskId: string, progress: number, message: string) {
  await recordTaskStep(ctx.db, taskId, progress, message);
}

async function finish(ctx: AppContext, taskId: string, status: 'succeeded' | 'failed', message: string) {
  await finishTask(ctx.db, taskId, status, message, ctx.now());
}

async function failTask(ctx: AppContext, tenantId: string, taskId: string, kind: TaskKind) {
  await markProvisioningFailed(ctx.db, tenantId, ctx.now());
  const what = kind === 'provision' ? 'Provisioning' : 'Deprovisioning';
  await finish(ctx, taskId, 'failed', `${what} failed: an unexpected error occurred; the server log has the details.`);
}

async function runTask(ctx: AppContext, tenantId: string, taskId: string, kind: TaskKind) {
  const tenant = await findTenant(ctx.db, tenantId);
  if (!tenant) return finish(ctx, taskId, 'failed', 'The tenant was removed.');
  if (kind === 'provision') {
    await step(ctx, taskId, 25, 'Checking the app registration');
    const problems: string[] = [];
    if (!tenant.clientSecretSealed) problems.push('no client secret is stored');
    else {
      try {
        ctx.secrets.open(tenant.clientSecretSealed);
      } catch {
        problems.push('the stored client secret cannot be read with the current PORTAL_SECRET_KEY');
      }
    }
    if (problems.length > 0) {
      await updateTenant(ctx.db, tenantId, { provisioning: 'failed' }, ctx.now());
      return finish(ctx, taskId, 'failed', `Provisioning failed: ${problems.join('; ')}.`);
    }
    await step(ctx, taskId, 60, 'Creating the backup settings');
    await createBackupConfig(ctx.db, tenantId);
    await updateTenant(ctx.db, tenantId, { provisioning: 'provisioned' }, ctx.now());
    const locations = await countLocations(ctx.db, tenantId);
    return finish(
      ctx,
      taskId,
      'succeeded',
      locations > 0 ? 'Provisioned.' : 'Provisioned. Add a storage location before creating jobs.',
    );
  }
  await step(ctx, taskId, 50, 'Stopping scheduled jobs');
  const stopped = await disableScheduledJobs(ctx.db, tenantId);
  await updateTenant(ctx.db, tenantId, { provisioning: 'notProvisioned' }, ctx.now());
  return finish(ctx, taskId, 'succeeded', `Deprovisioned; ${counted(stopped, 'scheduled job')} stopped.`);
}
