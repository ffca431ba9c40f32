/**
 * The data plane of this process: each tenant's Microsoft Graph (its app registration, the secret
 * opened with PORTAL_SECRET_KEY), the blob stores (the server's own, see storage/stores.ts, and each
 * storage location's, see storage/location-stores.ts), and the archive.
 */
import {
  archiveTeamsMessage,
  deleteArchivedBefore,
  prepareMail,
  type StoreAt,
  saveChat,
} from '../archive-data/archive.js';
import { archivedSizes, insertArchiveRows } from '../archive-data/archive-repository.js';
import type { AppContext } from '../context.js';
import type { TenantRecord } from '../db/records.js';
import { TenantSecretError } from '../m365/diagnosis.js';
import type { TenantGraphConnection } from '../m365/graph-api.js';
import { createGraphApi } from '../m365/graph-client.js';
import type { BlobStore } from '../storage/blob-store.js';
import { organisationCodec, organisationKeys, readingCodec } from '../storage/encryption.js';
import { type LocationStore, openLocationStore, savedStoreAddress } from '../storage/location-stores.js';
import type { FileStore } from '../storage/object-blob-store.js';
import { openBlobStore, openFileStore } from '../storage/stores.js';
import type { DataPlane } from './executors/plane.js';

const MICROSOFT_GRAPH = 'https://graph.microsoft.com/v1.0';
const MICROSOFT_LOGIN = 'https://login.microsoftonline.com';

export function graphConnectionFor(ctx: AppContext, tenant: TenantRecord): TenantGraphConnection {
  if (!tenant.clientSecretSealed) throw new TenantSecretError('missing');
  let clientSecret: string;
  try {
    clientSecret = ctx.secrets.open(tenant.clientSecretSealed);
  } catch {
    throw new TenantSecretError('unreadable');
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

/**
 * How long a tenant's Graph client is taken as configured without looking again: its concurrency
 * bound (backup_config, which another process may change) is read again after this.
 */
const CLIENT_CHECK_MS = 10_000;

/** How long a location's site address and credentials are taken as read (another process may change them). */
const LOCATION_TTL_MS = 10_000;

/**
 * The data plane over `plain` (the server's own store: PORTAL_BLOB_STORE or the data directory):
 * each tenant's Graph client, shared by the planes of every storage location (`at`), and each
 * location's store, opened once per site address and credentials. Every store reads blobs of any
 * organisation (and those stored before encryption); the plane of a location and an organisation
 * writes them encrypted under that organisation's key (storage/encryption.ts).
 */
export function createDataPlane(
  ctx: AppContext,
  plain: BlobStore = openBlobStore(ctx.config),
  files: FileStore = openFileStore(ctx.config),
): DataPlane {
  const keys = organisationKeys(ctx.db, ctx.secrets, ctx.now);
  const reading = readingCodec(keys);
  const blobs = plain.withCodec(reading);
  const server: LocationStore = { blobs, files };
  const clients = new Map<
    string,
    { key: string; registration: string; checked: number; api: ReturnType<typeof createGraphApi> }
  >();
  const graph: DataPlane['graph'] = async (tenant, options) => {
    const interactive = options?.interactive === true;
    const slot = `${tenant.tenantId}${interactive ? ':interactive' : ''}`;
    // The registration as the tenant's record has it, its secret still sealed: a change is seen at
    // once; within CLIENT_CHECK_MS of the last look the client is taken without opening the secret or
    // reading the concurrency bound again (a live read per request would pay both each time).
    const registration = JSON.stringify([
      tenant.applicationId,
      tenant.clientSecretSealed,
      tenant.graphBaseUrl,
      tenant.authorityUrl,
      options?.maxConcurrency,
    ]);
    const cached = clients.get(slot);
    const now = Date.now();
    if (cached?.registration === registration && now - cached.checked < CLIENT_CHECK_MS) return cached.api;
    const connection = graphConnectionFor(ctx, tenant);
    const [config] = await ctx.db.query<{ max_concurrency: number }>(
      'select max_concurrency from backup_config where tenant_id = $1',
      [tenant.tenantId],
    );
    const maxConcurrency = options?.maxConcurrency ?? config?.max_concurrency ?? 4;
    // One client per tenant and registration, so its token and its concurrency bound are shared.
    const key = JSON.stringify([connection, maxConcurrency]);
    if (cached?.key === key) {
      Object.assign(cached, { registration, checked: now });
      return cached.api;
    }
    const api = createGraphApi(
      connection,
      interactive ? { maxConcurrency, maxRetries: 2, maxRetryDelayMs: 2000 } : { maxConcurrency },
    );
    clients.set(slot, { key, registration, checked: now, api });
    return api;
  };

  const stores = new Map<string, LocationStore>();
  const locations = new Map<string, { at: number; store: Promise<LocationStore> }>();
  const openStore = async (locationId: string): Promise<LocationStore> => {
    const [row] = await ctx.db.query<{
      site_address: string;
      access_key_id: string | null;
      secret_sealed: string | null;
    }>('select site_address, access_key_id, secret_sealed from locations where location_id = $1', [locationId]);
    // A location that is gone holds nothing (it cannot be removed while it holds data).
    if (!row) return server;
    const key = JSON.stringify([row.site_address, row.access_key_id, row.secret_sealed]);
    let store = stores.get(key);
    if (!store) {
      let secret: string | null = null;
      if (row.secret_sealed) {
        try {
          secret = ctx.secrets.open(row.secret_sealed);
        } catch {
          throw new Error("The storage location's secret cannot be read with the current PORTAL_SECRET_KEY.");
        }
      }
      const opened = openLocationStore(
        savedStoreAddress(row.site_address),
        { accessKeyId: row.access_key_id, secret },
        server,
      );
      store = opened === server ? server : { ...opened, blobs: opened.blobs.withCodec(reading) };
      stores.set(key, store);
    }
    return store;
  };
  const locationStore = async (locationId: string | null): Promise<LocationStore> => {
    if (!locationId) return server;
    const now = Date.now();
    let entry = locations.get(locationId);
    if (!entry || now - entry.at > LOCATION_TTL_MS) {
      entry = { at: now, store: openStore(locationId) };
      locations.set(locationId, entry);
      entry.store.catch(() => locations.delete(locationId));
    }
    return entry.store;
  };
  const storeAt: StoreAt = async (locationId) => (await locationStore(locationId)).blobs;
  /** A location's store writing as the organisation, one per store and organisation. */
  const writers = new WeakMap<BlobStore, Map<string, BlobStore>>();
  const writerAt = async (locationId: string | null, organisationId: string) => {
    const store = await storeAt(locationId);
    let byOrganisation = writers.get(store);
    if (!byOrganisation) {
      byOrganisation = new Map();
      writers.set(store, byOrganisation);
    }
    let writer = byOrganisation.get(organisationId);
    if (!writer) {
      writer = store.withCodec(organisationCodec(await keys.ensure(organisationId), keys));
      byOrganisation.set(organisationId, writer);
    }
    return writer;
  };

  const planeOf = (store: BlobStore, locationId: string | null): DataPlane => ({
    graph,
    blobs: store,
    storeAt,
    filesAt: async (id) => (await locationStore(id)).files,
    keys,
    at: async (id, organisationId) =>
      planeOf(organisationId ? await writerAt(id, organisationId) : await storeAt(id), id),
    archive: {
      prepareMail: (item) => prepareMail(store, { ...item, locationId, now: ctx.now() }),
      saveMails: (items) => insertArchiveRows(ctx.db, items),
      archivedMails: (tenantId, source, externalIds) =>
        archivedSizes(ctx.db, { tenantId, kind: 'mail', source }, externalIds),
      teamsMessage: (item) => archiveTeamsMessage(ctx.db, store, { ...item, locationId, now: ctx.now() }),
      chat: (chat) => saveChat(ctx.db, { ...chat, now: ctx.now() }),
      deleteBefore: (tenantId, kind, before, sources, chats, runId) =>
        deleteArchivedBefore(ctx.db, storeAt, tenantId, { kind, before, sources, chats, runId, now: ctx.now() }),
    },
  });
  return planeOf(blobs, null);
}
