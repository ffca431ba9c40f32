/**
 * The blob store on Azure Blob Storage (see object-blob-store.ts): each blob a block blob of one
 * container, uploaded only if no blob of its name exists (If-None-Match: *).
 */
import { Readable } from 'node:stream';
import type { ContainerClient } from '@azure/storage-blob';
import type { BlobStore } from './blob-store.js';
import { createObjectBlobStore, type ObjectBlobStoreOptions, type ObjectBucket } from './object-blob-store.js';

/** The status of a failed storage call (RestError's statusCode), if it has one. */
const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

export function azureBucket(container: ContainerClient): ObjectBucket {
  return {
    async size(name) {
      try {
        return (await container.getBlockBlobClient(name).getProperties()).contentLength ?? 0;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async write(name, body) {
      try {
        await container.getBlockBlobClient(name).uploadData(body, {
          conditions: { ifNoneMatch: '*' },
          blobHTTPHeaders: { blobContentType: 'application/octet-stream' },
        });
        return true;
      } catch (error) {
        const status = statusOf(error);
        if (status === 409 || status === 412) return false;
        throw error;
      }
    },
    read: (name) => container.getBlockBlobClient(name).downloadToBuffer(),
    async remove(name) {
      await container.getBlockBlobClient(name).deleteIfExists();
    },
    async *list(prefix) {
      for await (const blob of container.listBlobsFlat({ prefix })) {
        yield { name: blob.name, size: blob.properties.contentLength ?? 0 };
      }
    },
    async upload(name, path) {
      await container.getBlockBlobClient(name).uploadFile(path, {
        blobHTTPHeaders: { blobContentType: 'application/octet-stream' },
      });
    },
    async download(name) {
      try {
        const answer = await container.getBlockBlobClient(name).download();
        const stream = answer.readableStreamBody;
        if (!stream) throw new Error(`Azure Blob Storage sent no body for ${name}.`);
        return { size: answer.contentLength ?? 0, stream: Readable.from(stream) };
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
  };
}

export function createAzureBlobStore(container: ContainerClient, options: ObjectBlobStoreOptions = {}): BlobStore {
  return createObjectBlobStore(azureBucket(container), options);
}
