/**
 * The blob store on an object store (Azure Blob Storage, S3): each blob one object of a container or
 * bucket, named by the SHA-256 of its content under an optional prefix, stored as the local store
 * stores it (one byte saying raw or DEFLATE, then the bytes) and verified on every read. A put asks
 * first whether the content is there (no upload of what is stored), then writes only if no object of
 * that name exists yet where the service can say so, so two puts of the same content at once store it
 * once. The services differ only in the five calls of `ObjectBucket`.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { type BlobCodec, type BlobStore, HASH, plainCodec } from './blob-store.js';

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
  /** Writes the local file at `path` as an object, streamed (a restore's ZIP may be gigabytes). */
  upload(name: string, path: string): Promise<void>;
  /** An object as a stream with its size; undefined when there is none. */
  download(name: string): Promise<{ size: number; stream: Readable } | undefined>;
}

/**
 * Files kept for a while, such as restore downloads: written once from a local file, read as a
 * stream by whichever process serves the download.
 */
export interface FileStore {
  /** Keeps the local file at `path` as `name`; the local file is gone afterwards. */
  keep(name: string, path: string): Promise<void>;
  /** A kept file as a stream with its size; undefined when there is none. */
  open(name: string): Promise<{ size: number; stream: Readable } | undefined>;
  remove(name: string): Promise<void>;
}

/** Files as objects named `<prefix>files/<name>`, beside the store's blobs. */
export function createObjectFileStore(bucket: ObjectBucket, prefix = ''): FileStore {
  const nameOf = (name: string) => {
    if (!/^[\w.-]+(\/[\w.-]+)*$/.test(name) || name.split('/').includes('..'))
      throw new Error(`not a file name: ${name}`);
    return `${prefix}files/${name}`;
  };
  return {
    async keep(name, path) {
      await bucket.upload(nameOf(name), path);
      await rm(path, { force: true });
    },
    open: (name) => bucket.download(nameOf(name)),
    remove: (name) => bucket.remove(nameOf(name)),
  };
}

/** Files in a local directory (the server's own store without PORTAL_BLOB_STORE). */
export function createLocalFileStore(dir: string): FileStore {
  const pathOf = (name: string) => {
    if (!/^[\w.-]+(\/[\w.-]+)*$/.test(name) || name.split('/').includes('..'))
      throw new Error(`not a file name: ${name}`);
    return join(dir, name);
  };
  return {
    async keep(name, path) {
      const target = pathOf(name);
      if (target === path) return;
      await mkdir(dirname(target), { recursive: true });
      await rename(path, target);
    },
    async open(name) {
      const path = pathOf(name);
      const size = (await stat(path).catch(() => undefined))?.size;
      return size === undefined ? undefined : { size, stream: createReadStream(path) };
    },
    remove: (name) => rm(pathOf(name), { force: true }),
  };
}

export interface ObjectBlobStoreOptions {
  /** Names blobs `<prefix><hash>`: several stores share a container apart. */
  prefix?: string;
  /** DEFLATE level (6 by default, as the local store). */
  level?: number;
  /** How blobs are named and stored (SHA-256 in the clear by default). */
  codec?: BlobCodec;
}

export function createObjectBlobStore(bucket: ObjectBucket, options: ObjectBlobStoreOptions = {}): BlobStore {
  const level = options.level ?? 6;
  const prefix = options.prefix ?? '';
  const codec = options.codec ?? plainCodec;
  const nameOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return `${prefix}${hash}`;
  };
  return {
    async put(bytes) {
      const hash = codec.name(bytes);
      const name = nameOf(hash);
      const existing = await bucket.size(name);
      if (existing !== undefined) return { hash, size: bytes.length, storedSize: existing, isNew: false };
      const body = await codec.encode(bytes, level);
      if (!(await bucket.write(name, body))) {
        // Stored by another put of the same content meanwhile: the same bytes are there.
        return { hash, size: bytes.length, storedSize: (await bucket.size(name)) ?? body.length, isNew: false };
      }
      return { hash, size: bytes.length, storedSize: body.length, isNew: true };
    },
    async get(hash) {
      return codec.decode(hash, await bucket.read(nameOf(hash)));
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
    withCodec: (other) => createObjectBlobStore(bucket, { ...options, codec: other }),
  };
}
