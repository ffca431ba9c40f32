/**
 * The blob store on an object store (Azure Blob Storage, S3): each blob one object of a container or
 * bucket, named by the SHA-256 of its content under an optional prefix, stored as the local store
 * stores it (one byte saying raw or DEFLATE, then the bytes) and verified on every read. A put asks
 * first whether the content is there (no upload of what is stored), then writes only if no object of
 * that name exists yet where the service can say so, so two puts of the same content at once store it
 * once. The services differ only in the five calls of `ObjectBucket`.
 */
import { type BlobStore, decodeBlob, encodeBlob, HASH, sha256 } from './blob-store.js';

/** The calls a blob store makes of an object store. */
export interface ObjectBucket {
  /** The stored size of an object, undefined when there is none. */
  size(name: string): Promise<number | undefined>;
  /** Writes an object unless one of that name exists; false when one did (another writer's). */
  write(name: string, body: Buffer): Promise<boolean>;
  read(name: string): Promise<Buffer>;
  /** Deletes an object; an object that is not there is no error. */
  remove(name: string): Promise<void>;
  /** The objects whose names begin with `prefix`. */
  list(prefix: string): AsyncIterable<{ name: string; size: number }>;
}

export interface ObjectBlobStoreOptions {
  /** Names blobs `<prefix><hash>`: several stores share a container apart. */
  prefix?: string;
  /** DEFLATE level (6 by default, as the local store). */
  level?: number;
}

export function createObjectBlobStore(bucket: ObjectBucket, options: ObjectBlobStoreOptions = {}): BlobStore {
  const level = options.level ?? 6;
  const prefix = options.prefix ?? '';
  const nameOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return `${prefix}${hash}`;
  };
  return {
    async put(bytes) {
      const hash = sha256(bytes);
      const name = nameOf(hash);
      const existing = await bucket.size(name);
      if (existing !== undefined) return { hash, size: bytes.length, storedSize: existing, isNew: false };
      const body = await encodeBlob(bytes, level);
      if (!(await bucket.write(name, body))) {
        // Stored by another put of the same content meanwhile: the same bytes are there.
        return { hash, size: bytes.length, storedSize: (await bucket.size(name)) ?? body.length, isNew: false };
      }
      return { hash, size: bytes.length, storedSize: body.length, isNew: true };
    },
    async get(hash) {
      return decodeBlob(hash, await bucket.read(nameOf(hash)));
    },
    async has(hash) {
      return (await bucket.size(nameOf(hash))) !== undefined;
    },
    async delete(hash) {
      await bucket.remove(nameOf(hash));
    },
    async stats() {
      let blobs = 0;
      let storedBytes = 0;
      for await (const object of bucket.list(prefix)) {
        if (!HASH.test(object.name.slice(prefix.length))) continue;
        blobs += 1;
        storedBytes += object.size;
      }
      return { blobs, storedBytes };
    },
  };
}
