import type { StoredWorker } from './types';

/**
 * The tenant of a selected client ('' when none is selected). Apart from the React hooks of
 * shared/tenant.tsx, so that the worker layout's beforeLoad, which runs before any page, reads it
 * without bringing their components into the first script.
 */
export function tenantIdOf(worker: Pick<StoredWorker, 'tenant_id' | 'stagingtenant_id'> | null): string {
  return worker?.tenant_id ?? worker?.stagingtenant_id ?? '';
}
