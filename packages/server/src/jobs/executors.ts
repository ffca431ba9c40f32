import type { JobType } from '@compliance-portal/sdk';
import type { AppContext } from '../context.js';
import type { Executor } from './run-context.js';

/**
 * The executor of each job type. A type without one ends its runs failed with "No worker can run …",
 * never with fake success.
 */
export function executors(_ctx: AppContext): Partial<Record<JobType, Executor>> {
  return {};
}
