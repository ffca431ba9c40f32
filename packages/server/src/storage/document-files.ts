/**
 * An organisation's documents as files: `documents/{id}` in the data directory, sealed under the
 * organisation's key in chunks as restore downloads are (file-encryption.ts), the organisation in
 * every chunk's associated data, so a file copied under another organisation's document is refused.
 * A file is written whole under a temporary name, flushed, then renamed into place: a reader or a
 * stopped process never finds half of one. A document kept before encryption (its PDF in the clear)
 * is served as it is until `documents:encrypt` seals it where it lies.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { OrganisationKey, OrganisationKeys } from './encryption.js';
import { openKeptFile, SEALED_FILE_MARK, sealContent } from './file-encryption.js';

/** How a document's file is kept. */
type DocumentFileState = 'sealed' | 'clear' | 'missing';

export interface DocumentFiles {
  /** Seals `bytes` under `key` as the document `id`. */
  write(key: OrganisationKey, id: string, bytes: Uint8Array): Promise<void>;
  /**
   * The document's content as a stream (the organisation of a sealed one checked before it answers),
   * or undefined when its file is gone.
   */
  open(
    keys: OrganisationKeys,
    id: string,
    organisationId: string,
  ): Promise<{ size: number; stream: Readable; sealed: boolean } | undefined>;
  /** Whether the document's file is sealed, in the clear (kept before encryption) or gone. */
  state(id: string): Promise<DocumentFileState>;
  /** Seals the document kept in the clear under `key`, in place (a temporary file renamed over it). */
  seal(key: OrganisationKey, id: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** The files of the folder (documents, and temporary files a stopped process left), with when they last changed. */
  list(): Promise<{ name: string; modified: Date }[]>;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function documentFiles(dataDir: string): DocumentFiles {
  const dir = join(dataDir, 'documents');
  const path = (id: string) => join(dir, id);
  /** Writes what `write` gives to a temporary file, then renames it to the document's name. */
  const replace = async (id: string, write: (temporary: string) => Promise<void>) => {
    await mkdir(dir, { recursive: true });
    const temporary = path(`${id}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await write(temporary);
      await rename(temporary, path(id));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  };
  const files: DocumentFiles = {
    write: (key, id, bytes) => replace(id, (temporary) => sealContent(key, bytes, temporary)),
    async open(keys, id, organisationId) {
      let size: number;
      try {
        size = (await stat(path(id))).size;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const stream = createReadStream(path(id));
      return openKeptFile(keys, { size, stream }, { organisationId });
    },
    async state(id) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(path(id), 'r');
      } catch (error) {
        if (isMissing(error)) return 'missing';
        throw error;
      }
      try {
        const first = Buffer.alloc(1);
        const { bytesRead } = await handle.read(first, 0, 1, 0);
        return bytesRead === 1 && first[0] === SEALED_FILE_MARK ? 'sealed' : 'clear';
      } finally {
        await handle.close();
      }
    },
    seal: (key, id) =>
      replace(id, (temporary) => sealContent(key, createReadStream(path(id), { highWaterMark: 64 * 1024 }), temporary)),
    remove: (id) => rm(path(id), { force: true }),
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const found = [];
      for (const name of names) {
        const info = await stat(path(name)).catch(() => undefined);
        if (info?.isFile()) found.push({ name, modified: info.mtime });
      }
      return found;
    },
  };
  return files;
}
