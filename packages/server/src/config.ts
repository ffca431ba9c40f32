import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL when set; PGlite in `dataDir` otherwise. */
  databaseUrl: string | undefined;
  /** The application key of the apollo API (not a user credential). */
  apiKey: string;
  /** 32 bytes for AES-256-GCM of tenant client secrets and authenticator keys. */
  secretKey: Buffer;
  /**
   * The secret key is read from a file inside `dataDir` (demo mode, or PORTAL_SECRET_KEY_IN_DATA_DIR=allow):
   * whoever copies the data directory can open everything it protects. Outside demo mode the server warns at every start.
   */
  secretKeyInDataDir?: boolean;
  demoPassword: string | undefined;
  /** The demo tenants' client secret (PORTAL_DEMO_CLIENT_SECRET); random per tenant when unset. */
  demoClientSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where support requests from /account/support are mailed. */
  supportEmail: string;
  /** The support line shown on /account/support. */
  supportPhone: string;
  /** Where links in mails point, such as https://portal.example.com. */
  publicUrl: string;
  corsOrigins: string[];
  /** The built PWA, served at / when present. */
  webDir: string;
  /** Serve the PWA's source maps (PORTAL_SOURCE_MAPS); off by default, so its sources stay private. */
  sourceMaps: boolean;
  logLevel: string;
  /** Requests per minute per address on each auth route. */
  authRateLimit: number;
  /** Job runs one worker process executes at once (PORTAL_WORKER_CONCURRENCY; the engine's default when unset). */
  workerConcurrency?: number;
  /**
   * Job runs of one tenant executed at once by all workers together (PORTAL_WORKER_TENANT_CONCURRENCY;
   * the engine's default, 1, when unset).
   */
  workerTenantConcurrency?: number;
  /**
   * A run that held its slot this long while other tenants' runs wait yields at its next checkpoint
   * (PORTAL_WORKER_TIME_SLICE_MINUTES, 0: never; the engine's default, 10 minutes, when unset).
   */
  workerTimeSliceMs?: number;
  /**
   * The scheduled notifications (PORTAL_NOTIFICATIONS, on by default): the processes that run jobs
   * (roles `all` and `worker`) also send the daily summaries, weekly reports and licence warnings the
   * users' notification settings ask for; off: none is sent (the mails about a run that ended are not
   * scheduled and stay on).
   */
  notifications: boolean;
  /**
   * How long a partner's fleet (its clients' health) is reused once read, in milliseconds
   * (PORTAL_FLEET_SNAPSHOT_MS; 5000 when unset, 0 reads it for every request).
   */
  fleetSnapshotMs?: number;
  /**
   * Demo mode (PORTAL_DEMO): an empty database gets the demo world, the Graph-compatible simulator
   * serves the demo tenants over https on a port of its own, and mailed links are logged. On by
   * default only on the embedded database; off by default when DATABASE_URL is set.
   */
  demo: boolean;
  /**
   * Demo mode only (PORTAL_DEMO_HISTORY, on by default): the demo world is made with thirty days of
   * history, run by the job engine against the simulator (see demo/demo-history.ts); off: it starts empty.
   */
  demoHistory: boolean;
  /**
   * Demo mode only (PORTAL_DEMO_CLIENTS, 3 by default): how many client organisations the demo partner
   * has. The first three are always Northwind, Tailspin and Woodgrove; the others are drawn for the
   * demo (a tenant each in the simulator, of 10 to 200 users, few large and many small) with jobs and
   * two days of history, so the partner's fleet has clients in every state.
   */
  demoClients: number;
  /** Content sizes of each simulated tenant (see TenantSize), from PORTAL_M365_SIMULATOR_SIZE as JSON. */
  m365SimulatorSize: Record<string, number>;
  /** The demo simulator's https port on 127.0.0.1 (PORTAL_M365_SIMULATOR_PORT; 0: any free one). */
  m365SimulatorPort: number;
  /**
   * Who may create an account with apollo `POST /register` and the PWA's sign-up (PORTAL_SELF_REGISTRATION):
   * `open` anyone (a new organisation on a trial licence each), `closed` nobody, `first` only the first
   * organisation of an empty portal, closed once one exists. Open in demo mode, `first` otherwise.
   */
  selfRegistration: SelfRegistration;
  issuer: string;
  /**
   * Where blobs (backed-up versions, archived mail and messages) are kept: an Azure Blob Storage
   * container (PORTAL_BLOB_STORE, its URL; PORTAL_BLOB_STORE_KEY, the account's shared key, or a SAS
   * in the URL instead), so several processes on several machines share them; the directory `blobs`
   * in `dataDir` when unset.
   */
  blobStore?: { url: string; accountKey: string | undefined };
  /**
   * The portal's app registration in Microsoft Entra ID for "Sign in with Microsoft" (PORTAL_ENTRA_CLIENT_ID,
   * PORTAL_ENTRA_CLIENT_SECRET; PORTAL_ENTRA_AUTHORITY, https://login.microsoftonline.com by default): a
   * multi-tenant web app whose redirect URI is `{publicUrl}/signin/microsoft`. In demo mode without it,
   * the demo simulator is the identity platform.
   */
  entra?: EntraApp;
  /**
   * The Microsoft cloud the portal's tenants are in: its identity platform (PORTAL_M365_AUTHORITY,
   * https://login.microsoftonline.com by default) and Microsoft Graph (PORTAL_M365_GRAPH,
   * https://graph.microsoft.com by default), both https origins; another for a national cloud (US
   * Government, 21Vianet) or a test double. Admin consent links lead to its authority, and a tenant
   * connected while it is set keeps its endpoints.
   */
  m365Cloud: M365Cloud;
}

/** Microsoft's global cloud: where tenants are unless PORTAL_M365_AUTHORITY and PORTAL_M365_GRAPH say otherwise. */
export const MICROSOFT_CLOUD = {
  authority: 'https://login.microsoftonline.com',
  graph: 'https://graph.microsoft.com',
} as const;

/** A Microsoft cloud's https origins (see Config.m365Cloud). */
export interface M365Cloud {
  authority: string;
  graph: string;
}

/** PORTAL_SELF_REGISTRATION's values (see Config.selfRegistration). */
type SelfRegistration = 'open' | 'closed' | 'first';

/** A web app registered with an identity platform for user sign-in (OpenID Connect). */
export interface EntraApp {
  clientId: string;
  clientSecret: string;
  /** The identity platform's origin; a tenant's issuer is `{authority}/{tenantId}/v2.0`. */
  authority: string;
}

type Env = Record<string, string | undefined>;

/** The trimmed content of `file`, made with `create()` (owner-only) when it does not exist yet. */
export function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return value;
}

/** A configuration the server refuses to start with: its message says what to set, and is all the operator sees. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseKey(text: string, name = 'PORTAL_SECRET_KEY'): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new ConfigError(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

function parseSize(text: string | undefined): Record<string, number> {
  if (!text) return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Object.values(value).some((v) => typeof v !== 'number')) {
    throw new Error('PORTAL_M365_SIMULATOR_SIZE must be a JSON object of numbers, e.g. {"filesPerDrive":200}');
  }
  return value as Record<string, number>;
}

/** The most client organisations PORTAL_DEMO_CLIENTS gives the demo partner. */
const MAX_DEMO_CLIENTS = 2000;

function parseDemoClients(text: string | undefined): number {
  const count = text === undefined || text === '' ? 3 : Number(text);
  if (!Number.isInteger(count) || count < 3 || count > MAX_DEMO_CLIENTS) {
    throw new ConfigError(`PORTAL_DEMO_CLIENTS must be a whole number from 3 to ${MAX_DEMO_CLIENTS}, not ${text}`);
  }
  return count;
}

/** A whole number of at least `min` from the variable `name`; anything else stops the server, naming it. */
function parseCount(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new ConfigError(`${name} is a whole number of at least ${min}, not "${text}".`);
  return n;
}

/** `{ [key]: n }` when the variable is set, else nothing (the engine's default applies). */
function optionalCount<K extends string>(
  key: K,
  name: string,
  text: string | undefined,
  min: number,
): Partial<Record<K, number>> {
  return text ? ({ [key]: parseCount(name, text, min) } as Record<K, number>) : {};
}

function parsePort(name: string, text: string | undefined, fallback: number): number {
  const port = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} is not a port: ${text}`);
  return port;
}

/**
 * PORTAL_SELF_REGISTRATION. Outside demo mode the default is `first`: an empty portal needs its first
 * administrator, who signs up in the browser; after that, every new organisation may reach Microsoft 365
 * and storage addresses from the server, so further ones come from a partner or the operator unless the
 * operator opens sign-up.
 */
function parseSelfRegistration(text: string | undefined, demo: boolean): SelfRegistration {
  if (text === undefined || text === '') return demo ? 'open' : 'first';
  if (text === 'open' || text === 'closed' || text === 'first') return text;
  throw new ConfigError(`PORTAL_SELF_REGISTRATION must be open, closed or first, not ${text}`);
}

function parseMillis(name: string, text: string): number {
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 0)
    throw new ConfigError(`${name} must be a whole number of milliseconds, not ${text}`);
  return ms;
}

function parseSwitch(name: string, text: string | undefined, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  if (/^(on|true|1|yes)$/i.test(text)) return true;
  if (/^(off|false|0|no)$/i.test(text)) return false;
  throw new Error(`${name} must be on or off, not ${text}`);
}

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Reads the configuration from the environment; keys that are unset are generated once in the data directory. */
export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST ?? '127.0.0.1';
  const port = parsePort('PORT', env.PORT, 8080);
  const dataDir = resolve(env.PORTAL_DATA_DIR ?? './data');
  const demo = parseSwitch('PORTAL_DEMO', env.PORTAL_DEMO, !env.DATABASE_URL);
  const secret = secretKeyOf(env, dataDir, demo);
  return {
    host,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    apiKey: env.PORTAL_API_KEY || readOrCreate(join(dataDir, 'api-key'), () => randomBytes(24).toString('base64url')),
    secretKey: secret.key,
    ...(secret.inDataDir ? { secretKeyInDataDir: true } : {}),
    demoPassword: env.PORTAL_DEMO_PASSWORD || undefined,
    demoClientSecret: env.PORTAL_DEMO_CLIENT_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Compliance Portal <no-reply@portal.localhost>',
    supportEmail: env.SUPPORT_EMAIL || 'support@compliance-portal.example',
    supportPhone: env.SUPPORT_PHONE || '+49 89 1234 5670',
    publicUrl: (env.PORTAL_PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/$/, ''),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    webDir: resolve(env.PORTAL_WEB_DIR ?? join(packageRoot, '..', 'web', 'dist')),
    sourceMaps: parseSwitch('PORTAL_SOURCE_MAPS', env.PORTAL_SOURCE_MAPS, false),
    logLevel: env.LOG_LEVEL ?? 'info',
    authRateLimit: Number(env.PORTAL_AUTH_RATE_LIMIT ?? 20),
    ...optionalCount('workerConcurrency', 'PORTAL_WORKER_CONCURRENCY', env.PORTAL_WORKER_CONCURRENCY, 1),
    ...optionalCount(
      'workerTenantConcurrency',
      'PORTAL_WORKER_TENANT_CONCURRENCY',
      env.PORTAL_WORKER_TENANT_CONCURRENCY,
      1,
    ),
    ...(env.PORTAL_WORKER_TIME_SLICE_MINUTES
      ? {
          workerTimeSliceMs:
            parseCount('PORTAL_WORKER_TIME_SLICE_MINUTES', env.PORTAL_WORKER_TIME_SLICE_MINUTES, 0) * 60_000,
        }
      : {}),
    notifications: parseSwitch('PORTAL_NOTIFICATIONS', env.PORTAL_NOTIFICATIONS, true),
    ...(env.PORTAL_FLEET_SNAPSHOT_MS
      ? { fleetSnapshotMs: parseMillis('PORTAL_FLEET_SNAPSHOT_MS', env.PORTAL_FLEET_SNAPSHOT_MS) }
      : {}),
    demo,
    demoHistory: parseSwitch('PORTAL_DEMO_HISTORY', env.PORTAL_DEMO_HISTORY, true),
    demoClients: parseDemoClients(env.PORTAL_DEMO_CLIENTS),
    m365SimulatorSize: parseSize(env.PORTAL_M365_SIMULATOR_SIZE),
    m365SimulatorPort: parsePort('PORTAL_M365_SIMULATOR_PORT', env.PORTAL_M365_SIMULATOR_PORT, 8444),
    selfRegistration: parseSelfRegistration(env.PORTAL_SELF_REGISTRATION, demo),
    issuer: env.PORTAL_TOTP_ISSUER ?? 'Compliance Portal',
    ...parseEntra(env),
    m365Cloud: {
      authority: parseOrigin('PORTAL_M365_AUTHORITY', env.PORTAL_M365_AUTHORITY, MICROSOFT_CLOUD.authority),
      graph: parseOrigin('PORTAL_M365_GRAPH', env.PORTAL_M365_GRAPH, MICROSOFT_CLOUD.graph),
    },
    ...(env.PORTAL_BLOB_STORE
      ? {
          blobStore: {
            url: parseContainerUrl(env.PORTAL_BLOB_STORE),
            accountKey: env.PORTAL_BLOB_STORE_KEY || undefined,
          },
        }
      : {}),
  };
}

/** The path with its existing part resolved through symbolic links, so a link cannot hide where a file is. */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPath(parent), basename(absolute));
  }
}

/** Is `path` the directory `dir` or below it? */
function isWithin(path: string, dir: string): boolean {
  const rel = relative(realPath(dir), realPath(path));
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

const MAKE_A_KEY =
  'Make one with `openssl rand -hex 32` and give it as PORTAL_SECRET_KEY (the value) or PORTAL_SECRET_KEY_FILE (a file outside the data directory, readable only by the server)';

/**
 * PORTAL_SECRET_KEY (the value) or PORTAL_SECRET_KEY_FILE (a file holding it). The key seals what the
 * data directory holds (tenant secrets, the organisations' data keys), so outside demo mode it may not
 * sit in that directory, where a copy of the directory would carry its own key: a key file inside it
 * is refused, and with neither variable set the server does not start, unless the operator says
 * PORTAL_SECRET_KEY_IN_DATA_DIR=allow (then `secret.key` is generated there once, as in demo mode).
 */
function secretKeyOf(env: Env, dataDir: string, demo: boolean): { key: Buffer; inDataDir: boolean } {
  const override = env.PORTAL_SECRET_KEY_IN_DATA_DIR;
  if (override && override !== 'allow') {
    throw new ConfigError(`PORTAL_SECRET_KEY_IN_DATA_DIR is "allow" or unset, not "${override}".`);
  }
  const allowed = demo || override === 'allow';
  const value = env.PORTAL_SECRET_KEY;
  const file = env.PORTAL_SECRET_KEY_FILE;
  if (value && file) throw new ConfigError('Set PORTAL_SECRET_KEY or PORTAL_SECRET_KEY_FILE, not both.');
  if (value) return { key: parseKey(value), inDataDir: false };
  if (file) {
    const path = resolve(file);
    const inDataDir = isWithin(path, dataDir);
    if (inDataDir && !allowed) {
      throw new ConfigError(
        `PORTAL_SECRET_KEY_FILE (${path}) is inside the data directory ${dataDir}, whose secrets the key protects: a copy of the directory would carry its key. Keep the key file elsewhere, or set PORTAL_SECRET_KEY_IN_DATA_DIR=allow to accept that.`,
      );
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8').trim();
    } catch (error) {
      throw new ConfigError(
        `PORTAL_SECRET_KEY_FILE (${path}) cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}). ${MAKE_A_KEY}.`,
      );
    }
    return { key: parseKey(text, `The key in PORTAL_SECRET_KEY_FILE (${path})`), inDataDir };
  }
  if (!allowed) {
    throw new ConfigError(
      `No secret key: set PORTAL_SECRET_KEY or PORTAL_SECRET_KEY_FILE. ${MAKE_A_KEY}. Outside demo mode the server does not keep its key in the data directory (${dataDir}) it protects; to do so anyway, set PORTAL_SECRET_KEY_IN_DATA_DIR=allow (the key is then generated into ${join(dataDir, 'secret.key')}, and every start warns).`,
    );
  }
  const text = readOrCreate(join(dataDir, 'secret.key'), () => randomBytes(32).toString('hex'));
  return { key: parseKey(text), inDataDir: true };
}

function parseEntra(env: Env): { entra?: EntraApp } {
  const clientId = env.PORTAL_ENTRA_CLIENT_ID;
  const clientSecret = env.PORTAL_ENTRA_CLIENT_SECRET;
  if (!clientId && !clientSecret) return {};
  if (!clientId || !clientSecret) {
    throw new Error('PORTAL_ENTRA_CLIENT_ID and PORTAL_ENTRA_CLIENT_SECRET are set together, or neither');
  }
  const authority = (env.PORTAL_ENTRA_AUTHORITY || 'https://login.microsoftonline.com').replace(/\/+$/, '');
  if (!URL.canParse(authority) || new URL(authority).protocol !== 'https:') {
    throw new Error(
      `PORTAL_ENTRA_AUTHORITY must be an https origin such as https://login.microsoftonline.com, not "${authority}"`,
    );
  }
  return { entra: { clientId, clientSecret, authority } };
}

/** An https origin (no path, query, fragment or credentials) without its trailing slash; `fallback` when unset. */
function parseOrigin(name: string, text: string | undefined, fallback: string): string {
  if (text === undefined || text.trim() === '') return fallback;
  const value = text.trim().replace(/\/+$/, '');
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'https:' || url.origin !== value) {
    throw new ConfigError(`${name} must be an https origin such as ${fallback}, not "${text}"`);
  }
  return value;
}

/** An Azure Blob Storage container's URL: http(s), with the container as the last segment of its path. */
function parseContainerUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname.replace(/\/+$/, '') === '') {
    throw new Error(
      `PORTAL_BLOB_STORE must be a container URL such as https://<account>.blob.core.windows.net/<container>, not "${value}"`,
    );
  }
  return value;
}
