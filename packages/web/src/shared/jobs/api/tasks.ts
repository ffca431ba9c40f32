import type { JobTask, PortalClient } from '@compliance-portal/sdk';

/** Start and stop take effect a few moments later: the task is asked about until it ends. */
export async function waitForTask(
  api: PortalClient,
  tenantId: string,
  task: JobTask,
  options: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<JobTask> {
  const interval = options.intervalMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let current = task;
  while ((current.status === 'pending' || current.status === 'running') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, interval));
    if (options.signal?.aborted) break;
    current = await api.apollo.jobs.status(
      { tenantId, jobId: task.jobId, taskId: task.taskId },
      { disableToast: true, ...(options.signal ? { signal: options.signal } : {}) },
    );
  }
  return current;
}
