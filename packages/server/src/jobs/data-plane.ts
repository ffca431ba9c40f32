/**
 * The data plane of this process: each tenant's Microsoft Graph (its app registration, the secret
 * opened with PORTAL_SECRET_KEY), the blob store (see storage/stores.ts), and the archive.
 */
import type { AppContext } from '../context.js';
import type { TenantRecord } from '../db/records.js';
import type { TenantGraphConnection } from '../m365/graph-api.js';
import { createGraphApi } from '../m365/graph-client.js';
import {
  archivedSizes,
  archiveTeamsMessage,
  deleteArchivedBefore,
  insertArchiveRows,
  prepareMail,
  saveChat,
} from '../storage/archive.js';
import type { BlobStore } from '../storage/blob-store.js';
import { openBlobStore } from '../storage/stores.js';
import type { DataPlane } from './executors/plane.js';

const MICROSOFT_GRAPH = 'https://graph.microsoft.com/v1.0';
const MICROSOFT_LOGIN = 'https://login.microsoftonline.com';

export function graphConnectionFor(ctx: AppContext, tenant: TenantRecord): TenantGraphConnection {
  if (!tenant.clientSecretSealed) throw new Error('The tenant has no client secret; add it in the tenant settings.');
  let clientSecret: string;
  try {
    clientSecret = ctx.secrets.open(tenant.clientSecretSealed);
  } catch {
    throw new Error('The stored client secret cannot be read with the current PORTAL_SECRET_KEY.');
  }
  return {
    directoryId: tenant.tenantId,
    clientId: tenant.applicationId,
    clientSecret,
    graphBaseUrl: tenant.graphBaseUrl ?? MICROSOFT_GRAPH,
    authorityHost: tenant.authorityUrl ?? MICROSOFT_LOGIN,
  };
}

const shared = new WeakMap<AppContext, DataPlane>();

/**
 * The process's one data plane for `ctx`: every module and the job engine share its Graph clients,
 * so a tenant's token and its bound on requests in flight are one, not one per module.
 */
export function dataPlaneOf(ctx: AppContext): DataPlane {
  let plane = shared.get(ctx);
  if (!plane) {
    plane = createDataPlane(ctx);
    shared.set(ctx, plane);
  }
  return plane;
}

export function createDataPlane(ctx: AppContext, blobs: BlobStore = openBlobStore(ctx.config)): DataPlane {
  const clients = new Map<string, { key: string; api: ReturnType<typeof createGraphApi> }>();
  return {
    async graph(tenant, options) {
      const connection = graphConnectionFor(ctx, tenant);
      const [config] = await ctx.db.query<{ max_concurrency: number }>(
        'select max_concurrency from backup_config where tenant_id = $1',
        [tenant.tenantId],
      );
      const maxConcurrency = options?.maxConcurrency ?? config?.max_concurrency ?? 4;
      // One client per tenant and registration, so its token and its concurrency bound are shared.
      const interactive = options?.interactive === true;
      const key = JSON.stringify([connection, maxConcurrency]);
      const slot = `${tenant.tenantId}${interactive ? ':interactive' : ''}`;
      const cached = clients.get(slot);
      if (cached?.key === key) return cached.api;
      const api = createGraphApi(
        connection,
        interactive ? { maxConcurrency, maxRetries: 2, maxRetryDelayMs: 2000 } : { maxConcurrency },
      );
      clients.set(slot, { key, api });
      return api;
    },
    blobs,
    archive: {
      prepareMail: (item) => prepareMail(blobs, { ...item, now: ctx.now() }),
      saveMails: (items) => insertArchiveRows(ctx.db, items),
      archivedMails: (tenantId, source, externalIds) =>
        archivedSizes(ctx.db, { tenantId, kind: 'mail', source }, externalIds),
      teamsMessage: (item) => archiveTeamsMessage(ctx.db, blobs, { ...item, now: ctx.now() }),
      chat: (chat) => saveChat(ctx.db, { ...chat, now: ctx.now() }),
      deleteBefore: (tenantId, kind, before, sources, chats) =>
        deleteArchivedBefore(ctx.db, blobs, tenantId, { kind, before, sources, ...(chats ? { chats } : {}) }),
    },
  };
}
