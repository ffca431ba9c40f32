/**
 * A fleet of tenants at once, as a managed-service partner has them: a few large and many small.
 * Each tenant's number of users is drawn from a bounded Pareto distribution (by default between 10 and
 * 200, shape 1.2: half of them have fewer than 20 users, about 3 % more than 100),
 * and its sites, teams and chats follow in proportion. Content per user is kept small (a few files and
 * messages), so that 500 tenants are made in seconds and held in memory. The same seed gives the same
 * fleet: the same tenant ids in the same order with the same sizes.
 */
import { createHash } from 'node:crypto';
import type { TenantSize } from './model.js';

export interface FleetOptions {
  /** How many tenants (with `tenantIds`: as many as it lists). */
  count?: number;
  /**
   * The tenants to draw sizes for, instead of ids derived from the seed (e.g. the tenants a database
   * already has); the n-th gets the n-th draw of the seed.
   */
  tenantIds?: readonly string[];
  /** The seed of the draw: the same seed, the same fleet. `fleet` by default. */
  seed?: string | number;
  /** The fewest users of a tenant (10 by default). */
  minUsers?: number;
  /** The most users of a tenant (200 by default). */
  maxUsers?: number;
  /**
   * The Pareto shape (1.2 by default): smaller means more large tenants, larger more small ones.
   */
  shape?: number;
  /** Sizes laid over every tenant's own (e.g. `{ filesPerDrive: 1 }` to make them lighter still). */
  size?: Partial<TenantSize>;
}

export interface FleetTenant {
  tenantId: string;
  /** Its content: `users` drawn, the rest in proportion to it, `FleetOptions.size` over them. */
  size: Partial<TenantSize>;
}

/** The largest fleet made at once. */
export const MAX_FLEET = 10_000;

/** The seed's draws as numbers in [0, 1): the first 48 bits of a hash of the seed and the draw's number. */
function uniform(seed: string, n: number): number {
  const digest = createHash('sha256').update(`${seed}|${n}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A GUID (version 4 form) derived from the seed and the tenant's number. */
function tenantGuid(seed: string, n: number, attempt: number): string {
  const h = createHash('sha256').update(`fleet-tenant|${seed}|${n}|${attempt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Number.parseInt(h[16] ?? '0', 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The number of users at quantile `u` of a Pareto distribution bounded to [min, max] with `shape`
 * (the inverse of its distribution function), rounded down.
 */
function boundedPareto(u: number, min: number, max: number, shape: number): number {
  const ratio = (min / max) ** shape;
  const x = min / (1 - u * (1 - ratio)) ** (1 / shape);
  return Math.min(max, Math.max(min, Math.floor(x)));
}

/**
 * The content of a tenant of `users` accounts: a SharePoint site per 15 accounts, a team per 20,
 * a chat per 10 (at least one of each), and per account a OneDrive of three files in two versions
 * and mailboxes of two messages a folder, two events (a series and an all-day event) in the default
 * calendar, two contacts and two tasks.
 */
export function fleetTenantSize(users: number): Partial<TenantSize> {
  return {
    users,
    sites: Math.max(1, Math.round(users / 15)),
    teams: Math.max(1, Math.round(users / 20)),
    channelsPerTeam: users >= 50 ? 2 : 1,
    foldersPerDrive: 1,
    filesPerDrive: 3,
    versionsPerFile: 2,
    fileSize: [1_000, 8_000],
    templateEvery: 3,
    messagesPerFolder: 2,
    messagesPerChannel: 2,
    repliesPerMessage: 1,
    chats: Math.max(1, Math.round(users / 10)),
    messagesPerChat: 2,
    extraCalendars: 0,
    eventsPerCalendar: 2,
    extraContactFolders: 0,
    contactsPerFolder: 2,
    extraTaskLists: 0,
    tasksPerList: 2,
  };
}

/**
 * `count` tenants drawn for `seed`: ids and sizes, to give the simulator as its `tenants` (with a
 * client id and secret each, or without for any). Tenant ids are GUIDs whose first six hex digits
 * differ, so their domains (`t<six hex digits>.onmicrosoft.com`) do too; or those of `tenantIds`.
 */
export function fleetTenants(options: FleetOptions): FleetTenant[] {
  const count = options.tenantIds?.length ?? options.count ?? 0;
  const min = options.minUsers ?? 10;
  const max = options.maxUsers ?? 200;
  const shape = options.shape ?? 1.2;
  if (!Number.isInteger(count) || count < 0 || count > MAX_FLEET) {
    throw new Error(`count must be a whole number from 0 to ${MAX_FLEET}`);
  }
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) {
    throw new Error('minUsers and maxUsers must be whole numbers, 1 <= minUsers <= maxUsers');
  }
  if (!(shape > 0)) throw new Error('shape must be more than 0');
  const seed = String(options.seed ?? 'fleet');
  const prefixes = new Set<string>();
  const tenants: FleetTenant[] = [];
  for (let n = 0; n < count; n++) {
    let tenantId = options.tenantIds?.[n]?.toLowerCase() ?? tenantGuid(seed, n, 0);
    if (!options.tenantIds) {
      for (let attempt = 1; prefixes.has(tenantId.slice(0, 6)); attempt++) tenantId = tenantGuid(seed, n, attempt);
      prefixes.add(tenantId.slice(0, 6));
    }
    const users = boundedPareto(uniform(seed, n), min, max, shape);
    tenants.push({ tenantId, size: { ...fleetTenantSize(users), ...options.size } });
  }
  return tenants;
}
