/**
 * Files encrypted under an organisation's key (storage/encryption.ts), restore downloads and
 * documents: too large to hold in memory, so sealed and opened as a stream, in chunks of 64 KiB, each with
 * AES-256-GCM and a tag of its own. A chunk's nonce is the file's random 8 bytes and the chunk's
 * number; its associated data the organisation, the number and whether it is the last, so chunks
 * cannot be reordered, dropped or the file cut short without the reader noticing.
 * Layout: [3, id length, organisation id, 8-byte nonce base] then the chunks, each ciphertext + tag.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { OrganisationKey, OrganisationKeys } from './encryption.js';

/** The first byte of a sealed file (a PDF or a ZIP kept before encryption begins otherwise). */
export const SEALED_FILE_MARK = 3;
const SEALED_FILE = SEALED_FILE_MARK;
const CHUNK = 64 * 1024;
const TAG = 16;

const nonceOf = (base: Buffer, index: number) => {
  const nonce = Buffer.alloc(12);
  base.copy(nonce, 0, 0, 8);
  nonce.writeUInt32BE(index, 8);
  return nonce;
};
const aadOf = (id: Buffer, index: number, last: boolean) => {
  const tail = Buffer.alloc(5);
  tail.writeUInt32BE(index, 0);
  tail[4] = last ? 1 : 0;
  return Buffer.concat([id, tail]);
};

/** Writes `path` sealed under `key` to `target`. */
export function sealFile(key: OrganisationKey, path: string, target: string): Promise<void> {
  return sealContent(key, createReadStream(path, { highWaterMark: CHUNK }), target);
}

/**
 * Writes `content` sealed under `key` to `target`, and flushes it to the disk before it answers (a
 * file renamed into place after it is whole, not half).
 */
export async function sealContent(
  key: OrganisationKey,
  content: AsyncIterable<Buffer | Uint8Array> | Uint8Array,
  target: string,
): Promise<void> {
  const id = Buffer.from(key.organisationId, 'utf8');
  const base = randomBytes(8);
  const out = createWriteStream(target);
  const write = async (chunk: Buffer) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const source = content instanceof Uint8Array ? [content] : content;
  try {
    await write(Buffer.concat([Buffer.from([SEALED_FILE, id.length]), id, base]));
    let index = 0;
    let pending: Buffer | undefined;
    const seal = async (plain: Buffer, last: boolean) => {
      const cipher = createCipheriv('aes-256-gcm', key.encryption, nonceOf(base, index));
      cipher.setAAD(aadOf(id, index, last));
      await write(Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]));
      index += 1;
    };
    // Chunks of exactly CHUNK bytes; the last one (maybe empty) is known once the next read ends.
    let buffered = Buffer.alloc(0);
    for await (const data of source) {
      buffered = Buffer.concat([buffered, data]);
      while (buffered.length >= CHUNK) {
        if (pending) await seal(pending, false);
        pending = buffered.subarray(0, CHUNK);
        buffered = buffered.subarray(CHUNK);
      }
    }
    if (buffered.length > 0) {
      if (pending) await seal(pending, false);
      pending = buffered;
    }
    await seal(pending ?? Buffer.alloc(0), true);
    out.end();
    await once(out, 'finish');
    const handle = await open(target, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    out.destroy();
    throw error;
  }
}

/** Whether a stored file begins as a sealed one does (a file kept before encryption does not). */
const isSealed = (first: Buffer) => first[0] === SEALED_FILE;

/** The size of the file a sealed one of `sealedSize` bytes holds, given its header's length. */
function openedSize(sealedSize: number, headerLength: number): number {
  const body = sealedSize - headerLength;
  const chunks = Math.max(1, Math.ceil(body / (CHUNK + TAG)));
  return body - chunks * TAG;
}

/** A sealed file that is not what it should be: another organisation's, cut short, or its key destroyed. */
class SealedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedFileError';
  }
}

/**
 * The content of a sealed file as a stream, each chunk verified before it is passed on (a stream
 * that fails half-way has passed on only verified bytes). Its header is read and its key found
 * before this answers: a file of another organisation than `expected`, or whose key was destroyed,
 * is refused before anything is sent.
 */
async function openSealed(
  keys: OrganisationKeys,
  source: AsyncIterable<Buffer>,
  expected: string | undefined,
): Promise<Readable> {
  let buffered = Buffer.alloc(0);
  const iterator = source[Symbol.asyncIterator]();
  const more = async () => {
    const next = await iterator.next();
    if (next.done) return false;
    buffered = Buffer.concat([buffered, next.value]);
    return true;
  };
  while (buffered.length < 2) if (!(await more())) throw new SealedFileError('The sealed file is cut short.');
  if (buffered[0] !== SEALED_FILE) throw new SealedFileError('Not a sealed file.');
  const headerLength = 2 + (buffered[1] ?? 0) + 8;
  while (buffered.length < headerLength) {
    if (!(await more())) throw new SealedFileError('The sealed file is cut short.');
  }
  const idBytes = Buffer.from(buffered.subarray(2, headerLength - 8));
  const base = Buffer.from(buffered.subarray(headerLength - 8, headerLength));
  const organisationId = idBytes.toString('utf8');
  buffered = buffered.subarray(headerLength);
  if (expected !== undefined && organisationId !== expected) {
    throw new SealedFileError(`The file is sealed for organisation ${organisationId}, not ${expected}.`);
  }
  const key = await keys.find(organisationId);
  if (!key) throw new SealedFileError(`The file belongs to organisation ${organisationId}, whose key was destroyed.`);
  const record = CHUNK + TAG;
  let index = 0;
  const openChunk = (sealed: Buffer, last: boolean) => {
    if (sealed.length < TAG) throw new SealedFileError('The sealed file is cut short.');
    const decipher = createDecipheriv('aes-256-gcm', key.encryption, nonceOf(base, index));
    decipher.setAAD(aadOf(idBytes, index, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
    index += 1;
    return plain;
  };
  async function* chunks() {
    let ended = false;
    for (;;) {
      // A full record followed by more data is not the last one.
      while (!ended && buffered.length <= record) ended = !(await more());
      if (buffered.length > record) {
        yield openChunk(buffered.subarray(0, record), false);
        buffered = buffered.subarray(record);
        continue;
      }
      yield openChunk(buffered, true);
      return;
    }
  }
  return Readable.from(chunks());
}

/**
 * A kept file as it is to be served: a sealed one opened (its size the content's), one kept before
 * encryption as it is. With `organisationId`, a sealed file must be that organisation's (its
 * organisation is in every chunk's associated data, so the header cannot be changed to pass).
 */
export async function openKeptFile(
  keys: OrganisationKeys,
  file: { size: number; stream: Readable },
  options: { organisationId?: string } = {},
): Promise<{ size: number; stream: Readable; sealed: boolean }> {
  const iterator = (file.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head = await iterator.next();
  const first = head.done ? Buffer.alloc(0) : Buffer.from(head.value);
  async function* all() {
    if (first.length > 0) yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield Buffer.from(next.value);
    }
  }
  if (!isSealed(first)) return { size: file.size, stream: Readable.from(all()), sealed: false };
  try {
    return {
      size: openedSize(file.size, 2 + (first[1] ?? 0) + 8),
      stream: await openSealed(keys, all(), options.organisationId),
      sealed: true,
    };
  } catch (error) {
    file.stream.destroy();
    throw error;
  }
}
