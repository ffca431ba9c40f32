/**
 * The store a storage location's site address selects, and the one a job writes to:
 * - `https://<account>.blob.core.windows.net/<container>[/<prefix>]` (a SAS may follow), or for an
 *   emulator or Azure Stack `azure+http(s)://<host>:<port>/<account>/<container>[/<prefix>]`: Azure
 *   Blob Storage, signed with the location's account key when it has one;
 * - `s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>]`: S3, or an S3-compatible service at
 *   `endpoint`, signed with the location's access key ID and secret (never the server's own identity);
 * - anything else (a SharePoint site, as the portal's locations always had): the server's own store
 *   (PORTAL_BLOB_STORE or the data directory).
 * A location's credentials are sealed with PORTAL_SECRET_KEY like a tenant's client secret. A store is
 * tested before a location is saved: a probe object written, read back and deleted.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ErrorCode } from '@compliance-portal/sdk';
import { azureBucket } from './azure-blob-store.js';
import type { BlobStore } from './blob-store.js';
import {
  createObjectBlobStore,
  createObjectFileStore,
  type FileStore,
  type ObjectBucket,
} from './object-blob-store.js';
import { s3Bucket, s3Client, s3StatusOf } from './s3-blob-store.js';
import { azureContainer } from './stores.js';

export type StoreAddress =
  | { kind: 'server' }
  | { kind: 'azureBlob'; containerUrl: string; prefix: string }
  | { kind: 's3'; bucket: string; prefix: string; endpoint?: string; region?: string };

export interface StoreCredentials {
  accessKeyId?: string | null;
  secret?: string | null;
}

/** Why a site address names no store it can use; the text says what to write instead. */
export class StoreAddressError extends Error {}

const AZURE_HOST = /^([a-z0-9]{3,24})\.blob\.core\.windows\.net$/i;
/** Azure's rule for a container's name. */
const CONTAINER = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}$/;
/** S3's rule for a bucket's name (general purpose buckets). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** A prefix ends with a slash, so `a` and `ab` keep apart; none is ''. */
const prefixOf = (segments: readonly string[]) => (segments.length > 0 ? `${segments.join('/')}/` : '');

/** The store `siteAddress` names (see above); StoreAddressError when it names one wrongly. */
export function storeAddress(siteAddress: string): StoreAddress {
  let url: URL;
  try {
    url = new URL(siteAddress.trim());
  } catch {
    return { kind: 'server' };
  }
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (url.protocol === 's3:') {
    const bucket = url.hostname;
    if (!BUCKET.test(bucket)) throw new StoreAddressError('An S3 address names its bucket: s3://<bucket>[/<prefix>].');
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    if (endpoint !== undefined && !/^https?:\/\/[^/]+\/?$/.test(endpoint)) {
      throw new StoreAddressError('An S3 endpoint is an http or https address without a path.');
    }
    const region = url.searchParams.get('region') ?? undefined;
    return {
      kind: 's3',
      bucket,
      prefix: prefixOf(segments),
      ...(endpoint ? { endpoint: endpoint.replace(/\/$/, '') } : {}),
      ...(region ? { region } : {}),
    };
  }
  const emulator = /^azure\+(https?):$/.exec(url.protocol);
  const azureHost = url.protocol === 'https:' && AZURE_HOST.test(url.hostname);
  if (!emulator && !azureHost) return { kind: 'server' };
  // An emulator's path begins with the account.
  const [account, container, ...rest] = emulator ? segments : ['', ...segments];
  if (emulator && !account)
    throw new StoreAddressError('An emulator address names its account: azure+http://<host>/<account>/<container>.');
  if (!container || !CONTAINER.test(container)) {
    throw new StoreAddressError(
      'An Azure Blob Storage address names its container (3 to 63 lowercase letters, digits and hyphens).',
    );
  }
  const origin = emulator ? `${emulator[1]}://${url.host}/${account}` : `https://${url.host}`;
  return { kind: 'azureBlob', containerUrl: `${origin}/${container}${url.search}`, prefix: prefixOf(rest) };
}

/**
 * The store of an address saved before the rules above (or written to the database by hand): one it
 * names wrongly has always been kept in the server's own store.
 */
export function savedStoreAddress(siteAddress: string): StoreAddress {
  try {
    return storeAddress(siteAddress);
  } catch (error) {
    if (error instanceof StoreAddressError) return { kind: 'server' };
    throw error;
  }
}

/**
 * What identifies the store an address selects: two addresses with the same identity reach the same
 * data (a SAS or a region does not change it).
 */
export function storeIdentity(address: StoreAddress): string {
  switch (address.kind) {
    case 'server':
      return 'server';
    case 'azureBlob':
      return `azure ${address.containerUrl.split('?')[0]}/${address.prefix}`;
    case 's3':
      return `s3 ${address.endpoint ?? 'aws'}/${address.bucket}/${address.prefix}`;
  }
}

const withoutUserInfo = (url: string) => {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/$/, '');
};

/**
 * Where an object store's bytes go, for people: the container's or bucket's address with the prefix,
 * an S3 endpoint and region; never a SAS or any other part of the address's query that signs requests.
 */
export function storeLocationText(address: Exclude<StoreAddress, { kind: 'server' }>): string {
  if (address.kind === 'azureBlob') return `${address.containerUrl.split('?')[0]}/${address.prefix}`;
  const at = [address.endpoint && withoutUserInfo(address.endpoint), address.region].filter(Boolean).join(', ');
  return `s3://${address.bucket}/${address.prefix}${at ? ` (${at})` : ''}`;
}

/** What an object store needs besides its address; StoreAddressError when something is missing. */
export function checkCredentials(address: StoreAddress, credentials: StoreCredentials): void {
  if (address.kind === 's3' && !(credentials.accessKeyId && credentials.secret)) {
    throw new StoreAddressError('An S3 location needs an access key ID and a secret access key.');
  }
}

function bucketOf(address: Exclude<StoreAddress, { kind: 'server' }>, credentials: StoreCredentials): ObjectBucket {
  if (address.kind === 'azureBlob')
    return azureBucket(azureContainer(address.containerUrl, credentials.secret ?? undefined));
  return s3Bucket(s3Client(s3Location(address, credentials)), address.bucket);
}

const s3Location = (address: Extract<StoreAddress, { kind: 's3' }>, credentials: StoreCredentials) => ({
  bucket: address.bucket,
  ...(address.endpoint ? { endpoint: address.endpoint } : {}),
  ...(address.region ? { region: address.region } : {}),
  accessKeyId: credentials.accessKeyId ?? '',
  secretAccessKey: credentials.secret ?? '',
});

/** A store's blobs, and its files (restore downloads) beside them. */
export interface LocationStore {
  blobs: BlobStore;
  files: FileStore;
}

/** The store of an address: `server` for the server's own. */
export function openLocationStore(
  address: StoreAddress,
  credentials: StoreCredentials,
  server: LocationStore,
): LocationStore {
  if (address.kind === 'server') return server;
  const bucket = bucketOf(address, credentials);
  return {
    blobs: createObjectBlobStore(bucket, { prefix: address.prefix }),
    files: createObjectFileStore(bucket, address.prefix),
  };
}

/** A store's test failed: `code` says why in the SDK's words, `reason` in the service's. */
export class StoreProbeError extends Error {
  constructor(
    readonly code: Extract<ErrorCode, `store${string}`>,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The reason of a failed call, sorted by what the person saving the location can do about it. */
function probeFailure(error: unknown): StoreProbeError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    statusCode?: number;
    code?: string;
    name?: string;
    message?: string;
  };
  const status = typeof e.statusCode === 'number' ? e.statusCode : s3StatusOf(error);
  const message = e.message ?? String(error);
  if (status === 401 || status === 403) return new StoreProbeError('storeCredentialsRefused', message);
  if (status === 404) return new StoreProbeError('storeNotFound', message);
  if (
    status === undefined &&
    ((e.code && NETWORK_CODES.has(e.code)) ||
      e.name === 'TimeoutError' ||
      /ECONNREFUSED|ENOTFOUND|timed? ?out/i.test(message))
  ) {
    return new StoreProbeError('storeUnreachable', message);
  }
  return new StoreProbeError('storeProbeFailed', status ? `${status} ${message}` : message);
}

/**
 * Writes, reads back and deletes a probe object where the address's blobs go; StoreProbeError naming
 * why it failed. The server's own store is not tested (it is the server's to keep working).
 */
export async function probeStore(address: StoreAddress, credentials: StoreCredentials): Promise<void> {
  if (address.kind === 'server') return;
  const bucket = bucketOf(address, credentials);
  const name = `${address.prefix}portal-probe-${randomUUID()}`;
  const body = randomBytes(64);
  try {
    await bucket.write(name, body);
    const back = await bucket.read(name);
    if (!back.equals(body))
      throw new StoreProbeError('storeProbeFailed', 'the object read back differs from the one written');
    await bucket.remove(name);
    if ((await bucket.size(name)) !== undefined) {
      throw new StoreProbeError('storeProbeFailed', 'the object is still there after it was deleted');
    }
  } catch (error) {
    throw error instanceof StoreProbeError ? error : probeFailure(error);
  }
}
