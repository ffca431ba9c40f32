import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { HttpError } from './errors.js';
import {
  apiUnderPath,
  mergeRouteTables,
  type RouteTable,
  registerContract,
  setContractValidation,
} from './http/contract.js';
import { errorHandler, sendError } from './http/errors.js';
import { databaseRateLimitStore } from './http/rate-limit-store.js';
import { archiveBrowseRoutes } from './modules/archive/browse-routes.js';
import { archiveRoutes } from './modules/archive/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { configurationRoutes } from './modules/configuration/routes.js';
import { dashboardRoutes } from './modules/dashboards/routes.js';
import { dataManagementRoutes } from './modules/data-management/routes.js';
import { discoveryRoutes } from './modules/discovery/routes.js';
import { ediscoveryRoutes } from './modules/ediscovery/routes.js';
import { fileRoutes } from './modules/files/routes.js';
import { fleetRoutes } from './modules/fleet/routes.js';
import { apolloIdentityRoutes } from './modules/identity/apollo-routes.js';
import { entraRoutes } from './modules/identity/entra-routes.js';
import { invitationRoutes } from './modules/identity/invitation-routes.js';
import { legacyIdentityRoutes } from './modules/identity/legacy-routes.js';
import { sessionRoutes } from './modules/identity/session-routes.js';
import { resolveToken, SESSION_KINDS } from './modules/identity/sessions.js';
import { legacyJobRoutes } from './modules/jobs/legacy-routes.js';
import { jobRoutes } from './modules/jobs/routes.js';
import { legacyLocationRoutes, locationRoutes } from './modules/locations/routes.js';
import { organisationRoutes } from './modules/organisations/routes.js';
import { registrationRoutes } from './modules/registration/routes.js';
import { selfRegistrationOpen } from './modules/registration/service.js';
import { supportRoutes } from './modules/support/routes.js';
import { tenantConsentRoutes } from './modules/tenant-consent/routes.js';
import { tenantRoutes } from './modules/tenants/routes.js';
import { userRoutes } from './modules/users/routes.js';

/** The PWA's Content-Security-Policy: only its own origin; inline styles for the component library. */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The browser features the portal never uses, turned off for it and anything it could embed; the
 * clipboard's write stays the portal's own (recovery codes are copied with a button). Every name is one
 * Chromium on Linux knows, so the browser logs no warning about the header (it warns about bluetooth and
 * web-share there, which are left out; the portal calls neither).
 */
const PERMISSIONS_POLICY = [
  ...[
    'accelerometer',
    'autoplay',
    'browsing-topics',
    'camera',
    'clipboard-read',
    'display-capture',
    'encrypted-media',
    'fullscreen',
    'gamepad',
    'geolocation',
    'gyroscope',
    'hid',
    'idle-detection',
    'local-fonts',
    'magnetometer',
    'microphone',
    'midi',
    'payment',
    'picture-in-picture',
    'publickey-credentials-create',
    'publickey-credentials-get',
    'screen-wake-lock',
    'serial',
    'usb',
    'window-management',
    'xr-spatial-tracking',
  ].map((feature) => `${feature}=()`),
  'clipboard-write=(self)',
].join(', ');

export function routeTable(ctx: AppContext): RouteTable {
  return mergeRouteTables([
    apolloIdentityRoutes(ctx),
    registrationRoutes(ctx),
    legacyIdentityRoutes(ctx),
    entraRoutes(ctx),
    sessionRoutes(ctx),
    invitationRoutes(ctx),
    tenantRoutes(ctx),
    tenantConsentRoutes(ctx),
    locationRoutes(ctx),
    legacyLocationRoutes(ctx),
    organisationRoutes(ctx),
    fleetRoutes(ctx),
    configurationRoutes(ctx),
    userRoutes(ctx),
    auditRoutes(ctx),
    jobRoutes(ctx),
    legacyJobRoutes(ctx),
    discoveryRoutes(ctx),
    dashboardRoutes(ctx),
    dataManagementRoutes(ctx),
    archiveRoutes(ctx),
    archiveBrowseRoutes(ctx),
    ediscoveryRoutes(ctx),
    fileRoutes(ctx),
    supportRoutes(ctx),
  ]);
}

const isSourceMap = (path: string) => /\.map(\.(br|gz))?(\?|$)/i.test(path);

/** The largest multipart body read: a 3 MB PDF with its form fields, and room to spare. */
const UPLOAD_BODY_LIMIT = 4 * 1024 * 1024;

/** Builds the server for the apollo and legacy contract; `server.ts` listens, tests `inject`. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    trustProxy: false,
    bodyLimit: 1024 * 1024,
    // Every answer names its request (`request-id`, and `traceId` in problem details), as the log does.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Refusals the router gives before any route (a path that is not valid UTF-8, a path parameter
    // over its length) answer in the API's own error shape, with their request id, like all others.
    frameworkErrors: (error, request, reply) => {
      reply.header('request-id', request.id);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return sendError(
        request,
        reply,
        tooLong
          ? new HttpError(414, 'A path parameter is longer than the server accepts.')
          : new HttpError(400, 'The URL is not valid: a path parameter is not valid percent-encoded UTF-8.'),
        apiUnderPath(request.url),
      );
    },
  });
  setContractValidation(app);

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'no-referrer' },
    // As frame-ancestors 'none' says, for browsers that read only the older header.
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    hsts: ctx.config.publicUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  await app.register(cors, {
    // Closed unless CORS_ORIGINS lists origins.
    origin: ctx.config.corsOrigins.length > 0 ? ctx.config.corsOrigins : false,
    credentials: false,
    allowedHeaders: ['Content-Type', 'Accept', 'Authorization', 'X-Api-Key', 'Cache-Control', 'X-Content-Type-Options'],
    exposedHeaders: ['Content-Disposition', 'request-id'],
  });
  // Counted in the database: several API processes count a client's sign-in attempts together.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(ctx.db) });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('request-id', request.id);
    if (request.url.startsWith('/api') || request.url.startsWith('/apollo')) reply.header('Cache-Control', 'no-store');
  });
  app.setErrorHandler(errorHandler);
  // Clients send the JSON content type on every call, also on POST and
  // DELETE without a body; such a call must not fail on its empty body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });

  // Document uploads: the raw form, bounded a little above the 3 MB a PDF may have, so that a file just
  // over the limit gets the rule's own message from the route.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT },
    (_r, body, done) => done(null, body),
  );

  app.get('/healthz', async () => {
    await ctx.db.query('select 1');
    return { status: 'ok' };
  });
  // The PWA is given the application key (it identifies the app, never a user), whether people may sign
  // up by themselves, and whom to write to when they may not.
  app.get('/app-config.json', async () => ({
    apiKey: ctx.config.apiKey,
    environment: 'production',
    selfRegistration: (await selfRegistrationOpen(ctx)) ? 'open' : 'closed',
    supportEmail: ctx.config.supportEmail,
  }));

  registerContract(app, ctx, routeTable(ctx), (token, access) =>
    resolveToken(ctx, token, access === 'signin' ? ['signin', ...SESSION_KINDS] : SESSION_KINDS),
  );
  if (ctx.config.demo) {
    // The built-in Microsoft 365 of the demo tenants (PORTAL_DEMO), on an https port of its own. The
    // demo and the simulator it runs are development dependencies, loaded only in demo mode.
    const { startDemoSimulator } = await import('./demo/demo-simulator.js');
    const simulator = await startDemoSimulator(ctx);
    app.addHook('onClose', () => simulator.close());
  }

  const index = join(ctx.config.webDir, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, {
      root: ctx.config.webDir,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each asset; the one the browser accepts is sent.
      preCompressed: true,
      // Source maps would give anyone the portal's sources: served only when configured.
      allowedPath: (pathName) => ctx.config.sourceMaps || !isSourceMap(pathName),
      setHeaders(reply, path) {
        // Hashed file names change with their content; the shell and the service worker must not be kept.
        reply.header(
          'Cache-Control',
          /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A path under an API's prefix that no endpoint serves: 404 in that API's shape. Any other GET
    // is a client route of the PWA, answered with its shell.
    const api = apiUnderPath(request.url);
    if (!api && request.method === 'GET' && existsSync(index) && !isSourceMap(request.url)) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendError(request, reply, new HttpError(404, 'Resource not found'), api);
  });
  return app;
}
