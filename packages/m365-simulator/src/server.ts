/** The simulator on a loopback port of its own (tests, benchmarks, integrators). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSimulatorHandler, type SimResponse, type SimulatorOptions } from './handler.js';

/** The path the simulator's endpoints sit under, alone on a port or mounted in another server. */
export const SIMULATOR_PREFIX = '/m365-simulator';

/** Where a tenant's app registration points when it uses the simulator at `origin`. */
export function simulatorEndpoints(origin: string) {
  const base = `${origin.replace(/\/$/, '')}${SIMULATOR_PREFIX}`;
  return { graphBaseUrl: `${base}/v1.0`, authorityHost: `${base}/login` };
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
      send(
        res,
        await sim.handle({
          method: req.method ?? 'GET',
          path: url.pathname.slice(SIMULATOR_PREFIX.length) || '/',
          query: url.searchParams,
          headers: req.headers as Record<string, string | undefined>,
          body: await readBody(req),
        }),
      );
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
