/**
 * The notifications scheduler of a process that runs jobs: a pass over the scheduled mails every
 * minute, on the context's clock, so each goes out within a minute of being due. Any number of
 * processes may run it on one database: each mail is claimed before it is sent (see service.ts).
 */
import type { AppContext } from '../../context.js';
import { sendDueNotifications } from './service.js';

/**
 * Runs {@link sendDueNotifications} every `intervalMs` (and once at start) until stopped; a pass
 * still running when the next is due is not doubled. `stop` waits for the pass under way.
 */
export function startNotificationScheduler(ctx: AppContext, intervalMs = 60_000) {
  let running: Promise<unknown> | undefined;
  const pass = () => {
    running ??= sendDueNotifications(ctx)
      .catch((err: unknown) => ctx.log.warn({ err }, 'notification pass failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
