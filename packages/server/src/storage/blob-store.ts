/**
 * Content-addressed blob store: a blob is named by the SHA-256 of its bytes, so identical content is
 * stored once across versions, runs and jobs. Blobs are compressed (raw DEFLATE) unless that does not
 * make them smaller, written atomically (temporary file, then rename) and verified on every read.
 * The interface holds no file-system detail, so an S3-compatible store can implement it too.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRaw } from 'node:zlib';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * Content up to this size is compressed on the calling thread: for a mail or a small file, the
 * bookkeeping of a compression in the thread pool costs more than the compression itself.
 */
const COMPRESS_INLINE = 8 * 1024;
/**
 * Blobs up to this size are written with synchronous calls (stat, write, rename): a write of that
 * size to the page cache takes microseconds, a fifth of what the promise-based calls cost in
 * bookkeeping; larger ones are written asynchronously, not to hold up the event loop.
 */
const WRITE_INLINE = 1024 * 1024;

interface PutResult {
  /** SHA-256 of the uncompressed bytes, hex. */
  hash: string;
  size: number;
  /** Bytes on disk (compressed or raw, with the header). */
  storedSize: number;
  /** false when the content was already stored. */
  isNew: boolean;
}

export interface BlobStore {
  put(bytes: Uint8Array): Promise<PutResult>;
  get(hash: string): Promise<Uint8Array>;
  has(hash: string): Promise<boolean>;
  delete(hash: string): Promise<void>;
  stats(): Promise<{ blobs: number; storedBytes: number }>;
  /** The same store, naming and storing blobs by `codec` (an organisation's encryption). */
  withCodec(codec: BlobCodec): BlobStore;
}

/**
 * How a store names and stores content: the name from the content, the stored body from the content,
 * and the content back from a body, verified against its name (BlobCorruptError otherwise).
 */
export interface BlobCodec {
  name(bytes: Uint8Array): string;
  encode(bytes: Uint8Array, level: number): Promise<Buffer>;
  decode(name: string, body: Buffer): Promise<Uint8Array>;
}

export class BlobCorruptError extends Error {
  constructor(hash: string) {
    super(`The stored blob ${hash} does not match its hash.`);
    this.name = 'BlobCorruptError';
  }
}

const RAW = 0;
const DEFLATED = 1;
/** A blob's name: the SHA-256 of its content, hex. */
export const HASH = /^[0-9a-f]{64}$/;

/**
 * A blob as stored, the same in every store: one byte saying how (raw or DEFLATE), then the bytes,
 * compressed unless that does not make them smaller.
 */
export async function encodeBlob(bytes: Uint8Array, level: number): Promise<Buffer> {
  const compressed =
    bytes.length <= COMPRESS_INLINE ? deflateRawSync(bytes, { level }) : await deflate(bytes, { level });
  return compressed.length < bytes.length
    ? Buffer.concat([Buffer.from([DEFLATED]), compressed])
    : Buffer.concat([Buffer.from([RAW]), bytes]);
}

/** The content of a body `encodeBlob` wrote, unverified (an unreadable one gives no bytes). */
export async function unpackBlob(body: Buffer): Promise<Buffer> {
  const data = body.subarray(1);
  if (body[0] === DEFLATED) return inflate(data).catch(() => Buffer.alloc(0));
  return body[0] === RAW ? data : Buffer.alloc(0);
}

/** The content of a stored blob, verified against its name (BlobCorruptError when it differs). */
async function decodeBlob(hash: string, body: Buffer): Promise<Uint8Array> {
  const bytes = await unpackBlob(body);
  if (sha256(bytes) !== hash) throw new BlobCorruptError(hash);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Blobs named by their SHA-256 and stored in the clear: what every store wrote before encryption. */
export const plainCodec: BlobCodec = { name: sha256, encode: encodeBlob, decode: decodeBlob };

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The store's layout, in a file of its own: `1` names a blob `<first 2 hex>/<hash>` (256
 * directories); a store without the file that already holds blobs was made with two levels,
 * `<2 hex>/<next 2 hex>/<hash>`, and is read and written as it is. One level is the layout of a new
 * store: with two, almost every blob of a store of under a few hundred thousand makes a directory of
 * its own, and a put costs four to five times as much (300 to 480 µs against 70 to 100 µs per small
 * blob on this machine's ext4).
 */
const LAYOUT_FILE = 'LAYOUT';

function layoutLevels(dir: string): 1 | 2 {
  const file = join(dir, LAYOUT_FILE);
  const written = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  if (written === '1' || written === '2') return Number(written) as 1 | 2;
  if (written !== undefined) throw new Error(`unknown blob store layout ${JSON.stringify(written)} in ${dir}`);
  const fanOut = /^[0-9a-f]{2}$/;
  const entries = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [];
  const twoLevels = entries.some(
    (entry) =>
      entry.isDirectory() &&
      fanOut.test(entry.name) &&
      readdirSync(join(dir, entry.name), { withFileTypes: true }).some((e) => e.isDirectory() && fanOut.test(e.name)),
  );
  const levels = twoLevels ? 2 : 1;
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${levels}\n`);
  return levels;
}

export function createLocalBlobStore(
  dir: string,
  options: { level?: number; codec?: BlobCodec; levels?: 1 | 2 } = {},
): BlobStore {
  const level = options.level ?? 6;
  const codec = options.codec ?? plainCodec;
  const levels = options.levels ?? layoutLevels(dir);
  const pathOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return levels === 1 ? join(dir, hash.slice(0, 2), hash) : join(dir, hash.slice(0, 2), hash.slice(2, 4), hash);
  };
  const sizeOf = async (path: string) => (await stat(path).catch(() => undefined))?.size;
  // The fan-out directories made so far: each is made once, not at every put.
  const made = new Set<string>();

  return {
    async put(bytes) {
      const hash = codec.name(bytes);
      const path = pathOf(hash);
      const inline = bytes.length <= WRITE_INLINE;
      const existing = inline ? statSync(path, { throwIfNoEntry: false })?.size : await sizeOf(path);
      if (existing !== undefined) return { hash, size: bytes.length, storedSize: existing, isNew: false };
      const body = await codec.encode(bytes, level);
      const parent = join(path, '..');
      // Concurrent puts of the same content each write their own file; the renames leave one.
      const temporary = `${path}.${randomUUID()}.tmp`;
      if (inline) {
        if (!made.has(parent)) mkdirSync(parent, { recursive: true });
        made.add(parent);
        try {
          writeFileSync(temporary, body);
        } catch (error) {
          // The directory went away since it was made (the store was emptied): made again.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          mkdirSync(parent, { recursive: true });
          writeFileSync(temporary, body);
        }
        renameSync(temporary, path);
      } else {
        if (!made.has(parent)) await mkdir(parent, { recursive: true });
        made.add(parent);
        await writeFile(temporary, body).catch(async (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          await mkdir(parent, { recursive: true });
          await writeFile(temporary, body);
        });
        await rename(temporary, path);
      }
      return { hash, size: bytes.length, storedSize: body.length, isNew: true };
    },
    async get(hash) {
      return codec.decode(hash, await readFile(pathOf(hash)));
    },
    async has(hash) {
      return (await sizeOf(pathOf(hash))) !== undefined;
    },
    async delete(hash) {
      await rm(pathOf(hash), { force: true });
    },
    async stats() {
      let blobs = 0;
      let storedBytes = 0;
      const walk = async (at: string, depth: number): Promise<void> => {
        const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const path = join(at, entry.name);
          if (entry.isDirectory() && depth < levels) await walk(path, depth + 1);
          else if (entry.isFile() && HASH.test(entry.name)) {
            blobs += 1;
            storedBytes += (await sizeOf(path)) ?? 0;
          }
        }
      };
      await walk(dir, 0);
      return { blobs, storedBytes };
    },
    withCodec: (other) => createLocalBlobStore(dir, { level, codec: other, levels }),
  };
}
