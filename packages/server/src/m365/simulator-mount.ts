/**
 * The Graph-compatible simulator (@compliance-portal/m365-simulator) mounted in the portal's server
 * under /m365-simulator, for the demo tenants of demo mode.
 */
import { createSimulatorHandler, SIMULATOR_PREFIX, type SimulatorOptions } from '@compliance-portal/m365-simulator';
import type { FastifyInstance } from 'fastify';

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
