/**
 * The Graph-compatible simulator over HTTP: alone on a loopback port (tests, benchmarks), or mounted
 * in the portal's server under /m365-simulator (the demo tenants point at it).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createSimulatorHandler, type SimRequest, type SimResponse, type SimulatorOptions } from './handler.js';

export type { SimulatorOptions, SimulatorState } from './handler.js';
export { DEMO_SIZE, type Evolution, evolve, type TenantSize } from './model.js';

export const SIMULATOR_PREFIX = '/m365-simulator';

/** Where a tenant's app registration points when it uses the simulator at `origin`. */
export function simulatorEndpoints(origin: string) {
  const base = `${origin.replace(/\/$/, '')}${SIMULATOR_PREFIX}`;
  return { graphBaseUrl: `${base}/v1.0`, authorityHost: `${base}/login` };
}

function send(res: import('node:http').ServerResponse, answer: SimResponse) {
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

export interface RunningSimulator {
  url: string;
  graphBaseUrl: string;
  authorityHost: string;
  state: ReturnType<typeof createSimulatorHandler>['state'];
  close(): Promise<void>;
}

/** Listens alone on 127.0.0.1 (port 0: any free one). */
export async function startSimulator(options: SimulatorOptions & { port?: number }): Promise<RunningSimulator> {
  const sim = createSimulatorHandler(options);
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://sim');
      const request: SimRequest = {
        method: req.method ?? 'GET',
        path: url.pathname.slice(SIMULATOR_PREFIX.length) || '/',
        query: url.searchParams,
        headers: req.headers as Record<string, string | undefined>,
        body: await readBody(req),
      };
      send(res, await sim.handle(request));
    } catch (error) {
      send(res, { status: 500, json: { error: { code: 'generalException', message: String(error) } } });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  sim.state.baseUrl = `${origin}${SIMULATOR_PREFIX}`;
  return {
    url: origin,
    ...simulatorEndpoints(origin),
    state: sim.state,
    close: () =>
      new Promise((resolve) => {
        sim.stop();
        server.close(() => resolve());
      }),
  };
}

/** Mounts the simulator on the portal's server; returns its state. */
export async function mountSimulator(app: FastifyInstance, options: SimulatorOptions & { origin: string }) {
  const sim = createSimulatorHandler(options);
  sim.state.baseUrl = `${options.origin.replace(/\/$/, '')}${SIMULATOR_PREFIX}`;
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 * 1024 }, (_req, body, done) =>
        done(null, body),
      );
      scope.all('/*', async (request, reply) => {
        const url = new URL(request.url, 'http://sim');
        const answer = await sim.handle({
          method: request.method,
          path: url.pathname.slice(SIMULATOR_PREFIX.length) || '/',
          query: url.searchParams,
          headers: request.headers as Record<string, string | undefined>,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        reply.code(answer.status).headers({ 'cache-control': 'no-store', ...answer.headers });
        if (answer.json !== undefined) return reply.type('application/json').send(JSON.stringify(answer.json));
        if (answer.bytes) return reply.send(Buffer.from(answer.bytes));
        return reply.send();
      });
    },
    { prefix: SIMULATOR_PREFIX },
  );
  app.addHook('onClose', async () => sim.stop());
  return sim.state;
}
