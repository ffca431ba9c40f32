import type { GraphApi } from '../../m365/graph-api.js';
import type { TenantRecord } from '../../modules/tenants/repository.js';

/** The blob store as the executors use it (content-addressed, deduplicated). */
export interface Blobs {
  put(bytes: Uint8Array): Promise<{ hash: string; size: number; storedSize: number; isNew: boolean }>;
  get(hash: string): Promise<Uint8Array>;
}

/** What executors reach the outside world through: a tenant's Graph and the blob store. */
export interface DataPlane {
  graph(tenant: TenantRecord, options?: { maxConcurrency?: number }): Promise<GraphApi>;
  blobs: Blobs;
}
