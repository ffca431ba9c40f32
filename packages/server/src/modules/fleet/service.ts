/**
 * A partner's fleet: each client's health and what needs attention first.
 *
 * The whole fleet is computed at once with a handful of set-based queries (repository.ts) and kept as
 * a snapshot per partner (an operator's: every partner's clients) for a few seconds
 * (`fleetSnapshotMs`, 5 s by default): a partner's list is paged, sorted and filtered many times in a
 * row, and each such request then only pages, sorts and filters an array in memory. `generatedAt`
 * says when the snapshot's figures were read. A snapshot expires by age only (see snapshotFor);
 * nothing else drops it, so a change (a client added, a run failed) shows within at most twice that age.
 */
import {
  FLEET_AREAS,
  type FLEET_SORTS,
  type FleetArea,
  type FleetAttention,
  type FleetClient,
  type FleetIssueCode,
  type FleetPage,
  type FleetQuery,
} from '@compliance-portal/sdk';
import { requireRole } from '../../access/scope.js';
import type { AppContext } from '../../context.js';
import { ownValue } from '../../http/list-query.js';
import type { User } from '../identity/users.js';
import {
  type CoverageKind,
  type FleetAreaJobsRow,
  type FleetClientRow,
  type FleetRunRow,
  type FleetScope,
  fleetAreaJobs,
  fleetClients,
  fleetConnectionTests,
  fleetCoverage,
  fleetRunning,
  fleetRuns,
  fleetStorage,
} from './repository.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long a fleet snapshot is reused when the configuration does not say. */
const SNAPSHOT_MS = 5_000;
/** A job whose newest success is older than this is overdue. */
const OVERDUE_MS = 48 * HOUR;
/** A licence ending within this is about to expire. */
const EXPIRING_MS = 14 * DAY;
const DEFAULT_PAGE_SIZE = 25;

/** What the issue rules look at, per client. */
interface ClientFacts {
  now: Date;
  client: FleetClientRow;
  connection: FleetClient['connection'];
  /** Runs of the period per area (the key `null`: runs of jobs outside the five areas). */
  runs: ReadonlyMap<FleetArea | null, FleetRunRow>;
  jobs: ReadonlyMap<FleetArea, FleetAreaJobsRow>;
}

type Level = Exclude<FleetAttention, 'ok'>;
type Found = { area?: FleetArea; count?: number };

interface IssueRule {
  code: FleetIssueCode;
  level: Level;
  /** The client's issues of this rule: none, one, or one per area. */
  find(facts: ClientFacts): Found[];
}

/** One issue per area (and one without area, for runs outside the areas) where `count` is above 0. */
const perRunArea =
  (count: (r: FleetRunRow) => number) =>
  ({ runs }: ClientFacts): Found[] =>
    [...runs.values()]
      .filter((r) => count(r) > 0)
      .sort((a, b) => areaRank(a.area) - areaRank(b.area))
      .map((r) => ({ ...(r.area ? { area: r.area } : {}), count: count(r) }));
const perJobArea =
  (count: (j: FleetAreaJobsRow) => number) =>
  ({ jobs }: ClientFacts): Found[] =>
    FLEET_AREAS.flatMap((area) => {
      const row = jobs.get(area);
      const n = row ? count(row) : 0;
      return n > 0 ? [{ area, count: n }] : [];
    });
const when = (condition: boolean): Found[] => (condition ? [{}] : []);
const areaRank = (area: FleetArea | null) => (area ? FLEET_AREAS.indexOf(area) : FLEET_AREAS.length);
const licenceEnd = (f: ClientFacts) => f.client.licenseValidUntil?.getTime();

/**
 * The rules of a client's attention, most urgent first (a client's issues are listed in this order).
 * Critical: a run failed in the last 24 hours, the connection test failed, the worker acts for no
 * tenant, the licence has expired, or an area has an enabled job that ran and never succeeded
 * (neverBackedUp) or whose newest success is older than 48 hours (backupOverdue). Warning: runs that
 * finished with warnings in the last 24 hours, runs that failed in the last 7 days but none in the
 * last 24 hours, a licence ending within 14 days, a connection never tested, no storage location.
 * A client's attention is the level of its most urgent issue; `ok` without any.
 */
const ISSUE_RULES: readonly IssueRule[] = [
  { code: 'noTenant', level: 'critical', find: (f) => when(f.client.tenantId === null) },
  { code: 'connectionFailed', level: 'critical', find: (f) => when(f.connection.state === 'failed') },
  { code: 'runFailed', level: 'critical', find: perRunArea((r) => r.failed24h) },
  { code: 'neverBackedUp', level: 'critical', find: perJobArea((j) => j.neverSucceeded) },
  { code: 'backupOverdue', level: 'critical', find: perJobArea((j) => j.overdue) },
  {
    code: 'licenseExpired',
    level: 'critical',
    find: (f) => when((licenceEnd(f) ?? Number.POSITIVE_INFINITY) <= f.now.getTime()),
  },
  { code: 'runFailed', level: 'warning', find: perRunArea((r) => (r.failed24h === 0 ? r.failed7d : 0)) },
  { code: 'runWarning', level: 'warning', find: perRunArea((r) => r.warnings24h) },
  {
    code: 'licenseExpiring',
    level: 'warning',
    find: (f) => {
      const end = licenceEnd(f);
      return when(end !== undefined && end > f.now.getTime() && end - f.now.getTime() <= EXPIRING_MS);
    },
  },
  { code: 'connectionUntested', level: 'warning', find: (f) => when(f.connection.state === 'untested') },
  { code: 'noLocation', level: 'warning', find: (f) => when(f.client.tenantId !== null && !f.client.hasLocation) },
];

function assess(facts: ClientFacts): Pick<FleetClient, 'attention' | 'issues'> {
  let attention: FleetAttention = 'ok';
  const issues: FleetClient['issues'] = [];
  for (const rule of ISSUE_RULES) {
    const found = rule.find(facts);
    if (found.length === 0) continue;
    if (attention === 'ok' || (attention === 'warning' && rule.level === 'critical')) attention = rule.level;
    for (const f of found) issues.push({ code: rule.code, ...f });
  }
  return { attention, issues };
}

/** A client of the snapshot with what sorting and searching need, worked out once. */
interface Entry {
  client: FleetClient;
  /** Name, short name and tenant domain in lower case. */
  haystack: string;
  /** The oldest newest success of the areas the client has one in; null: it has none. */
  oldestSuccess: number | null;
  /** Protected of found over every kind, 0 to 1. */
  coverage: number;
}

interface Snapshot {
  generatedAt: string;
  entries: Entry[];
  counts: FleetPage['counts'];
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Reads the figures of every client of `scope` and assesses each. */
async function readSnapshot(ctx: AppContext, scope: FleetScope): Promise<Snapshot> {
  const now = ctx.now();
  const clients = await fleetClients(ctx.db, scope);
  const tenantIds = clients.flatMap((c) => (c.tenantId ? [c.tenantId] : []));
  const since7d = new Date(now.getTime() - 7 * DAY);
  // One after the other, not at once: the embedded database answers one statement at a time, so the
  // requests served meanwhile (each checks its session first) wait for one of these, not for all.
  const runs = await fleetRuns(ctx.db, tenantIds, since7d, new Date(now.getTime() - DAY));
  const running = await fleetRunning(ctx.db, tenantIds);
  const jobs = await fleetAreaJobs(ctx.db, tenantIds, new Date(now.getTime() - OVERDUE_MS));
  const coverage = await fleetCoverage(ctx.db, tenantIds);
  const storage = await fleetStorage(ctx.db, tenantIds, since7d);
  const tests = await fleetConnectionTests(ctx.db, tenantIds);
  const runsOf = groupBy(runs, (r) => r.tenantId);
  const jobsOf = groupBy(jobs, (r) => r.tenantId);
  const coverageOf = groupBy(coverage, (r) => r.tenantId);
  const storageOf = new Map(storage.map((r) => [r.tenantId, r]));
  const testOf = new Map(tests.map((r) => [r.tenantId, r]));

  const entries = clients.map((row): Entry => {
    const tenantId = row.tenantId;
    const tenantRuns = new Map((tenantId ? (runsOf.get(tenantId) ?? []) : []).map((r) => [r.area, r]));
    const tenantJobs = new Map((tenantId ? (jobsOf.get(tenantId) ?? []) : []).map((r) => [r.area, r]));
    const test = tenantId ? testOf.get(tenantId) : undefined;
    const connection: FleetClient['connection'] = !tenantId
      ? { state: 'none', testedAt: null }
      : test
        ? { state: test.ok ? 'ok' : 'failed', testedAt: test.testedAt.toISOString() }
        : { state: 'untested', testedAt: null };
    const facts: ClientFacts = { now, client: row, connection, runs: tenantRuns, jobs: tenantJobs };
    const total = (pick: (r: FleetRunRow) => number) => [...tenantRuns.values()].reduce((sum, r) => sum + pick(r), 0);
    const covered = (kind: CoverageKind) => {
      const c = (tenantId ? coverageOf.get(tenantId) : undefined)?.find((r) => r.kind === kind);
      return { protected: c?.protectedCount ?? 0, found: c?.found ?? 0 };
    };
    const stored = tenantId ? storageOf.get(tenantId) : undefined;
    const lastSuccess = Object.fromEntries(
      FLEET_AREAS.map((area) => [area, tenantJobs.get(area)?.lastSuccess?.toISOString() ?? null]),
    ) as FleetClient['lastSuccess'];
    const client: FleetClient = {
      clientId: row.clientId,
      name: row.name,
      abbr: row.abbr,
      license: row.license,
      licenseValidUntil: row.licenseValidUntil?.toISOString() ?? null,
      workerIp: row.workerIp,
      tenantDomain: row.tenantDomain,
      ...assess(facts),
      runs24h: { failed: total((r) => r.failed24h), warnings: total((r) => r.warnings24h) },
      runs7d: { failed: total((r) => r.failed7d), warnings: total((r) => r.warnings7d) },
      lastSuccess,
      coverage: {
        accounts: covered('accounts'),
        sites: covered('sites'),
        teams: covered('teams'),
        mailboxes: covered('mailboxes'),
      },
      storedBytes: Math.max(0, stored?.storedBytes ?? 0),
      growthBytes7d: total((r) => r.storedBytes7d) - (stored?.removedBytes ?? 0),
      connection,
      runningJobs: tenantId ? (running.get(tenantId) ?? 0) : 0,
    };
    const successes = Object.values(lastSuccess).flatMap((t) => (t ? [Date.parse(t)] : []));
    const kinds = Object.values(client.coverage);
    const protectedSum = kinds.reduce((s, c) => s + c.protected, 0);
    const foundSum = kinds.reduce((s, c) => s + Math.max(c.found, c.protected), 0);
    return {
      client,
      haystack: [row.name, row.abbr, row.tenantDomain ?? ''].join('\n').toLowerCase(),
      oldestSuccess: successes.length > 0 ? Math.min(...successes) : null,
      coverage: foundSum === 0 ? 0 : protectedSum / foundSum,
    };
  });
  const counts = { critical: 0, warning: 0, ok: 0 };
  for (const e of entries) counts[e.client.attention]++;
  entries.sort(byAttention);
  return { generatedAt: now.toISOString(), entries, counts };
}

type Compare = (a: Entry, b: Entry) => number;

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
/** The tie-break of every order: the name, A to Z whichever the order. */
const byName: Compare = (a, b) =>
  collator.compare(a.client.name, b.client.name) || a.client.clientId.localeCompare(b.client.clientId);
const LEVEL_RANK: Record<FleetAttention, number> = { critical: 0, warning: 1, ok: 2 };
const CONNECTION_RANK: Record<FleetClient['connection']['state'], number> = { failed: 0, none: 1, untested: 2, ok: 3 };
const numeric =
  (value: (e: Entry) => number): Compare =>
  (a, b) => {
    const x = value(a);
    const y = value(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/**
 * The orders of FLEET_SORTS, ascending (`desc` reverses them; ties go by name either way).
 * `attention`: critical, then warning, then ok, and within a level the most failed runs in 24 hours,
 * then in 7 days, first; `lastSuccess`: the client whose oldest area success is oldest first, clients
 * without any success before all; `coverage`: protected of found over every kind; `license`: trial
 * before full, then by the licence's end; `connection`: failed, none, untested, ok.
 */
const SORTS: Record<(typeof FLEET_SORTS)[number], Compare> = {
  attention: (a, b) =>
    LEVEL_RANK[a.client.attention] - LEVEL_RANK[b.client.attention] ||
    b.client.runs24h.failed - a.client.runs24h.failed ||
    b.client.runs7d.failed - a.client.runs7d.failed,
  name: () => 0,
  failed24h: numeric((e) => e.client.runs24h.failed),
  failed7d: numeric((e) => e.client.runs7d.failed),
  lastSuccess: numeric((e) => e.oldestSuccess ?? Number.NEGATIVE_INFINITY),
  coverage: numeric((e) => e.coverage),
  storedBytes: numeric((e) => e.client.storedBytes),
  growth: numeric((e) => e.client.growthBytes7d),
  license: numeric(
    (e) =>
      (e.client.license === 'trial' ? 0 : 1) * 1e15 +
      (e.client.licenseValidUntil ? Date.parse(e.client.licenseValidUntil) : 9e14),
  ),
  connection: numeric((e) => CONNECTION_RANK[e.client.connection.state]),
  runningJobs: numeric((e) => e.client.runningJobs),
};

/** The default order: most urgent first. */
const byAttention: Compare = (a, b) => SORTS.attention(a, b) || byName(a, b);

interface CachedSnapshot {
  snapshot?: Snapshot;
  /** When `snapshot` was read (the clock's milliseconds). */
  readAt: number;
  /** The read under way, which concurrent requests share. */
  reading?: Promise<Snapshot>;
}

/** Each app's snapshots by scope (a partner's id, or `*` for an operator's whole fleet). */
const snapshots = new WeakMap<AppContext, Map<string, CachedSnapshot>>();

/**
 * The scope's snapshot. Younger than `fleetSnapshotMs`: as it is. Older, but younger than twice
 * that: as it is too, while a read of the next one starts (the requests of a partner paging through
 * the fleet never wait for it; `generatedAt` says its age). Older still, or none: the request waits
 * for a read. Concurrent requests share one read; a read that fails keeps nothing, so the next
 * request reads again.
 */
function snapshotFor(ctx: AppContext, scope: FleetScope): Promise<Snapshot> {
  let cache = snapshots.get(ctx);
  if (!cache) {
    cache = new Map();
    snapshots.set(ctx, cache);
  }
  const key = scope ? scope.partnerId : '*';
  const maxAge = ctx.config.fleetSnapshotMs ?? SNAPSHOT_MS;
  const now = ctx.now().getTime();
  // Snapshots nobody asked for lately go, so the cache holds only the fleets being looked at.
  for (const [k, c] of cache) if (!c.reading && now - c.readAt >= 2 * maxAge) cache.delete(k);
  const entry: CachedSnapshot = cache.get(key) ?? { readAt: now };
  cache.set(key, entry);
  const { snapshot } = entry;
  if (snapshot && now - entry.readAt < maxAge) return Promise.resolve(snapshot);
  if (!entry.reading) {
    const readAt = now;
    entry.reading = readSnapshot(ctx, scope)
      .then((read) => {
        Object.assign(entry, { snapshot: read, readAt });
        return read;
      })
      .finally(() => {
        entry.reading = undefined;
      });
  }
  if (snapshot && now - entry.readAt < 2 * maxAge) {
    entry.reading.catch((error: unknown) => ctx.log.warn({ err: error }, 'reading the fleet failed'));
    return Promise.resolve(snapshot);
  }
  return entry.reading;
}

function matches(query: FleetQuery): (e: Entry) => boolean {
  const search = query.search?.trim().toLowerCase();
  return ({ client, haystack }) =>
    (!search || haystack.includes(search)) &&
    (!query.attention ||
      (query.attention === 'needsAttention' ? client.attention !== 'ok' : client.attention === query.attention)) &&
    (!query.license || client.license === query.license) &&
    (!query.connection || client.connection.state === query.connection) &&
    (!query.area || client.issues.some((i) => i.area === query.area)) &&
    (!query.running || (query.running === 'true') === client.runningJobs > 0);
}

/**
 * One page of the caller's fleet: a partner's own clients, an operator's every partner's; anyone
 * else is refused (403) as the list of a partner's clients refuses them. Searched (name, short name,
 * tenant domain), filtered, sorted (FLEET_SORTS, `attention` by default) and paged (25 a page by
 * default); `counts` are the whole fleet's by attention, whatever the filter.
 */
export async function fleetFor(ctx: AppContext, user: User, query: FleetQuery = {}): Promise<FleetPage> {
  requireRole(user, 'partner', 'operator');
  const snapshot = await snapshotFor(ctx, user.role === 'operator' ? null : { partnerId: user.organisationId });
  const compare = ownValue(SORTS, query.sort, SORTS.attention);
  const sign = query.order === 'desc' ? -1 : 1;
  // The snapshot is in the default order already.
  const selected = snapshot.entries.filter(matches(query));
  if (compare !== SORTS.attention || sign < 0) selected.sort((a, b) => sign * compare(a, b) || byName(a, b));
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return {
    items: selected.slice((page - 1) * pageSize, page * pageSize).map((e) => e.client),
    total: selected.length,
    page,
    pageSize,
    counts: { ...snapshot.counts },
    generatedAt: snapshot.generatedAt,
  };
}
