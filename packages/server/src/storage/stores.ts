/**
 * The server's own store, chosen by its configuration: an Azure Blob Storage container
 * (PORTAL_BLOB_STORE), shared by every process that names it, or the directory `blobs` in the data
 * directory (and the data directory for files).
 */
import { join } from 'node:path';
import {
  AnonymousCredential,
  ContainerClient,
  type StoragePipelineOptions,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import type { Config } from '../config.js';
import { azureBucket, createAzureBlobStore } from './azure-blob-store.js';
import { type BlobStore, createLocalBlobStore } from './blob-store.js';
import { createLocalFileStore, createObjectFileStore, type FileStore } from './object-blob-store.js';

/**
 * A call that fails is tried three times within about a second, each try given at most a minute: a
 * store that is away fails the item (the next run stores it), not the run held for minutes by the
 * SDK's default back-off (up to two minutes between tries).
 */
const STORE_CALLS: StoragePipelineOptions = {
  retryOptions: { maxTries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 1_000, tryTimeoutInMs: 60_000 },
};

/**
 * A container client for `url`, signed with the account's shared key when given (the account named
 * by the host, <account>.blob.core.windows.net, or, on an emulator's path-style address such as
 * Azurite's http://127.0.0.1:10000/<account>/<container>, by the first segment of the path), or by
 * the SAS the URL carries.
 */
export function azureContainer(url: string, accountKey: string | undefined): ContainerClient {
  if (!accountKey) return new ContainerClient(url, new AnonymousCredential(), STORE_CALLS);
  const parsed = new URL(url);
  const hostAccount = /^([a-z0-9]{3,24})\.blob\./i.exec(parsed.hostname)?.[1];
  const account = hostAccount ?? parsed.pathname.split('/').filter(Boolean)[0] ?? '';
  return new ContainerClient(url, new StorageSharedKeyCredential(account, accountKey), STORE_CALLS);
}

export function openBlobStore(config: Pick<Config, 'dataDir' | 'blobStore'>): BlobStore {
  if (config.blobStore) return createAzureBlobStore(azureContainer(config.blobStore.url, config.blobStore.accountKey));
  return createLocalBlobStore(join(config.dataDir, 'blobs'));
}

/**
 * The files (restore downloads) of the server's own store: objects `files/<name>` in the
 * PORTAL_BLOB_STORE container, or files in the data directory (`restores/<run>.zip`).
 */
export function openFileStore(config: Pick<Config, 'dataDir' | 'blobStore'>): FileStore {
  if (config.blobStore) {
    return createObjectFileStore(azureBucket(azureContainer(config.blobStore.url, config.blobStore.accountKey)));
  }
  return createLocalFileStore(config.dataDir);
}
