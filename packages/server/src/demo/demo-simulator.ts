/**
 * The demo tenants' Microsoft 365 (PORTAL_DEMO): the Graph-compatible simulator
 * (@compliance-portal/m365-simulator) on an https port of its own, its certificates and keys in
 * `<PORTAL_DATA_DIR>/m365-simulator`. It serves exactly the demo tenants that point at a simulator,
 * issues tokens only to their app registrations with their stored secrets, and their endpoints are
 * set to it at each start (its port may change between starts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadOrCreateTls,
  type RunningSimulator,
  simulatorEndpoints,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import { type Config, readOrCreate } from '../config.js';
import type { AppContext } from '../context.js';
import { findTenant } from '../db/records.js';
import { dataPlaneOf } from '../jobs/data-plane.js';
import { trustCertificates } from '../m365/trust.js';
import { redirectUriOf, useEntraApp } from '../modules/identity/entra.js';
import { consentSetup, useConsentPlatform } from '../modules/tenant-consent/service.js';
import { learnDefaultDomain } from '../modules/tenants/service.js';
import { DEMO_CONSENT_TENANT, demoTenantIds, demoTenantSize } from './seed.js';

/** The demo tenants change every ten minutes, so incremental runs have work. */
const CHANGE_EVERY_MS = 10 * 60_000;

const demoSimulatorDataDir = (config: Config) => join(config.dataDir, 'm365-simulator');

/** The demo's app registration for "Sign in with Microsoft" with its simulator (when no Entra app is configured). */
const DEMO_SIGN_IN_CLIENT_ID = 'c0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a4b';

/** The demo sign-in app's secret, made once in the simulator's data directory. */
const demoSignInSecret = (config: Config) =>
  readOrCreate(join(demoSimulatorDataDir(config), 'sign-in-app-secret'), () => randomBytes(24).toString('base64url'));

/**
 * The client secret of the app registration of the tenant to connect by consent: PORTAL_DEMO_CLIENT_SECRET,
 * else one made once in the simulator's data directory (printed with the demo password).
 */
export const demoConsentSecret = (config: Config) =>
  config.demoClientSecret ??
  readOrCreate(join(demoSimulatorDataDir(config), 'consent-app-secret'), () => randomBytes(24).toString('base64url'));

/**
 * A process of the portal that does not run the simulator (--role=worker) but calls it: it trusts the
 * CA of the shared data directory (made here if the web process has not made it yet).
 */
export async function trustDemoSimulator(config: Config): Promise<string> {
  const { caCertificatePath } = await loadOrCreateTls(demoSimulatorDataDir(config));
  trustCertificates([readFileSync(caCertificatePath, 'utf8')]);
  return caCertificatePath;
}

const running = new WeakMap<AppContext, RunningSimulator>();

/** The demo simulator started for `ctx` (by buildApp in demo mode), while it runs. */
export function demoSimulatorOf(ctx: AppContext): RunningSimulator | undefined {
  return running.get(ctx);
}

/**
 * The default domains of the demo tenants that have none yet (a demo world just seeded, or one made
 * before the portal read them), read from the simulator as the connection test reads them, so that
 * the header names each tenant from the first page on. A failure is logged and leaves the domain unset.
 */
async function learnDemoDomains(ctx: AppContext, tenantIds: readonly string[]): Promise<void> {
  const learn = async (tenantId: string) => {
    const tenant = await findTenant(ctx.db, tenantId);
    if (!tenant || tenant.defaultDomain) return;
    try {
      await learnDefaultDomain(ctx, tenant, await dataPlaneOf(ctx).graph(tenant, { interactive: true }));
    } catch (error) {
      ctx.log.warn({ err: error, tenantId }, "the demo tenant's default domain could not be read");
    }
  };
  // A few at a time: a demo partner may have hundreds of clients (PORTAL_DEMO_CLIENTS).
  const queue = [...tenantIds];
  await Promise.all(
    Array.from({ length: Math.min(DOMAIN_READS_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await learn(next);
    }),
  );
}

/** Default domains read from the simulator at once at start. */
const DOMAIN_READS_AT_ONCE = 8;

export async function startDemoSimulator(ctx: AppContext): Promise<RunningSimulator> {
  const { config } = ctx;
  // A demo tenant set to Microsoft's own endpoints (null) is left to them.
  const tenants = await ctx.db.query<{ tenant_id: string; application_id: string; client_secret_enc: string }>(
    `select tenant_id, application_id, client_secret_enc from tenants
     where tenant_id = any($1) and graph_base_url is not null and client_secret_enc is not null`,
    [demoTenantIds(config)],
  );
  // The tenant to connect by consent: granted the portal's permissions once an administrator consented
  // through the portal (the simulator forgets at a restart what the consent granted).
  const [consented] = await ctx.db.query<{ admin_consent_at: Date | null }>(
    'select admin_consent_at from tenants where tenant_id = $1 and graph_base_url is not null',
    [DEMO_CONSENT_TENANT.tenantId],
  );
  const setup = consentSetup(ctx);
  const permissions = setup.permissions.map((p) => p.permission);
  // Without an Entra app of its own, the demo signs in with Microsoft through the simulator.
  const signIn = config.entra
    ? undefined
    : { clientId: DEMO_SIGN_IN_CLIENT_ID, clientSecret: demoSignInSecret(config), redirectUris: [redirectUriOf(ctx)] };
  let sim: RunningSimulator;
  try {
    sim = await startSimulator({
      dataDir: demoSimulatorDataDir(config),
      port: config.m365SimulatorPort,
      host: '127.0.0.1',
      tenants: [
        ...tenants.map((t) => ({
          tenantId: t.tenant_id,
          clientId: t.application_id,
          clientSecret: ctx.secrets.open(t.client_secret_enc),
          size: demoTenantSize(config, t.tenant_id),
          // Their app registrations list the portal's consent page, so their consent links work too.
          redirectUris: [setup.redirectUri],
          appDisplayName: 'Compliance Portal',
        })),
        {
          tenantId: DEMO_CONSENT_TENANT.tenantId,
          clientId: DEMO_CONSENT_TENANT.applicationId,
          clientSecret: demoConsentSecret(config),
          size: { ...DEMO_CONSENT_TENANT.size, ...config.m365SimulatorSize },
          consent: consented?.admin_consent_at ? permissions : [],
          redirectUris: [setup.redirectUri],
          applicationPermissions: permissions,
          appDisplayName: 'Compliance Portal',
        },
      ],
      changeEveryMs: CHANGE_EVERY_MS,
      ...(signIn ? { signInApps: [signIn] } : {}),
      ...(config.demoPassword ? { userPassword: config.demoPassword } : {}),
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new Error(
        `The Microsoft 365 simulator's port ${config.m365SimulatorPort} is in use: set PORTAL_M365_SIMULATOR_PORT to a free one (0: any)`,
      );
    }
    throw error;
  }
  trustCertificates([sim.caCertificate]);
  useConsentPlatform(ctx, { authority: sim.authorityHost, graphBaseUrl: sim.graphBaseUrl });
  if (signIn)
    useEntraApp(ctx, { clientId: signIn.clientId, clientSecret: signIn.clientSecret, authority: sim.authorityHost });
  running.set(ctx, sim);
  const close = sim.close;
  sim.close = () => {
    running.delete(ctx);
    return close();
  };
  const endpoints = simulatorEndpoints(sim.url);
  const served = [...tenants, ...(consented ? [{ tenant_id: DEMO_CONSENT_TENANT.tenantId }] : [])];
  await ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = any($1)', [
    served.map((t) => t.tenant_id),
    endpoints.graphBaseUrl,
    endpoints.authorityHost,
  ]);
  await learnDemoDomains(
    ctx,
    served.map((t) => t.tenant_id),
  );
  ctx.log.info(
    {
      url: sim.url,
      graphBaseUrl: sim.graphBaseUrl,
      caCertificatePath: sim.caCertificatePath,
      tenants: tenants.length,
    },
    'Microsoft 365 simulator listening',
  );
  return sim;
}
