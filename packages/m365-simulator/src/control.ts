/**
 * The simulator controlled from outside the process. Throttling: M365_SIMULATOR_THROTTLE at start and
 * `/_simulator/throttle` (GET reads, POST sets), so a running demo or a test can make Graph answer 429
 * or 503 with Retry-After on any path. Consent: `/_simulator/consent` (GET reads every tenant's, POST
 * sets one tenant's), the application permissions its next tokens carry as `roles`, so a test or a
 * demo can withdraw a permission and see Graph refuse. Token faults: `/_simulator/token` (GET reads
 * every tenant's, POST sets one tenant's), how the token endpoint refuses that tenant's client
 * credentials, each with Entra ID's AADSTS code. The endpoints need the `x-simulator-control`
 * header with the simulator's control key, so a stray request cannot change them.
 */
import { timingSafeEqual } from 'node:crypto';
import { graphError, type SimRequest, type SimResponse } from './graph/odata.js';
import type { SimulatorState } from './handler.js';
import { TOKEN_FAULTS, type TokenFault } from './identity.js';
import type { Evolution } from './model.js';
import { ID_TOKEN_FAULTS, type IdTokenFault } from './sign-in.js';

export const THROTTLE_ENV = 'M365_SIMULATOR_THROTTLE';
export const CONTROL_KEY_ENV = 'M365_SIMULATOR_CONTROL_KEY';
export const CONTROL_HEADER = 'x-simulator-control';
export const CONTROL_PREFIX = '_simulator';

export interface ThrottleSetting {
  /** Every n-th request (counted from this setting on) among those `paths` matches is refused; 0: never. */
  every: number;
  status: 429 | 503;
  /** Seconds in the Retry-After header. */
  retryAfter: number;
  /** A regular expression the request path (e.g. /v1.0/users) must match; all Graph paths when unset. */
  paths?: string;
}

const NO_THROTTLE: ThrottleSetting = { every: 0, status: 429, retryAfter: 0 };

/** Checks and completes a setting; throws a message for a wrong one. */
export function throttleSetting(input: Record<string, unknown>): ThrottleSetting {
  const known = new Set(['every', 'status', 'retryAfter', 'paths']);
  for (const key of Object.keys(input)) if (!known.has(key)) throw new Error(`unknown throttle setting "${key}"`);
  const every = Number(input.every ?? 0);
  if (!Number.isInteger(every) || every < 0) throw new Error('every must be a whole number, 0 or more');
  const status = Number(input.status ?? 429);
  if (status !== 429 && status !== 503) throw new Error('status must be 429 or 503');
  const retryAfter = Number(input.retryAfter ?? 0);
  if (!Number.isInteger(retryAfter) || retryAfter < 0) throw new Error('retryAfter must be whole seconds, 0 or more');
  const paths = input.paths === undefined || input.paths === '' ? undefined : String(input.paths);
  if (paths !== undefined) new RegExp(paths);
  return { every, status, retryAfter, ...(paths !== undefined ? { paths } : {}) };
}

/**
 * M365_SIMULATOR_THROTTLE's form: `every=5,status=429,retryAfter=2,paths=^/v1.0/users` (a comma
 * starts a new setting only before a known name, so `paths` may hold commas).
 */
export function parseThrottle(text: string | undefined): ThrottleSetting | undefined {
  if (!text?.trim()) return undefined;
  const input: Record<string, string> = {};
  for (const part of text.split(/,(?=\s*(?:every|status|retryAfter|paths)\s*=)/)) {
    const at = part.indexOf('=');
    if (at < 0) throw new Error(`${THROTTLE_ENV}: "${part}" is not name=value`);
    input[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  try {
    return throttleSetting(input);
  } catch (error) {
    throw new Error(`${THROTTLE_ENV}: ${(error as Error).message}`);
  }
}

/** The current setting and its count of matching requests. */
export class Throttle {
  private current: ThrottleSetting = NO_THROTTLE;
  private pattern: RegExp | undefined;
  private count = 0;

  constructor(setting: ThrottleSetting = NO_THROTTLE) {
    this.set(setting);
  }

  get setting(): ThrottleSetting {
    return { ...this.current };
  }

  set(setting: ThrottleSetting) {
    this.current = { ...setting };
    this.pattern = setting.paths ? new RegExp(setting.paths) : undefined;
    this.count = 0;
  }

  /** The refusal for this request, if it is one of every n-th matching requests. */
  check(path: string): SimResponse | undefined {
    const { every, status, retryAfter } = this.current;
    if (every <= 0 || (this.pattern && !this.pattern.test(path))) return undefined;
    this.count += 1;
    if (this.count % every !== 0) return undefined;
    const headers = { 'retry-after': String(retryAfter) };
    return status === 503
      ? graphError(503, 'serviceNotAvailable', 'The service is temporarily unavailable. Retry after a while.', headers)
      : graphError(429, 'TooManyRequests', 'Too many requests.', headers);
  }
}

const controlError = (status: number, code: string, message: string): SimResponse => ({
  status,
  json: { error: { code, message } },
});

function keyMatches(given: string | undefined, key: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the control endpoint reads and changes. */
export interface Controls {
  throttle: { get(): ThrottleSetting; set(setting: ThrottleSetting): void };
  consent: {
    /** Each tenant's consent set. */
    get(): Record<string, string[]>;
    /** Replaces a tenant's consent set; false for a tenant the simulator does not serve. */
    set(tenantId: string, roles: string[]): boolean;
  };
  /** The fault the next ID tokens of user sign-in carry (sign-in.ts). */
  signIn: { get(): IdTokenFault; set(fault: IdTokenFault): void };
  /** How the token endpoint refuses each tenant's client credentials (identity.ts). */
  tokenFault: {
    get(): Record<string, TokenFault>;
    /** Sets a tenant's; false for a tenant the simulator does not serve. */
    set(tenantId: string, fault: TokenFault): boolean;
  };
  /** Changes a tenant's content as time passing would (new, edited, deleted files and messages); null for an unknown tenant. */
  evolve(tenantId: string, change: Evolution): number | null;
  /** The tenants served, in the order given, with what they hold. */
  tenants(): ServedTenantSummary[];
  /** Graph requests answered and throttled so far, and the most in flight at once (SimulatorState.stats). */
  stats(): SimulatorState['stats'];
}

/** A served tenant as `GET /_simulator/tenants` lists it. */
interface ServedTenantSummary {
  tenantId: string;
  domain: string;
  /** Accounts with a mailbox (the guest not counted). */
  users: number;
  sites: number;
  teams: number;
}

/** An application permission's name as Entra ID writes it: `Files.Read.All`, `Mail.ReadWrite`. */
const PERMISSION_NAME = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9-]+)*$/;

/** A POST body as an object, or a message saying why not. */
function jsonObject(request: SimRequest): Record<string, unknown> {
  const body = JSON.parse(request.body.toString('utf8') || '{}') as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the body must be an object');
  return body as Record<string, unknown>;
}

/** Checks `{ tenantId, roles }` of a consent change; throws a message for a wrong one. */
function consentChange(input: Record<string, unknown>): { tenantId: string; roles: string[] } {
  for (const key of Object.keys(input)) {
    if (key !== 'tenantId' && key !== 'roles') throw new Error(`unknown consent setting "${key}"`);
  }
  if (typeof input.tenantId !== 'string' || !input.tenantId) throw new Error('tenantId must name a tenant');
  const { roles } = input;
  if (!Array.isArray(roles) || !roles.every((r): r is string => typeof r === 'string' && PERMISSION_NAME.test(r))) {
    throw new Error('roles must be a list of application permissions, e.g. ["User.Read.All", "Files.Read.All"]');
  }
  return { tenantId: input.tenantId, roles: [...new Set(roles)] };
}

const EVOLUTION_COUNTS = [
  'newFiles',
  'editedFiles',
  'deletedFiles',
  'newMessages',
  'newChannelMessages',
  'newChatMessages',
  'newListItems',
  'editedListItems',
  'deletedListItems',
  'editedPages',
  'newEvents',
  'editedEvents',
  'deletedEvents',
  'newContacts',
  'editedContacts',
  'deletedContacts',
  'newTasks',
  'editedTasks',
  'deletedTasks',
  'newTaskLists',
] as const;

/** Checks `{ tenantId, newFiles?, editedFiles?, …, at? }` of an evolve request; throws a message for a wrong one. */
function evolution(input: Record<string, unknown>): { tenantId: string; change: Evolution } {
  const known = new Set<string>(['tenantId', 'at', ...EVOLUTION_COUNTS]);
  for (const key of Object.keys(input)) if (!known.has(key)) throw new Error(`unknown evolve setting "${key}"`);
  if (typeof input.tenantId !== 'string' || !input.tenantId) throw new Error('tenantId must name a tenant');
  const change: Evolution = {};
  for (const key of EVOLUTION_COUNTS) {
    const value = input[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new Error(`${key} must be a whole number, 0 or more`);
    }
    change[key] = value;
  }
  if (input.at !== undefined) {
    if (typeof input.at !== 'string' || Number.isNaN(Date.parse(input.at)))
      throw new Error('at must be an ISO date-time');
    change.at = input.at;
  }
  return { tenantId: input.tenantId, change };
}

/** GET or POST `/_simulator/sign-in`. */
function signInControl(request: SimRequest, controls: Controls): SimResponse {
  if (request.method === 'GET') return { status: 200, json: { fault: controls.signIn.get() } };
  if (request.method !== 'POST') return controlError(405, 'methodNotAllowed', 'GET or POST.');
  try {
    const body = jsonObject(request);
    for (const key of Object.keys(body)) if (key !== 'fault') throw new Error(`unknown sign-in setting "${key}"`);
    const fault = ID_TOKEN_FAULTS.find((f) => f === body.fault);
    if (!fault) throw new Error(`fault must be one of ${ID_TOKEN_FAULTS.join(', ')}`);
    controls.signIn.set(fault);
    return { status: 200, json: { fault } };
  } catch (error) {
    return controlError(400, 'invalidRequest', (error as Error).message);
  }
}

/** GET or POST `/_simulator/token`. */
function tokenControl(request: SimRequest, controls: Controls): SimResponse {
  if (request.method === 'GET') return { status: 200, json: controls.tokenFault.get() };
  if (request.method !== 'POST') return controlError(405, 'methodNotAllowed', 'GET or POST.');
  try {
    const body = jsonObject(request);
    for (const key of Object.keys(body)) {
      if (key !== 'tenantId' && key !== 'fault') throw new Error(`unknown token setting "${key}"`);
    }
    if (typeof body.tenantId !== 'string' || !body.tenantId) throw new Error('tenantId must name a tenant');
    const fault = TOKEN_FAULTS.find((f) => f === body.fault);
    if (!fault) throw new Error(`fault must be one of ${TOKEN_FAULTS.join(', ')}`);
    if (!controls.tokenFault.set(body.tenantId, fault)) {
      return controlError(404, 'notFound', `The simulator does not serve tenant ${body.tenantId}.`);
    }
    return { status: 200, json: { tenantId: body.tenantId, fault } };
  } catch (error) {
    return controlError(400, 'invalidRequest', (error as Error).message);
  }
}

/**
 * `/_simulator/throttle`: GET answers the setting, POST (JSON) replaces it; `{ "every": 0 }` turns it
 * off. `/_simulator/consent`: GET answers `{ "<tenantId>": [roles…] }`, POST `{ "tenantId", "roles" }`
 * replaces that tenant's consent set (for tokens issued from now on) and answers it.
 * `/_simulator/evolve`: POST `{ "tenantId", "newFiles"?, "editedFiles"?, "deletedFiles"?, "newMessages"?,
 * "newChannelMessages"?, "newChatMessages"?, "newListItems"?, "editedListItems"?, "deletedListItems"?,
 * "editedPages"?, "newEvents"?, "editedEvents"?, "deletedEvents"?, "newContacts"?, "editedContacts"?,
 * "deletedContacts"?, "newTasks"?, "editedTasks"?, "deletedTasks"?, "newTaskLists"?, "at"? }` changes the
 * tenant's content (as `evolve` does).
 * `/_simulator/sign-in`: GET answers `{ "fault" }`, POST `{ "fault" }` sets how the next ID tokens of
 * user sign-in are made wrong (`none`, `otherTenant`, `wrongAudience`, `expired`, `replayedNonce`,
 * `tamperedSignature`), for a relying party's tests. `/_simulator/tenants`: GET answers `{ "value": [{
 * "tenantId", "domain", "users", "sites", "teams" }…] }`, the tenants served (a fleet's ids among them).
 * `/_simulator/stats`: GET answers `{ "requests", "throttled", "inFlight", "maxInFlight" }`, the Graph
 * requests answered so far, those refused by throttling, and the most in flight at once.
 * `/_simulator/token`: GET answers `{ "<tenantId>":
 * fault }`, POST `{ "tenantId", "fault" }` makes the token endpoint refuse that tenant's client
 * credentials (`invalidClientSecret`, `expiredClientSecret`, `unknownApplication`, `unknownTenant`,
 * `consentRequired`) until set back to `none`.
 */
export function controlRequest(
  request: SimRequest,
  rest: string[],
  controlKey: string,
  controls: Controls,
): SimResponse {
  if (!keyMatches(request.headers[CONTROL_HEADER], controlKey)) {
    return controlError(403, 'forbidden', `The ${CONTROL_HEADER} header must carry the simulator's control key.`);
  }
  const what = rest.join('/');
  if (what === 'sign-in') return signInControl(request, controls);
  if (what === 'token') return tokenControl(request, controls);
  if (what === 'tenants' || what === 'stats') {
    if (request.method !== 'GET') return controlError(405, 'methodNotAllowed', 'GET.');
    return { status: 200, json: what === 'tenants' ? { value: controls.tenants() } : controls.stats() };
  }
  if (what !== 'throttle' && what !== 'consent' && what !== 'evolve') {
    return controlError(404, 'notFound', 'Unknown control path.');
  }
  if (what === 'evolve' && request.method !== 'POST') return controlError(405, 'methodNotAllowed', 'POST.');
  if (request.method === 'GET') {
    return { status: 200, json: what === 'throttle' ? controls.throttle.get() : controls.consent.get() };
  }
  if (request.method !== 'POST') return controlError(405, 'methodNotAllowed', 'GET or POST.');
  try {
    const body = jsonObject(request);
    if (what === 'throttle') {
      controls.throttle.set(throttleSetting(body));
      return { status: 200, json: controls.throttle.get() };
    }
    if (what === 'evolve') {
      const { tenantId, change } = evolution(body);
      const clock = controls.evolve(tenantId, change);
      if (clock === null) return controlError(404, 'notFound', `The simulator does not serve tenant ${tenantId}.`);
      return { status: 200, json: { tenantId, clock } };
    }
    const { tenantId, roles } = consentChange(body);
    if (!controls.consent.set(tenantId, roles)) {
      return controlError(404, 'notFound', `The simulator does not serve tenant ${tenantId}.`);
    }
    return { status: 200, json: { tenantId, roles } };
  } catch (error) {
    return controlError(400, 'invalidRequest', (error as Error).message);
  }
}
