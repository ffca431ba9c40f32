/**
 * The blob store's promises, the same on every store: the local directory and Azure Blob Storage
 * (against Azurite, Microsoft's emulator) and S3 (against s3rver, an S3-compatible server). Content is stored once, compressed when that helps, read
 * back byte for byte and verified on every read; two puts of the same content at once store it once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureBlobStore } from '../src/storage/azure-blob-store.js';
import { BlobCorruptError, type BlobStore, createLocalBlobStore } from '../src/storage/blob-store.js';
import { createS3BlobStore, MULTIPART_FROM } from '../src/storage/s3-blob-store.js';
import { azureContainer } from '../src/storage/stores.js';
import { startAzurite } from './azurite.js';
import { startS3rver } from './s3rver.js';

interface Fixture {
  store: BlobStore;
  /** Replaces a stored blob's bytes behind the store's back. */
  corrupt(hash: string, bytes: Buffer): Promise<void>;
}

let azurite: Awaited<ReturnType<typeof startAzurite>>;
let container: ContainerClient;
let s3rver: Awaited<ReturnType<typeof startS3rver>>;
let s3: S3Client;

beforeAll(async () => {
  [azurite, s3rver] = await Promise.all([startAzurite(), startS3rver(['portal-blobs'])]);
  container = await azurite.container('portal-blobs');
  s3 = s3rver.bucket('portal-blobs');
});
afterAll(async () => {
  await Promise.all([azurite?.stop(), s3rver?.stop()]);
});

const stores: Record<string, () => Fixture> = {
  'a local directory': () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-object-store-'));
    return {
      store: createLocalBlobStore(dir),
      corrupt: async (hash, bytes) => writeFileSync(join(dir, hash.slice(0, 2), hash), bytes),
    };
  },
  'Azure Blob Storage (Azurite)': () => {
    const prefix = `${randomBytes(4).toString('hex')}/`;
    return {
      store: createAzureBlobStore(container, { prefix }),
      corrupt: async (hash, bytes) => {
        await container.getBlockBlobClient(`${prefix}${hash}`).uploadData(bytes);
      },
    };
  },
  'S3 (s3rver)': () => {
    const prefix = `${randomBytes(4).toString('hex')}/`;
    return {
      store: createS3BlobStore(s3, 'portal-blobs', { prefix }),
      corrupt: async (hash, bytes) => {
        await s3.send(new PutObjectCommand({ Bucket: 'portal-blobs', Key: `${prefix}${hash}`, Body: bytes }));
      },
    };
  },
};

describe.each(Object.entries(stores))('the blob store on %s', (_name, make) => {
  it('stores equal content once, compresses text and keeps random bytes raw, and gives the bytes back', async () => {
    const { store } = make();
    const text = new TextEncoder().encode('Quarterly report, all figures in EUR.\n'.repeat(400));
    const first = await store.put(text);
    const again = await store.put(text);
    expect(first.isNew).toBe(true);
    expect(again).toMatchObject({ hash: first.hash, isNew: false, storedSize: first.storedSize });
    expect(first.storedSize).toBeLessThan(text.length / 10);
    const random = randomBytes(3 * 1024 * 1024);
    const raw = await store.put(random);
    expect(raw.storedSize).toBe(random.length + 1);
    expect(Buffer.from(await store.get(first.hash)).equals(Buffer.from(text))).toBe(true);
    expect(Buffer.from(await store.get(raw.hash)).equals(random)).toBe(true);
    expect(await store.stats()).toEqual({ blobs: 2, storedBytes: first.storedSize + raw.storedSize });
  });

  it('stores the same content put many times at once as one blob', async () => {
    const { store } = make();
    const bytes = randomBytes(64 * 1024);
    const results = await Promise.all(Array.from({ length: 8 }, () => store.put(bytes)));
    expect(new Set(results.map((r) => r.hash)).size).toBe(1);
    expect(results.filter((r) => r.isNew).length).toBeGreaterThanOrEqual(1);
    expect(await store.stats()).toMatchObject({ blobs: 1 });
    expect(Buffer.from(await store.get(results[0]?.hash ?? '')).equals(bytes)).toBe(true);
  });

  it('refuses a blob whose bytes no longer match its name, and deletes', async () => {
    const { store, corrupt } = make();
    const { hash } = await store.put(new TextEncoder().encode('the original content'));
    expect(await store.has(hash)).toBe(true);
    await corrupt(hash, Buffer.concat([Buffer.from([0]), Buffer.from('something else')]));
    await expect(store.get(hash)).rejects.toBeInstanceOf(BlobCorruptError);
    await store.delete(hash);
    expect(await store.has(hash)).toBe(false);
    await store.delete(hash);
    expect(await store.stats()).toEqual({ blobs: 0, storedBytes: 0 });
    await expect(store.get(hash)).rejects.toThrow();
    await expect(store.has('not-a-hash')).rejects.toThrow(/not a blob hash/);
  });
});

describe('the S3 store', () => {
  it(`uploads a blob of ${MULTIPART_FROM / 1024 / 1024} MiB or more in parts and reads it back whole`, async () => {
    const store = createS3BlobStore(s3, 'portal-blobs', { prefix: `${randomBytes(4).toString('hex')}/` });
    const random = randomBytes(MULTIPART_FROM + 3 * 1024 * 1024 + 17);
    const put = await store.put(random);
    expect(put).toMatchObject({ isNew: true, storedSize: random.length + 1 });
    expect(Buffer.from(await store.get(put.hash)).equals(random)).toBe(true);
    expect(await store.stats()).toEqual({ blobs: 1, storedBytes: random.length + 1 });
  });

  it('refuses a request signed with another key', async () => {
    const { s3Client } = await import('../src/storage/s3-blob-store.js');
    const store = createS3BlobStore(
      s3Client({ ...s3rver.location('portal-blobs'), secretAccessKey: 'not-the-key' }),
      'portal-blobs',
    );
    await expect(store.put(new TextEncoder().encode('x'))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
  });
});

describe('an Azure container named by its URL', () => {
  it('signs as the account the URL names: by its host, or on an emulator by the first segment of its path', () => {
    const accountOf = (url: string) => {
      const credential = azureContainer(url, 'a2V5').credential;
      return credential instanceof StorageSharedKeyCredential ? credential.accountName : undefined;
    };
    expect(accountOf('https://portalstore.blob.core.windows.net/backups')).toBe('portalstore');
    expect(accountOf('http://127.0.0.1:10000/devstoreaccount1/backups')).toBe('devstoreaccount1');
    expect(
      azureContainer('https://portalstore.blob.core.windows.net/backups?sv=2024&sig=x', undefined).credential,
    ).not.toBeInstanceOf(StorageSharedKeyCredential);
  });
});
