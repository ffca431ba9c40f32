/**
 * The blob store on Azure Blob Storage: each blob a block blob of one container, named by the SHA-256
 * of its content (under an optional prefix), stored as the local store stores it (one byte saying
 * raw or DEFLATE, then the bytes) and verified on every read. A put asks first whether the content is
 * there (a HEAD, no upload of what is stored), then uploads only if no blob of that name exists yet
 * (If-None-Match: *), so two puts of the same content at once store it once.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { type BlobStore, decodeBlob, encodeBlob, HASH, sha256 } from './blob-store.js';

/** The status of a failed storage call (RestError's statusCode), if it has one. */
const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

export interface AzureBlobStoreOptions {
  /** Names blobs `<prefix><hash>`: several stores share a container apart. */
  prefix?: string;
  /** DEFLATE level (6 by default, as the local store). */
  level?: number;
}

export function createAzureBlobStore(container: ContainerClient, options: AzureBlobStoreOptions = {}): BlobStore {
  const level = options.level ?? 6;
  const prefix = options.prefix ?? '';
  const blobOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return container.getBlockBlobClient(`${prefix}${hash}`);
  };
  /** The stored size of a blob, undefined when there is none. */
  const storedSize = async (hash: string) => {
    try {
      return (await blobOf(hash).getProperties()).contentLength ?? 0;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  };

  return {
    async put(bytes) {
      const hash = sha256(bytes);
      const existing = await storedSize(hash);
      if (existing !== undefined) return { hash, size: bytes.length, storedSize: existing, isNew: false };
      const body = await encodeBlob(bytes, level);
      try {
        await blobOf(hash).uploadData(body, {
          conditions: { ifNoneMatch: '*' },
          blobHTTPHeaders: { blobContentType: 'application/octet-stream' },
        });
      } catch (error) {
        // Stored by another put of the same content meanwhile: the same bytes are there.
        const status = statusOf(error);
        if (status === 409 || status === 412) {
          return { hash, size: bytes.length, storedSize: (await storedSize(hash)) ?? body.length, isNew: false };
        }
        throw error;
      }
      return { hash, size: bytes.length, storedSize: body.length, isNew: true };
    },
    async get(hash) {
      return decodeBlob(hash, await blobOf(hash).downloadToBuffer());
    },
    async has(hash) {
      return (await storedSize(hash)) !== undefined;
    },
    async delete(hash) {
      await blobOf(hash).deleteIfExists();
    },
    async stats() {
      let blobs = 0;
      let storedBytes = 0;
      for await (const blob of container.listBlobsFlat({ prefix })) {
        if (!HASH.test(blob.name.slice(prefix.length))) continue;
        blobs += 1;
        storedBytes += blob.properties.contentLength ?? 0;
      }
      return { blobs, storedBytes };
    },
  };
}
