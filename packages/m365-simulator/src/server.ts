/**
 * The simulator on an https port of its own, for tests, demos and integrators: Graph at
 * `https://localhost:PORT/v1.0`, the authority at `https://localhost:PORT/{tenantId}`, with a
 * certificate of the data directory's own CA (trust `caCertificatePath`, e.g. with NODE_EXTRA_CA_CERTS).
 */

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { CONTROL_KEY_ENV, parseThrottle, THROTTLE_ENV, type ThrottleSetting } from './control.js';
import { readOrCreate, resolveDataDir } from './data-dir.js';
import { createSimulatorHandler, type SimResponse, type SimulatorOptions, type SimulatorState } from './handler.js';
import { loadOrCreateTls } from './tls.js';
import { loadOrCreateTokenKeys } from './tokens.js';

/** Where a tenant's app registration points when it uses the simulator at `origin`. */
export function simulatorEndpoints(origin: string) {
  const base = origin.replace(/\/$/, '');
  return { graphBaseUrl: `${base}/v1.0`, authorityHost: base };
}

function send(res: ServerResponse, answer: SimResponse) {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.json !== undefined) {
    const body = Buffer.from(JSON.stringify(answer.json));
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': body.length, ...headers });
    res.end(body);
  } else if (answer.bytes) {
    res.writeHead(answer.status, { 'content-length': answer.bytes.length, ...headers });
    res.end(answer.bytes);
  } else {
    res.writeHead(answer.status, headers);
    res.end();
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface StartSimulatorOptions extends SimulatorOptions {
  /**
   * Where the CA, the server certificate, the token signing key and the control key are kept
   * (made at first start): M365_SIMULATOR_DATA_DIR when absent, else a new temporary directory.
   */
  dataDir?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** The loopback address listened on, 127.0.0.1 by default; URLs name `localhost` either way. */
  host?: string;
}

export interface RunningSimulator {
  /** The origin, e.g. https://localhost:8444. */
  url: string;
  /** Graph's v1.0 root: `${url}/v1.0`. */
  graphBaseUrl: string;
  /** The authority of a tenant is `${authorityHost}/${tenantId}` (the origin, as login.microsoftonline.com). */
  authorityHost: string;
  /** The CA certificate (PEM) the server certificate chains to, and the file it is in. */
  caCertificate: string;
  caCertificatePath: string;
  /** The value of the x-simulator-control header the control endpoints (/_simulator/throttle, /_simulator/consent) need. */
  controlKey: string;
  dataDir: string;
  state: SimulatorState;
  close(): Promise<void>;
}

/**
 * Listens with https on 127.0.0.1 (port 0: any free one). Throttling starts as M365_SIMULATOR_THROTTLE
 * says unless `throttle` or `throttleEvery` is given; the control key is `controlKey`, else
 * M365_SIMULATOR_CONTROL_KEY, else the data directory's `control-key` (made at first start).
 */
export async function startSimulator(options: StartSimulatorOptions): Promise<RunningSimulator> {
  const dataDir = resolveDataDir(options.dataDir);
  const [tls, tokenKeys] = await Promise.all([loadOrCreateTls(dataDir), loadOrCreateTokenKeys(dataDir)]);
  const controlKey =
    options.controlKey ??
    (process.env[CONTROL_KEY_ENV] ||
      (await readOrCreate(join(dataDir, 'control-key'), () => randomBytes(24).toString('base64url'), 0o600)).trim());
  const fromEnv: Partial<ThrottleSetting> | undefined =
    options.throttle || options.throttleEvery !== undefined ? undefined : parseThrottle(process.env[THROTTLE_ENV]);
  const sim = createSimulatorHandler({
    ...options,
    tokenKeys,
    controlKey,
    ...(fromEnv ? { throttle: fromEnv } : {}),
  });
  const server = createServer({ cert: tls.certificate, key: tls.privateKey }, async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'https://localhost');
      send(
        res,
        await sim.handle({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers as Record<string, string | undefined>,
          body: await readBody(req),
        }),
      );
    } catch (error) {
      send(res, { status: 500, json: { error: { code: 'generalException', message: String(error) } } });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `https://localhost:${port}`;
  sim.state.baseUrl = origin;
  return {
    url: origin,
    ...simulatorEndpoints(origin),
    caCertificate: tls.caCertificate,
    caCertificatePath: tls.caCertificatePath,
    controlKey,
    dataDir,
    state: sim.state,
    close: () =>
      new Promise((resolve) => {
        sim.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Makes the data directory's certificates, signing key and control key now (e.g. in a test's global setup). */
export async function prepareSimulatorDataDir(dataDir: string): Promise<{ caCertificatePath: string }> {
  const dir = resolveDataDir(dataDir);
  const [tls] = await Promise.all([
    loadOrCreateTls(dir),
    loadOrCreateTokenKeys(dir),
    readOrCreate(join(dir, 'control-key'), () => randomBytes(24).toString('base64url'), 0o600),
  ]);
  return { caCertificatePath: tls.caCertificatePath };
}
