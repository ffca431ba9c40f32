import type { AppContext } from '../../context.js';

/**
 * Work done after the answer. A public request whose work differs for a real account (issuing a
 * code, mailing it, auditing it) hands that work here and answers at once, so a known and an
 * unknown address take the same time and the timing does not reveal accounts.
 *
 * One queue per app context, one task at a time, started on the next turn of the event loop (after
 * the answer is written). A failing task is logged with its name and the next one runs; a task
 * beyond `MAX_PENDING` waiting ones is refused with an error in the log. The queue lives in the
 * process: what is still waiting when the process ends is not sent.
 */
interface Task {
  name: string;
  run: () => Promise<void>;
}

interface Queue {
  pending: Task[];
  active: boolean;
  idle: (() => void)[];
}

const MAX_PENDING = 1000;
const queues = new WeakMap<AppContext, Queue>();

function queueOf(ctx: AppContext): Queue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = { pending: [], active: false, idle: [] };
    queues.set(ctx, queue);
  }
  return queue;
}

async function work(ctx: AppContext, queue: Queue) {
  for (let task = queue.pending.shift(); task; task = queue.pending.shift()) {
    try {
      await task.run();
    } catch (err) {
      ctx.log.error({ err, task: task.name }, 'background task failed');
    }
  }
  queue.active = false;
  for (const resolve of queue.idle.splice(0)) resolve();
}

/** Queues `run` to happen after the current request has been answered. */
export function runAfterResponse(ctx: AppContext, name: string, run: () => Promise<void>): void {
  const queue = queueOf(ctx);
  if (queue.pending.length >= MAX_PENDING) {
    ctx.log.error({ task: name }, 'background queue full: task refused');
    return;
  }
  queue.pending.push({ name, run });
  if (!queue.active) {
    queue.active = true;
    setImmediate(() => void work(ctx, queue));
  }
}

/** Resolves once every queued task (and any they queue) has run; for tests and shutdown. */
export function drainBackground(ctx: AppContext): Promise<void> {
  const queue = queues.get(ctx);
  if (!queue?.active) return Promise.resolve();
  return new Promise((resolve) => queue.idle.push(resolve));
}
