/**
 * Azurite, Microsoft's Azure Storage emulator (its blob service), started for a test on a free port
 * of 127.0.0.1 with its data in a new directory and its telemetry off (and the SDK's newer API version
 * allowed: @azure/storage-blob 12.32 speaks a later one than Azurite 3.35, the last for Node 20,
 * knows); `stop` ends it, as does the end of the test process. `outageProxy` puts a TCP proxy in
 * front of it that can be cut and restored: the store goes away mid-run and comes back as it was.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { freePort } from './process.js';

/** Azurite's development account, the same in every installation (documented by Microsoft). */
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const require = createRequire(import.meta.url);

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
  const main = join(require.resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js');
  let child: ChildProcess | undefined;
  const kill = () => child?.kill('SIGKILL');
  process.on('exit', kill);

  const start = async () => {
    const started = spawn(
      process.execPath,
      [
        main,
        '--blobHost',
        '127.0.0.1',
        '--blobPort',
        String(port),
        '--location',
        location,
        '--disableTelemetry',
        '--silent',
        '--skipApiVersionCheck',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Azurite did not listen within 20 s: ${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/successfully listens on/i.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Azurite ended (${code}) before it listened: ${output}`));
      });
    });
  };
  const end = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    // Killed: Azurite's own shutdown waits for the clients' kept-alive connections to close.
    const ended = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await ended;
  };
  await start();

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
      await end();
      process.off('exit', kill);
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
