/**
 * Azurite, Microsoft's Azure Storage emulator (its blob service; see azurite-process.mjs), started for
 * a test on a free port of 127.0.0.1 with its data in a new directory; `stop` ends it, as does the end
 * of the test process. `outageProxy` puts a TCP proxy in front of it that can be cut and restored: the
 * store goes away mid-run and comes back as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { AZURITE_ACCOUNT, AZURITE_KEY, spawnAzurite } from './azurite-process.mjs';
import { freePort } from './process.js';

export interface Azurite {
  /** A container's URL there: http://127.0.0.1:<port>/devstoreaccount1/<name> (through `port`, when given). */
  containerUrl(name: string, port?: number): string;
  port: number;
  /** The development account's shared key. */
  accountKey: string;
  /** A client of a container there, created if new. */
  container(name: string): Promise<ContainerClient>;
  stop(): Promise<void>;
}

export async function startAzurite(): Promise<Azurite> {
  const port = await freePort();
  const location = mkdtempSync(join(tmpdir(), 'portal-azurite-'));
  const child = await spawnAzurite(port, location);
  const containerUrl = (name: string, through = port) => `http://127.0.0.1:${through}/${AZURITE_ACCOUNT}/${name}`;
  const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
  return {
    containerUrl,
    port,
    accountKey: AZURITE_KEY,
    async container(name) {
      const client = new ContainerClient(containerUrl(name), credential);
      await client.createIfNotExists();
      return client;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // Killed: Azurite's own shutdown waits for the clients' kept-alive connections to close.
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await ended;
      }
      rmSync(location, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy on a free port of 127.0.0.1 to `target`: `cut` closes every connection and refuses new
 * ones (the store is away), `restore` accepts them again on the same port.
 */
export async function outageProxy(
  target: number,
): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
      server = s;
    });
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise((resolve) => s.close(resolve));
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
}
