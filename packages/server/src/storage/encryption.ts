/**
 * Encryption at rest, per organisation. Each organisation has a random 256-bit data key, kept in
 * `organisation_keys` wrapped (sealed) by the server's key, PORTAL_SECRET_KEY: rotating that key
 * rewraps data keys and rewrites no blob (see commands/rotate-secrets.ts). From the data key two keys
 * are derived (HKDF-SHA-256): one encrypts blobs (AES-256-GCM, a random 96-bit nonce per blob, the
 * organisation's id as associated data), one names them (HMAC-SHA-256 of the content), so equal
 * content is stored once within an organisation and the blobs of two organisations cannot be linked.
 * A blob's body says whose key opens it, so a read needs no more than the blob's name; a blob stored
 * before encryption (named by SHA-256, in the clear) is still read and verified as it was.
 * Deleting an organisation's key (crypto-shredding) leaves its blobs unreadable by anyone.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Queryable } from '../db/database.js';
import { insertWrappedKey, wrappedKeyOf } from '../db/organisation-key-repository.js';
import { type BlobCodec, BlobCorruptError, encodeBlob, plainCodec, unpackBlob } from './blob-store.js';

/** The first byte of an encrypted body (0 and 1 are the clear formats: raw and DEFLATE). */
const ENCRYPTED = 2;
const NONCE = 12;
const TAG = 16;

export interface OrganisationKey {
  organisationId: string;
  /** Encrypts and decrypts the organisation's blobs. */
  encryption: Buffer;
  /** Names the organisation's blobs (HMAC of their content). */
  naming: Buffer;
}

/** Its blob's organisation has no key any more: its data was shredded. */
export class BlobShreddedError extends Error {
  constructor(name: string, organisationId: string) {
    super(`The blob ${name} belongs to organisation ${organisationId}, whose key was destroyed.`);
    this.name = 'BlobShreddedError';
  }
}

const derive = (dataKey: Buffer, purpose: string) =>
  Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), `compliance-portal blob ${purpose}`, 32));

function keyOf(organisationId: string, dataKey: Buffer): OrganisationKey {
  if (dataKey.length !== 32) throw new Error(`The data key of organisation ${organisationId} is not 32 bytes.`);
  return { organisationId, encryption: derive(dataKey, 'encryption'), naming: derive(dataKey, 'naming') };
}

export interface OrganisationKeys {
  /** The organisation's key, made on first use. */
  ensure(organisationId: string): Promise<OrganisationKey>;
  /** The organisation's key; undefined once it was destroyed. */
  find(organisationId: string): Promise<OrganisationKey | undefined>;
}

/** How long a key read from the database is used before it is read again (a shredded key is gone after it). */
const KEY_TTL_MS = 60_000;

/** The organisations' data keys in `db`, wrapped by `secrets` (PORTAL_SECRET_KEY). */
export function organisationKeys(
  db: Queryable,
  secrets: SecretBox,
  now: () => Date = () => new Date(),
): OrganisationKeys {
  const cache = new Map<string, { at: number; key: Promise<OrganisationKey | undefined> }>();
  const read = async (organisationId: string) => {
    const wrapped = await wrappedKeyOf(db, organisationId);
    if (wrapped === undefined) return undefined;
    let dataKey: Buffer;
    try {
      dataKey = Buffer.from(secrets.open(wrapped), 'base64');
    } catch {
      throw new Error(
        `The data key of organisation ${organisationId} cannot be opened with the current PORTAL_SECRET_KEY.`,
      );
    }
    return keyOf(organisationId, dataKey);
  };
  const find = (organisationId: string) => {
    const at = Date.now();
    let entry = cache.get(organisationId);
    if (!entry || at - entry.at > KEY_TTL_MS) {
      entry = { at, key: read(organisationId) };
      cache.set(organisationId, entry);
      entry.key.then(
        (key) => {
          // An organisation without a key yet is asked again next time, not remembered as keyless.
          if (!key) cache.delete(organisationId);
        },
        () => cache.delete(organisationId),
      );
    }
    return entry.key;
  };
  return {
    find,
    async ensure(organisationId) {
      const known = await find(organisationId);
      if (known) return known;
      // Two processes may make one at once: the first insert wins, both read it back.
      await insertWrappedKey(db, organisationId, secrets.seal(randomBytes(32).toString('base64')), now());
      cache.delete(organisationId);
      const made = await find(organisationId);
      if (!made) throw new Error(`No data key could be made for organisation ${organisationId}.`);
      return made;
    },
  };
}

/** The HMAC name of content under an organisation's naming key. */
export const keyedName = (key: OrganisationKey, bytes: Uint8Array) =>
  createHmac('sha256', key.naming).update(bytes).digest('hex');

/**
 * Reads any blob: an encrypted one with the key of the organisation its body names (verified by GCM
 * and by its HMAC name), one stored in the clear as before encryption (verified by its SHA-256 name).
 */
async function decodeAny(keys: OrganisationKeys, name: string, body: Buffer): Promise<Uint8Array> {
  if (body[0] !== ENCRYPTED) return plainCodec.decode(name, body);
  const idLength = body[1] ?? 0;
  const organisationId = body.subarray(2, 2 + idLength).toString('utf8');
  const at = 2 + idLength;
  if (body.length < at + NONCE + TAG) throw new BlobCorruptError(name);
  const key = await keys.find(organisationId);
  if (!key) throw new BlobShreddedError(name, organisationId);
  const decipher = createDecipheriv('aes-256-gcm', key.encryption, body.subarray(at, at + NONCE));
  decipher.setAAD(Buffer.from(organisationId, 'utf8'));
  decipher.setAuthTag(body.subarray(at + NONCE, at + NONCE + TAG));
  let packed: Buffer;
  try {
    packed = Buffer.concat([decipher.update(body.subarray(at + NONCE + TAG)), decipher.final()]);
  } catch {
    throw new BlobCorruptError(name);
  }
  const bytes = await unpackBlob(packed);
  if (keyedName(key, bytes) !== name) throw new BlobCorruptError(name);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Reads blobs of every organisation, and those stored in the clear; writes in the clear (as before). */
export function readingCodec(keys: OrganisationKeys): BlobCodec {
  return { ...plainCodec, decode: (name, body) => decodeAny(keys, name, body) };
}

/**
 * Writes blobs of one organisation: named by the HMAC of their content under its naming key,
 * compressed as in the clear, then encrypted: [2, id length, organisation id, nonce, tag, ciphertext].
 */
export function organisationCodec(key: OrganisationKey, keys: OrganisationKeys): BlobCodec {
  const id = Buffer.from(key.organisationId, 'utf8');
  if (id.length > 255) throw new Error('An organisation id is at most 255 bytes.');
  return {
    name: (bytes) => keyedName(key, bytes),
    async encode(bytes, level) {
      const packed = await encodeBlob(bytes, level);
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv('aes-256-gcm', key.encryption, nonce);
      cipher.setAAD(id);
      const sealed = Buffer.concat([cipher.update(packed), cipher.final()]);
      return Buffer.concat([Buffer.from([ENCRYPTED, id.length]), id, nonce, cipher.getAuthTag(), sealed]);
    },
    decode: (name, body) => decodeAny(keys, name, body),
  };
}
