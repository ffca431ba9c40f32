#!/usr/bin/env node
/**
 * `m365-simulator`: the simulator alone, for testing an integrator's own Graph code.
 *
 *   m365-simulator --tenant <tenantId>[,<clientId>,<clientSecret>] [--tenant …] [--fleet 500 [--fleet-seed 1]]
 *     [--fleet-tenants ids.txt] [--port 8444]
 *     [--host 127.0.0.1] [--data-dir ./m365-simulator-data] [--size '{"users":10}'] [--page-size 100]
 *     [--consent User.Read.All,Files.ReadWrite.All] [--throttle every=5,status=429,retryAfter=2]
 *     [--sign-in-app <clientId>,<clientSecret>,<redirectUri>[,<redirectUri>…]] [--user-password <password>]
 *     [--multi-tenant-app <clientId>,<clientSecret>,<redirectUri>[,<redirectUri>…]]
 *
 * Prints the authority, Graph's base URL and the CA certificate to trust; stops on SIGINT or SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CONTROL_HEADER, parseThrottle } from './control.js';
import { DATA_DIR_ENV } from './data-dir.js';
import { fleetTenants, MAX_FLEET } from './fleet.js';
import type { SimulatorOptions } from './handler.js';
import { ALL_APPLICATION_PERMISSIONS } from './permissions.js';
import { startSimulator } from './server.js';

const USAGE = `Usage: m365-simulator --tenant <tenantId>[,<clientId>,<clientSecret>] [--tenant …] [--fleet <count> [--fleet-seed <seed>]]
  [--fleet-tenants <file of tenant ids>]
  [--port 8444] [--host 127.0.0.1] [--data-dir ./m365-simulator-data] [--size '{"users":10}']
  [--page-size 100] [--consent <permission>,…] [--throttle every=5,status=429,retryAfter=2,paths=^/v1.0/users]
  [--sign-in-app <clientId>,<clientSecret>,<redirectUri>[,<redirectUri>…]] [--user-password <password>]
  [--multi-tenant-app <clientId>,<clientSecret>,<redirectUri>[,<redirectUri>…]]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      tenant: { type: 'string', multiple: true },
      fleet: { type: 'string' },
      'fleet-seed': { type: 'string' },
      'fleet-tenants': { type: 'string' },
      port: { type: 'string', default: '8444' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      size: { type: 'string' },
      'page-size': { type: 'string' },
      consent: { type: 'string' },
      throttle: { type: 'string' },
      'sign-in-app': { type: 'string', multiple: true },
      'multi-tenant-app': { type: 'string', multiple: true },
      'user-password': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const fleetCount = values.fleet === undefined ? 0 : Number(values.fleet);
  if (!Number.isInteger(fleetCount) || fleetCount < 0 || fleetCount > MAX_FLEET) {
    fail(`--fleet must be a whole number of tenants from 0 to ${MAX_FLEET}: ${values.fleet}`);
  }
  if (!values.tenant?.length && fleetCount === 0 && values['fleet-tenants'] === undefined) {
    fail('At least one --tenant (or a --fleet) is needed.');
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port is not a port: ${values.port}`);
  let size: SimulatorOptions['tenants'][number]['size'];
  if (values.size) {
    try {
      size = JSON.parse(values.size) as typeof size;
    } catch {
      fail(`--size is not JSON: ${values.size}`);
    }
  }
  const consent = values.consent
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const tenants: SimulatorOptions['tenants'] = (values.tenant ?? []).map((spec) => {
    const [tenantId = '', clientId, clientSecret, ...rest] = spec.split(',');
    if (!tenantId || rest.length > 0 || (clientId && !clientSecret)) {
      fail(`--tenant takes <tenantId> or <tenantId>,<clientId>,<clientSecret>, not ${spec}`);
    }
    return {
      tenantId,
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(size ? { size } : {}),
      ...(consent ? { consent } : {}),
    };
  });
  // The fleet's tenants take any application with any secret, as a --tenant without a client id does.
  let tenantIds: string[] | undefined;
  if (values['fleet-tenants'] !== undefined) {
    try {
      tenantIds = readFileSync(values['fleet-tenants'], 'utf8').split(/\s+/).filter(Boolean);
    } catch (error) {
      fail(`--fleet-tenants: ${(error as Error).message}`);
    }
    if (tenantIds.length > MAX_FLEET) fail(`--fleet-tenants lists more than ${MAX_FLEET} tenants`);
  }
  const fleet = fleetTenants({
    count: fleetCount,
    seed: values['fleet-seed'] ?? 'fleet',
    ...(tenantIds ? { tenantIds } : {}),
    ...(size ? { size } : {}),
  });
  for (const t of fleet) tenants.push({ ...t, ...(consent ? { consent } : {}) });
  const pageSize = values['page-size'] ? Number(values['page-size']) : undefined;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
    fail(`--page-size must be a positive whole number: ${values['page-size']}`);
  }
  let throttle: ReturnType<typeof parseThrottle>;
  try {
    throttle = parseThrottle(values.throttle);
  } catch (error) {
    fail((error as Error).message);
  }
  const appSpec = (flag: string) => (spec: string) => {
    const [clientId, clientSecret, ...redirectUris] = spec.split(',');
    if (!clientId || !clientSecret || redirectUris.length === 0 || redirectUris.some((u) => !URL.canParse(u))) {
      fail(`--${flag} takes <clientId>,<clientSecret>,<redirectUri>[,<redirectUri>…], not ${spec}`);
    }
    return { clientId, clientSecret, redirectUris };
  };
  const signInApps = (values['sign-in-app'] ?? []).map(appSpec('sign-in-app'));
  // A multi-tenant app asks for the permissions of --consent, else for every one the simulator knows.
  const multiTenantApps = (values['multi-tenant-app'] ?? []).map(appSpec('multi-tenant-app')).map((app) => ({
    ...app,
    displayName: `App ${app.clientId}`,
    applicationPermissions: consent ?? ALL_APPLICATION_PERMISSIONS,
  }));
  return {
    tenants,
    fleet: fleet.length > 0 ? { seed: values['fleet-seed'] ?? 'fleet', tenants: fleet } : undefined,
    ...(signInApps.length > 0 ? { signInApps } : {}),
    ...(multiTenantApps.length > 0 ? { multiTenantApps } : {}),
    ...(values['user-password'] ? { userPassword: values['user-password'] } : {}),
    port,
    host: values.host,
    dataDir: values['data-dir'] ?? process.env[DATA_DIR_ENV] ?? './m365-simulator-data',
    ...(pageSize ? { pageSize } : {}),
    ...(throttle ? { throttle } : {}),
  };
}

const { fleet, ...options } = parse(process.argv.slice(2));
const sim = await startSimulator(options);
const fleetIds = new Set(fleet?.tenants.map((t) => t.tenantId));
const fleetUsers = fleet?.tenants.map((t) => t.size.users ?? 0) ?? [];
const lines = [
  `Microsoft 365 simulator listening on ${sim.url}`,
  ...options.tenants
    .filter((t) => !fleetIds.has(t.tenantId))
    .map(
      (t) =>
        `  tenant ${t.tenantId}: authority ${sim.authorityHost}/${t.tenantId}${t.clientId ? `, app ${t.clientId}` : ''}`,
    ),
  ...(fleet
    ? [
        `  fleet (seed ${fleet.seed}): ${fleet.tenants.length} tenants of ${Math.min(...fleetUsers)} to ${Math.max(...fleetUsers)} users, ${fleetUsers.reduce((a, b) => a + b, 0)} in all; any app, any secret; their ids: GET ${sim.url}/_simulator/tenants with the header ${CONTROL_HEADER}`,
      ]
    : []),
  `  Graph base URL: ${sim.graphBaseUrl}`,
  `  CA certificate: ${sim.caCertificatePath}`,
  `  trust it in Node.js: NODE_EXTRA_CA_CERTS=${sim.caCertificatePath}`,
  `  throttling: POST ${sim.url}/_simulator/throttle with the header ${CONTROL_HEADER}: ${sim.controlKey}`,
  `  consent: POST ${sim.url}/_simulator/consent with the same header`,
  `  token faults: POST ${sim.url}/_simulator/token with the same header`,
  `  content changes: POST ${sim.url}/_simulator/evolve with the same header`,
  ...(options.signInApps ?? []).map(
    (a) => `  sign-in app ${a.clientId}: authorize at ${sim.authorityHost}/<tenantId>/oauth2/v2.0/authorize`,
  ),
  ...(options.multiTenantApps ?? []).map(
    (a) => `  multi-tenant app ${a.clientId}: admin consent at ${sim.authorityHost}/organizations/v2.0/adminconsent`,
  ),
  '',
];
process.stdout.write(lines.join('\n'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: stopping\n`);
  await sim.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
