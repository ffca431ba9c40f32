#!/usr/bin/env node
// The blob stores side by side, in one run on one machine: the local directory and Azure Blob
// Storage (Azurite, started here on a free port of 127.0.0.1 with its telemetry off). The same
// contents (file-like text and random bytes of 4 KB to 1 MB, as a backup stores them) are put with
// 8 at once, put again (dedup: a HEAD each, nothing uploaded) and read back (verified), and each
// store's blobs/s and MB/s are printed with Azurite's share of the local figure.
// Usage (after `pnpm build`): node bench/object-store.mjs [--blobs 2000]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { forEachLimit } from '../dist/jobs/pool.js';
import { createAzureBlobStore } from '../dist/storage/azure-blob-store.js';
import { createLocalBlobStore } from '../dist/storage/blob-store.js';
import { azureContainer } from '../dist/storage/stores.js';
import { AZURITE_ACCOUNT, AZURITE_KEY, spawnAzurite } from '../test/azurite-process.mjs';
import { freePort } from './lib.mjs';

const { values } = parseArgs({ options: { blobs: { type: 'string', default: '2000' } } });
const COUNT = Number(values.blobs);
const CONCURRENCY = 8;

const words = 'contract invoice budget meeting report quarterly Vertrag Rechnung Angebot compliance audit '.split(' ');
function content(i) {
  const size = [4, 16, 64, 256, 1024][i % 5] * 1024;
  if (i % 3 === 0) return randomBytes(size);
  let text = '';
  while (text.length < size) text += `${words[(i * 7 + text.length) % words.length]} ${i} `;
  return Buffer.from(text.slice(0, size));
}
const contents = Array.from({ length: COUNT }, (_, i) => content(i));
const totalMb = contents.reduce((n, b) => n + b.length, 0) / 1024 ** 2;

async function measure(label, store) {
  const hashes = [];
  let t = performance.now();
  await forEachLimit(contents, CONCURRENCY, async (bytes) => hashes.push((await store.put(bytes)).hash));
  const put = (performance.now() - t) / 1000;
  t = performance.now();
  await forEachLimit(contents, CONCURRENCY, async (bytes) => {
    if ((await store.put(bytes)).isNew) throw new Error('stored twice');
  });
  const again = (performance.now() - t) / 1000;
  t = performance.now();
  await forEachLimit(hashes, CONCURRENCY, async (hash) => store.get(hash));
  const get = (performance.now() - t) / 1000;
  const stats = await store.stats();
  const row = {
    store: label,
    'put blobs/s': Math.round(COUNT / put),
    'put MB/s': (totalMb / put).toFixed(1),
    'put again blobs/s': Math.round(COUNT / again),
    'get blobs/s': Math.round(COUNT / get),
    'get MB/s': (totalMb / get).toFixed(1),
    'stored MB': (stats.storedBytes / 1024 ** 2).toFixed(1),
  };
  return { row, put, get };
}

async function startAzurite() {
  const port = await freePort();
  const location = mkdtempSync(join(tmpdir(), 'bench-azurite-'));
  const child = await spawnAzurite(port, location);
  return {
    url: `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}/bench`,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(location, { recursive: true, force: true });
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-blobs-'));
const azurite = await startAzurite();
const container = azureContainer(azurite.url, AZURITE_KEY);
await container.createIfNotExists();
console.log(`${COUNT} blobs, ${totalMb.toFixed(1)} MB (a third random, the rest text), ${CONCURRENCY} at once`);
const local = await measure('local directory', createLocalBlobStore(dir));
const azure = await measure('Azure Blob Storage (Azurite 3.35, loopback)', createAzureBlobStore(container));
console.table([local.row, azure.row]);
console.log(
  `Azurite against the local directory: puts ${Math.round((100 * local.put) / azure.put)}%, gets ${Math.round((100 * local.get) / azure.get)}% of the local throughput`,
);
azurite.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
