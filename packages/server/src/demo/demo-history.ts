import { actedBy } from '../audit/audit-by.js';
/**
 * The demo world's past (PORTAL_DEMO, on an empty database): thirty days of real history for both
 * demo users, made by the real job engine against the demo tenants in the built-in simulator, with a
 * simulated clock. The demo users create their jobs through the jobs service as they would in the
 * portal (discovery first, then the job), the scheduler runs them at their hours day after day, and
 * the simulated tenants change between runs (new and edited files, new mail, channel and chat
 * messages, dated on the day), so incremental runs have work and every dashboard, report, restore
 * snapshot, mailbox list, eDiscovery search and data-management figure shows what the runs did.
 *
 * It also holds what an administrator must learn to read: a run that failed (Microsoft Graph was
 * unavailable for one OneDrive that night), a run that finished with warnings (the guest account has
 * no mailbox to archive), a restore in place after a person deleted a folder, a restore as a download,
 * a retention that deleted archived mail, version clean-ups that freed space, and, left for the
 * server's worker, a clean-up started just now that Microsoft 365 throttles, so the monitor shows a
 * running job. The partner's clients differ: Northwind backs up files daily (one failed night) and
 * Teams weekly and archives mail, Tailspin's trial uses every backup job its licence allows,
 * Woodgrove archives mail and chats every evening and backs up OneDrive weekly. The clients drawn
 * beyond those three (PORTAL_DEMO_CLIENTS) join two days before today, each with jobs at its own hours
 * of the night (see fleetPlan): most run fine, some fail or warn, one was never tested, one's client
 * secret expired.
 *
 * Nothing here writes a run, a report or an item directly: rows come from the engine and the
 * services, so reports and stored bytes agree with what the runs did.
 */

import {
  type Evolution,
  evolve,
  type SimTenant,
  type SimulatorState,
  type ThrottleSetting,
} from '@compliance-portal/m365-simulator';
import { type Application, type JobCreate, TRIAL_LIMITS } from '@compliance-portal/sdk';
import type { Actor } from '../access/actor.js';
import { appendAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { createDataPlane } from '../jobs/data-plane.js';
import { JobEngine } from '../jobs/engine.js';
import { executors } from '../jobs/executors.js';
import { JobQueue } from '../jobs/queue.js';
import { findJob } from '../jobs/repository.js';
import { runConnectionTest } from '../modules/configuration/connection.js';
import { analyseStorage } from '../modules/data-management/storage.js';
import { refreshDiscovery } from '../modules/discovery/service.js';
import { findUserByEmail } from '../modules/identity/users-repository.js';
import { createJob } from '../modules/jobs/service.js';
import { findTenant, type TenantRecord } from '../modules/tenants/repository.js';
import { openBlobStore } from '../storage/stores.js';
import { DEMO_TENANTS, DEMO_USERS, type DemoFleetClient, demoFleetClients, drawnClientCount } from './seed.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The days of history before today. */
export const DEMO_HISTORY_DAYS = 30;

/**
 * While a run executes, simulated time passes this many times faster than real time, so a run of
 * a few hundred milliseconds lasts a minute or so in its report.
 */
const TIME_SCALE = 120;

/** Nothing is scheduled in the history closer to its end than this; what falls later runs on the live server. */
const END_MARGIN = 10 * MINUTE;

/**
 * The days of history of the clients drawn beyond the first three (PORTAL_DEMO_CLIENTS): their last
 * two, so that a demo of hundreds of clients starts in minutes.
 */
export const FLEET_HISTORY_DAYS = 2;

/** The seconds Microsoft 365 asks the clean-up left running at the end to wait, every other version it deletes. */
const DEMO_THROTTLE_SECONDS = 5;

/** When the demo world begins: 08:00 UTC, DEMO_HISTORY_DAYS days before `now`. */
export function demoHistoryStart(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - DEMO_HISTORY_DAYS * DAY + 8 * HOUR);
}

/**
 * The history's clock: set to each moment something happens, then running TIME_SCALE times faster
 * than real time (never backwards).
 */
class HistoryClock {
  private at: number;
  private mark = performance.now();

  /** From `at`, never past `until` (the present). */
  constructor(
    at: Date,
    private readonly until: Date,
  ) {
    this.at = at.getTime();
  }

  readonly now = (): Date =>
    new Date(Math.min(this.until.getTime(), this.at + (performance.now() - this.mark) * TIME_SCALE));

  set(to: Date) {
    this.at = Math.max(this.now().getTime(), to.getTime());
    this.mark = performance.now();
  }
}

/**
 * `ctx` at another time: its clock and audit entries at `now()`, and no mail (the past does not
 * mail today: a run that failed thirty days ago notifies nobody now).
 */
export function pastContext(ctx: AppContext, now: () => Date): AppContext {
  return {
    ...ctx,
    now,
    mailer: { send: async () => undefined },
    audit: async (event, tx) => {
      if (tx) await appendAudit(tx, event, now());
      else await ctx.db.transaction((t) => appendAudit(t, event, now()));
    },
  };
}

export interface DemoHistoryFigures {
  days: number;
  /** Runs that ended (finished, failed or stopped). */
  runs: number;
  failedRuns: number;
  /** Runs that finished with items that could not be processed. */
  warningRuns: number;
  /** Items the runs processed (stored, archived, restored, cleaned up, deleted). */
  items: number;
  /** Bytes the runs report (stored, restored, freed or deleted). */
  bytes: number;
  /** Bytes the backups and archives hold: versions, messages and mail, before compression. */
  storedBytes: number;
  /** What the blob store takes on disk for them: each content once, compressed. */
  diskBytes: number;
  /** Real seconds the history took. */
  seconds: number;
  /** What the mail archive's runs archived beside mail: new or changed events, contacts and To Do tasks. */
  mailboxItems: { events: number; contacts: number; tasks: number };
  /** List items and site pages the SharePoint backups' runs kept (new, changed or deleted). */
  listItems: number;
  pages: number;
}

/** What the history works with: its context (at the simulated time), the demo users, their tenants, a data plane. */
interface World {
  ctx: AppContext;
  admin: Actor;
  partner: Actor;
  tenants: Record<keyof typeof DEMO_TENANTS, TenantRecord>;
  plane: ReturnType<typeof createDataPlane>;
}

interface Discovered {
  sourceId: string;
  displayName: string;
  email: string | null;
}

/** What the tenant's discovery lists for `application` (refreshed from Microsoft 365 first, as the portal's pickers do). */
/**
 * The connection test an administrator runs first, from the configuration page (audited as there: the
 * overview's first-run guide ticks its step from that entry).
 */
async function testTheConnection(world: World, actor: Actor, tenant: TenantRecord): Promise<void> {
  const result = await runConnectionTest(world.ctx, actor, tenant);
  if (!result.ok || result.missingPermissions)
    world.ctx.log.warn(
      { tenantId: tenant.tenantId, message: result.message, missing: result.missingPermissions },
      'the demo connection test found a problem: the first-run guide will show it',
    );
}

async function discover(world: World, tenant: TenantRecord, application: Application): Promise<Discovered[]> {
  await refreshDiscovery(world.ctx, () => world.plane.graph(tenant, { interactive: true }), tenant, application, {
    force: true,
  });
  const rows = await world.ctx.db.query<{ source_id: string; display_name: string; email: string | null }>(
    `select source_id, display_name, email from discovered_sources where tenant_id = $1 and application = $2
      order by display_name, source_id`,
    [tenant.tenantId, application],
  );
  return rows.map((r) => ({ sourceId: r.source_id, displayName: r.display_name, email: r.email }));
}

const daily = (...hours: number[]) => ({ kind: 'daily' as const, hours });
const weekly = (day: number, hour: number) => ({ kind: 'daysOfWeek' as const, daysOfWeek: [day], hours: [hour] });

/**
 * Creates a job as `actor` would in the portal; archives go to the tenant's archive storage, the rest
 * to its default. None when there is nothing to cover (a simulator sized without sites or teams).
 */
async function create(world: World, actor: Actor, tenant: TenantRecord, body: JobCreate) {
  if (body.sources.length === 0) return undefined;
  if (body.type === 'exchangeArchive' || body.type === 'teamsArchive') {
    const [archive] = await world.ctx.db.query<{ location_id: string }>(
      `select location_id from locations where tenant_id = $1 and name = 'Archive storage'`,
      [tenant.tenantId],
    );
    if (archive) return createJob(world.ctx, actor, tenant, { ...body, locationId: archive.location_id });
  }
  return createJob(world.ctx, actor, tenant, body);
}

/**
 * A workday's meetings, contacts and To Do tasks in the mailboxes, and items and pages in the sites'
 * lists: what the archive's and the site backups' nightly runs find beside mail and files.
 */
const OFFICE_WORK: Evolution = {
  newEvents: 2,
  editedEvents: 1,
  newContacts: 1,
  newTasks: 2,
  editedTasks: 1,
  newListItems: 2,
  editedListItems: 1,
  editedPages: 1,
};

/** The tenant's simulated content, changed as people work on a day: more on weekdays. */
const WORKDAY: Record<keyof typeof DEMO_TENANTS, Evolution> = {
  contoso: {
    ...OFFICE_WORK,
    newFiles: 2,
    editedFiles: 3,
    newMessages: 6,
    newChannelMessages: 1,
    newChatMessages: 1,
    deletedTasks: 1,
  },
  northwind: { ...OFFICE_WORK, newFiles: 3, editedFiles: 2, newMessages: 4, newChannelMessages: 1 },
  tailspin: { ...OFFICE_WORK, newFiles: 1, editedFiles: 1, newMessages: 2, newChannelMessages: 1 },
  woodgrove: { ...OFFICE_WORK, editedFiles: 1, newMessages: 10, newChatMessages: 2, newEvents: 4 },
};
const WEEKEND: Evolution = { newMessages: 1 };

/** A backup's folder (or file) by name, as the restore picker shows the snapshot. */
async function backedUpItem(world: World, jobId: string, sourceId: string, kind: 'folder' | 'file', name?: string) {
  const [row] = await world.ctx.db.query<{ item_id: string }>(
    `select item_id from backup_items where job_id = $1 and source_id = $2 and kind = $3 and ($4::text is null or name = $4)
      order by path, item_id limit 1`,
    [jobId, sourceId, kind, name ?? null],
  );
  if (!row) throw new Error(`the demo backup ${jobId} holds no ${kind} ${name ?? ''} of ${sourceId}`);
  return row.item_id;
}

/** A restore of one backed-up folder or file, picked as the restore screen shows the snapshot. */
async function createRestore(
  world: World,
  actor: Actor,
  tenant: TenantRecord,
  restore: {
    name: string;
    application: JobCreate['application'];
    backupJobId: string | undefined;
    sourceId: string;
    snapshot: Date;
    item: { kind: 'folder' | 'file'; name: string | undefined };
    target: NonNullable<JobCreate['restore']>['target'];
    conflictPolicy: NonNullable<JobCreate['restore']>['conflictPolicy'];
  },
) {
  const jobId = restore.backupJobId ?? '';
  return create(world, actor, tenant, {
    name: restore.name,
    type: 'restore',
    application: restore.application,
    sources: [restore.sourceId],
    restore: {
      sourceJobId: jobId,
      snapshot: restore.snapshot.toISOString(),
      sourceId: restore.sourceId,
      nodeIds: [await backedUpItem(world, jobId, restore.sourceId, restore.item.kind, restore.item.name)],
      target: restore.target,
      conflictPolicy: restore.conflictPolicy,
    },
  });
}

/**
 * A person deletes the files of one of their OneDrive folders (the simulator's Graph deletes no
 * items, so its model changes, as its own evolution does); the next backup records the deletions.
 */
function deleteFolderFiles(tenant: SimTenant, driveId: string, folderName: string): number {
  const drive = tenant.drives.get(driveId);
  const folder = [...(drive?.items.values() ?? [])].find((i) => i.kind === 'folder' && i.name === folderName);
  if (!drive || !folder) return 0;
  tenant.clock += 1;
  let deleted = 0;
  for (const item of drive.items.values()) {
    if (item.parentId !== folder.id || item.kind !== 'file' || item.deleted) continue;
    item.deleted = true;
    item.changed = tenant.clock;
    deleted += 1;
  }
  return deleted;
}

interface Event {
  at: Date;
  run: () => Promise<void>;
}

/**
 * Creates the history on a freshly seeded demo world whose simulator runs. `ctx` is the server's
 * (its clock is now); the history's runs happen between demoHistoryStart(now) and now. The
 * clean-up started at the end stays queued for the server's worker.
 */
export async function createDemoHistory(
  ctx: AppContext,
  simulator: SimulatorState,
  options: { throttleSeconds?: number } = {},
): Promise<DemoHistoryFigures> {
  const started = performance.now();
  const end = ctx.now();
  // What M365_SIMULATOR_THROTTLE set, given back after each outage the history plays.
  const throttling = simulator.throttle;
  const clock = new HistoryClock(demoHistoryStart(end), end);
  const past = pastContext(ctx, clock.now);
  const blobs = openBlobStore(ctx.config);
  const user = async (email: string): Promise<Actor> => {
    const found = await findUserByEmail(ctx.db, email);
    if (!found) throw new Error(`the demo user ${email} is missing`);
    return { user: found, ip: email === DEMO_USERS.admin ? '198.51.100.24' : '203.0.113.7' };
  };
  const tenant = async (tenantId: string) => {
    const found = await findTenant(ctx.db, tenantId);
    if (!found) throw new Error(`the demo tenant ${tenantId} is missing`);
    return found;
  };
  const world: World = {
    ctx: past,
    admin: await user(DEMO_USERS.admin),
    partner: await user(DEMO_USERS.partner),
    tenants: {
      contoso: await tenant(DEMO_TENANTS.contoso),
      northwind: await tenant(DEMO_TENANTS.northwind),
      tailspin: await tenant(DEMO_TENANTS.tailspin),
      woodgrove: await tenant(DEMO_TENANTS.woodgrove),
    },
    plane: createDataPlane(past, blobs),
  };
  const engine = new JobEngine(past, {
    executors: executors(world.plane),
    workerId: 'demo-history',
    // More runs at once when drawn clients' small runs queue at the same hours.
    concurrency: drawnClientCount(ctx.config) > 0 ? 16 : 4,
    // The history replays a month in seconds on a clock that runs faster than real time: a run
    // would outlast any time slice in the history's minutes, and the order of the runs due at one
    // moment is not what the history shows. It runs as the engine did before fair turns.
    tenantConcurrency: 4,
    timeSliceMs: 0,
    heartbeatMs: 60_000,
  });
  const { tenants, admin, partner } = world;
  const fleet: FleetMember[] = [];
  for (const client of demoFleetClients(drawnClientCount(ctx.config))) {
    fleet.push({ client, tenant: await tenant(client.tenantId) });
  }
  const allTenantIds = [...Object.values(DEMO_TENANTS), ...fleet.map((f) => f.tenant.tenantId)];
  const at = (day: number, hour: number, minute = 0) =>
    new Date(demoHistoryStart(end).getTime() - 8 * HOUR + day * DAY + hour * HOUR + minute * MINUTE);

  // ---- day 0: the demo users set up their jobs, as they would in the portal ----
  await testTheConnection(world, admin, tenants.contoso);
  const contoso = {
    accounts: await discover(world, tenants.contoso, 'onedrive'),
    sites: await discover(world, tenants.contoso, 'sharepoint'),
    teams: await discover(world, tenants.contoso, 'teams'),
    mailboxes: await discover(world, tenants.contoso, 'exchange'),
  };
  const ids = (list: Discovered[]) => list.map((d) => d.sourceId);
  const oneDrive = await create(world, admin, tenants.contoso, {
    name: 'OneDrive – all accounts',
    type: 'backup',
    application: 'onedrive',
    sources: ids(contoso.accounts),
    recurrence: daily(1),
  });
  clock.set(at(0, 8, 12));
  const sharePoint = await create(world, admin, tenants.contoso, {
    name: 'SharePoint – all sites',
    type: 'backup',
    application: 'sharepoint',
    sources: ids(contoso.sites),
    recurrence: daily(2),
  });
  await create(world, admin, tenants.contoso, {
    name: 'Teams – all teams',
    type: 'backup',
    application: 'teams',
    sources: ids(contoso.teams),
    recurrence: daily(2),
  });
  clock.set(at(0, 8, 40));
  // Every account, the guest's too: the guest has no mailbox, and the first run says so.
  await create(world, admin, tenants.contoso, {
    name: 'Mail archive – all accounts',
    type: 'exchangeArchive',
    application: 'exchange',
    sources: ids(contoso.accounts),
    recurrence: daily(3),
  });
  await create(world, admin, tenants.contoso, {
    name: 'Teams archive – channels and chats',
    type: 'teamsArchive',
    application: 'teams',
    sources: ids(contoso.teams),
    chats: ids(contoso.mailboxes),
    recurrence: daily(3),
  });
  clock.set(at(0, 9, 5));
  // Retention of one mailbox (not one the administrator holds a proxy right to, so eDiscovery keeps its mail).
  const retained = contoso.mailboxes.at(-1);
  if (retained) {
    await create(world, admin, tenants.contoso, {
      name: `Mail retention – ${retained.displayName}, 30 days`,
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [retained.sourceId],
      retention: { unit: 'days', value: 30 },
      recurrence: weekly(0, 4),
    });
  }
  await create(world, admin, tenants.contoso, {
    name: 'SharePoint – keep the 2 newest versions',
    type: 'versionCleanup',
    application: 'sharepoint',
    sources: ids(contoso.sites),
    cleanupRule: { kind: 'keepNewest', count: 2 },
    recurrence: weekly(6, 5),
  });

  clock.set(at(0, 10, 30));
  await testTheConnection(world, partner, tenants.northwind);
  const northwind = {
    accounts: await discover(world, tenants.northwind, 'onedrive'),
    sites: await discover(world, tenants.northwind, 'sharepoint'),
    teams: await discover(world, tenants.northwind, 'teams'),
    mailboxes: await discover(world, tenants.northwind, 'exchange'),
  };
  const northwindOneDrive = await create(world, partner, tenants.northwind, {
    name: 'OneDrive – all accounts',
    type: 'backup',
    application: 'onedrive',
    sources: ids(northwind.accounts),
    recurrence: daily(1),
  });
  await create(world, partner, tenants.northwind, {
    name: 'SharePoint – all sites',
    type: 'backup',
    application: 'sharepoint',
    sources: ids(northwind.sites),
    recurrence: daily(2),
  });
  await create(world, partner, tenants.northwind, {
    name: 'Teams – all teams, weekly',
    type: 'backup',
    application: 'teams',
    sources: ids(northwind.teams),
    recurrence: weekly(0, 2),
  });
  await create(world, partner, tenants.northwind, {
    name: 'Mail archive – all mailboxes',
    type: 'exchangeArchive',
    application: 'exchange',
    sources: ids(northwind.mailboxes),
    recurrence: daily(3),
  });

  clock.set(at(0, 11, 15));
  await testTheConnection(world, partner, tenants.tailspin);
  // The trial: one backup job per application, all of them used.
  const tailspin = {
    accounts: await discover(world, tenants.tailspin, 'onedrive'),
    sites: await discover(world, tenants.tailspin, 'sharepoint'),
    teams: await discover(world, tenants.tailspin, 'teams'),
  };
  const tailspinOneDrive = await create(world, partner, tenants.tailspin, {
    name: 'Trial – OneDrive',
    type: 'backup',
    application: 'onedrive',
    sources: ids(tailspin.accounts).slice(0, 10),
    recurrence: daily(22),
  });
  await create(world, partner, tenants.tailspin, {
    name: 'Trial – SharePoint',
    type: 'backup',
    application: 'sharepoint',
    sources: ids(tailspin.sites).slice(0, 10),
    recurrence: daily(22),
  });
  await create(world, partner, tenants.tailspin, {
    name: 'Trial – Teams',
    type: 'backup',
    application: 'teams',
    sources: ids(tailspin.teams).slice(0, 10),
    recurrence: daily(23),
  });

  clock.set(at(0, 14, 0));
  // The bank archives mail and chats every evening, keeps mail ten years, and backs up OneDrive once a week.
  await testTheConnection(world, partner, tenants.woodgrove);
  const woodgrove = {
    accounts: await discover(world, tenants.woodgrove, 'onedrive'),
    teams: await discover(world, tenants.woodgrove, 'teams'),
    mailboxes: await discover(world, tenants.woodgrove, 'exchange'),
  };
  await create(world, partner, tenants.woodgrove, {
    name: 'Mail archive – every account',
    type: 'exchangeArchive',
    application: 'exchange',
    sources: ids(woodgrove.accounts),
    recurrence: daily(19),
  });
  await create(world, partner, tenants.woodgrove, {
    name: 'Teams archive – chats of every account',
    type: 'teamsArchive',
    application: 'teams',
    sources: ids(woodgrove.teams),
    chats: ids(woodgrove.mailboxes),
    recurrence: daily(20),
  });
  await create(world, partner, tenants.woodgrove, {
    name: 'Mail retention – 10 years',
    type: 'archiveDeletion',
    application: 'exchange',
    sources: ids(woodgrove.mailboxes),
    retention: { unit: 'days', value: 3650 },
    recurrence: weekly(0, 5),
  });
  await create(world, partner, tenants.woodgrove, {
    name: 'OneDrive – weekly',
    type: 'backup',
    application: 'onedrive',
    sources: ids(woodgrove.accounts),
    recurrence: weekly(0, 2),
  });

  // ---- what happens on the days that follow, besides the scheduled runs ----
  const model = (key: keyof typeof DEMO_TENANTS) => simulator.tenant(DEMO_TENANTS[key]);
  const driveOf = (key: keyof typeof DEMO_TENANTS, sourceId: string) =>
    model(key).users.find((u) => u.id === sourceId)?.driveId ?? '';
  const siteDrive = (key: keyof typeof DEMO_TENANTS, siteId: string) =>
    model(key).sites.find((s) => s.id === siteId)?.driveIds[0] ?? '';
  const events: Event[] = [];
  for (let day = 1; day <= DEMO_HISTORY_DAYS; day++) {
    const weekend = [0, 6].includes(at(day, 10).getUTCDay());
    events.push({
      at: at(day, 10),
      run: async () => {
        for (const key of Object.keys(DEMO_TENANTS) as (keyof typeof DEMO_TENANTS)[]) {
          evolve(model(key), { ...(weekend ? WEEKEND : WORKDAY[key]), at: at(day, 10).toISOString() });
        }
      },
    });
    // Twice a week the administrator opens data management in the morning: its storage analysis runs.
    if ([1, 4].includes(at(day, 8).getUTCDay())) {
      events.push({
        at: at(day, 8, 30),
        run: () => world.plane.graph(tenants.contoso).then((graph) => analyseStorage(past, graph, tenants.contoso)),
      });
    }
  }
  /** The runs at `day`/`hour` meet Microsoft Graph answering 503 when they read one drive's changes. */
  const outage = (day: number, hour: number, driveId: string) => {
    events.push({
      at: at(day, hour - 1, 55),
      run: async () => simulator.setThrottle(1, 0, { status: 503, paths: `^/v1\\.0/drives/${driveId}/root/delta` }),
    });
    events.push({ at: at(day, hour, 50), run: async () => restoreThrottle(simulator, throttling) });
  };
  const troubled = contoso.accounts.find((a) => !a.email?.includes('#EXT#') && a !== contoso.accounts[0]);
  if (troubled) outage(13, 1, driveOf('contoso', troubled.sourceId));
  const northwindSite = northwind.sites[0];
  if (northwindSite) outage(19, 2, siteDrive('northwind', northwindSite.sourceId));

  // A person deletes a folder's files; the administrator restores the folder in place two days later.
  const deleter = contoso.mailboxes[2] ?? contoso.mailboxes[0];
  if (deleter) {
    events.push({
      at: at(20, 16, 20),
      run: async () => void deleteFolderFiles(model('contoso'), driveOf('contoso', deleter.sourceId), 'Projects'),
    });
    events.push({
      at: at(22, 9, 40),
      run: async () => {
        await createRestore(world, admin, tenants.contoso, {
          name: `Restore – ${deleter.displayName}'s Projects folder`,
          application: 'onedrive',
          backupJobId: oneDrive?.jobId,
          sourceId: deleter.sourceId,
          snapshot: at(20, 12),
          item: { kind: 'folder', name: 'Projects' },
          target: 'original',
          conflictPolicy: 'skip',
        });
      },
    });
  }
  // A site's documents as a ZIP download, from last week's snapshot.
  const site = contoso.sites[0];
  if (site) {
    events.push({
      at: at(26, 11, 5),
      run: async () => {
        await createRestore(world, admin, tenants.contoso, {
          name: `Download – ${site.displayName} Documents`,
          application: 'sharepoint',
          backupJobId: sharePoint?.jobId,
          sourceId: site.sourceId,
          snapshot: at(25, 12),
          item: { kind: 'folder', name: 'Documents' },
          target: 'download',
          conflictPolicy: 'skip',
        });
      },
    });
  }
  const northwindAccount = northwind.accounts[0];
  if (northwindAccount) {
    events.push({
      at: at(24, 14, 30),
      run: async () => {
        await createRestore(world, partner, tenants.northwind, {
          name: `Download – ${northwindAccount.displayName}'s Finance folder`,
          application: 'onedrive',
          backupJobId: northwindOneDrive?.jobId,
          sourceId: northwindAccount.sourceId,
          snapshot: at(24, 12),
          item: { kind: 'folder', name: 'Finance' },
          target: 'download',
          conflictPolicy: 'skip',
        });
      },
    });
  }
  const tailspinAccount = tailspin.accounts[1] ?? tailspin.accounts[0];
  if (tailspinAccount) {
    events.push({
      at: at(15, 10, 10),
      run: async () => {
        await createRestore(world, partner, tenants.tailspin, {
          name: `Trial restore – a file of ${tailspinAccount.displayName}`,
          application: 'onedrive',
          backupJobId: tailspinOneDrive?.jobId,
          sourceId: tailspinAccount.sourceId,
          snapshot: at(15, 0),
          item: { kind: 'file', name: undefined },
          target: 'original',
          conflictPolicy: 'keepBoth',
        });
      },
    });
  }
  events.push(...fleetEvents(world, simulator, fleet, { at, last: end.getTime() - END_MARGIN, throttling }));
  events.sort((a, b) => a.at.getTime() - b.at.getTime());

  // ---- the days pass: events and scheduled runs in time order ----
  const last = end.getTime() - END_MARGIN;
  // The embedded database has no autovacuum: its planner's statistics are renewed each simulated day,
  // as the tables grow (with hundreds of clients, plans made for empty tables would scan them whole).
  let analysedDay = -1;
  for (;;) {
    const [due] = await ctx.db.query<{ next: Date | null }>(
      `select min(next_run) as next from jobs where enabled and tenant_id = any($1)`,
      [allTenantIds],
    );
    const nextRun = due?.next ? new Date(due.next).getTime() : Number.POSITIVE_INFINITY;
    const nextEvent = events[0]?.at.getTime() ?? Number.POSITIVE_INFINITY;
    const next = Math.min(nextRun, nextEvent);
    if (next > last) break;
    clock.set(new Date(next));
    const day = Math.floor(next / DAY);
    if (ctx.db.kind === 'pglite' && day !== analysedDay) {
      analysedDay = day;
      await ctx.db.exec('analyze');
    }
    const event = nextEvent <= nextRun ? events.shift() : undefined;
    // What cannot happen in a simulator sized otherwise (no folder to delete, no site) is left out.
    await event?.run().catch((err: unknown) => ctx.log.warn({ err }, 'a demo history event was left out'));
    await engine.runUntilIdle();
  }
  restoreThrottle(simulator, throttling);

  // ---- now: the administrator starts a clean-up of old OneDrive versions; Microsoft 365 throttles its deletions ----
  const cleanup = await createJob(ctx, admin, tenants.contoso, {
    name: 'OneDrive – keep the newest version',
    type: 'versionCleanup',
    application: 'onedrive',
    sources: ids(contoso.accounts),
    cleanupRule: { kind: 'keepNewest', count: 1 },
  });
  const drives = model('contoso').users.map((u) => u.driveId);
  simulator.setThrottle(2, options.throttleSeconds ?? DEMO_THROTTLE_SECONDS, {
    status: 429,
    // Only its version deletions: backups, restores and the file manager read those drives unhindered.
    paths: `^/v1\\.0/drives/(${drives.join('|')})/items/[^/]+/versions/[^/]+$`,
  });
  const job = await findJob(ctx.db, cleanup.jobId);
  if (job) {
    await new JobQueue(ctx).requestStart(job);
    await ctx.audit({
      ...actedBy(admin.user, admin.ip),
      organisationId: tenants.contoso.organisationId,
      action: 'job.start',
      target: job.jobId,
      outcome: 'success',
    });
    liftThrottleAfter(ctx, simulator, job.jobId, throttling);
  }
  const disk = await blobs.stats();
  return {
    ...(await figures(ctx, allTenantIds)),
    diskBytes: disk.storedBytes,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The hours (UTC) the drawn clients' nightly backups start at, one after another by client. */
const NIGHT_HOURS = [19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5];

/** What a drawn client's week holds (the same for the same place among the drawn clients). */
export interface FleetPlan {
  /** The hour (UTC) of its nightly OneDrive backup; its SharePoint backup and archives follow an hour apart. */
  hour: number;
  /** Its connection was tested when it was set up (all but one). */
  tested: boolean;
  /** Its jobs: none for the client just added (the one never tested). */
  jobs: boolean;
  sharePoint: boolean;
  /** Its mail archive covers the mailboxes, or every account (the guest's too: each run warns); or none. */
  mailArchive: 'mailboxes' | 'everyAccount' | null;
  teamsArchive: boolean;
  /** Nights before today (0: the last one) on which Microsoft Graph fails its OneDrive backup (503 on one drive). */
  outageNights: number[];
  /** Its client secret expired yesterday: the connection test its partner ran then failed. */
  secretExpired: boolean;
}

/**
 * The plan of the drawn client at `index` of `count`: all back up OneDrive nightly, a quarter also
 * SharePoint, a sixth archive mail (half of those over every account, so their runs warn), a tenth
 * archive Teams; one in fifteen failed last night, another one in fifteen the night before; one in
 * forty has an expired client secret; the last one was just added (never tested, no jobs).
 */
export function fleetPlan(index: number, count: number): FleetPlan {
  const justAdded = count >= 2 && index === count - 1;
  return {
    hour: NIGHT_HOURS[index % NIGHT_HOURS.length] ?? 1,
    tested: !justAdded,
    jobs: !justAdded,
    sharePoint: index % 4 === 0,
    mailArchive: index % 12 === 3 ? 'everyAccount' : index % 12 === 9 ? 'mailboxes' : null,
    teamsArchive: index % 10 === 2,
    outageNights: index % 15 === 4 ? [0] : index % 15 === 11 ? [1] : [],
    secretExpired: index % 40 === 24,
  };
}

/** A drawn client's tenant as the history works with it. */
interface FleetMember {
  client: DemoFleetClient;
  tenant: TenantRecord;
}

/** The drawn client's set-up, as its partner makes it: the connection test, discovery and its jobs. */
async function setUpFleetClient(world: World, { client, tenant }: FleetMember, plan: FleetPlan): Promise<void> {
  if (plan.tested) await testTheConnection(world, world.partner, tenant);
  if (!plan.jobs) return;
  const accounts = await discover(world, tenant, 'onedrive');
  const mailboxes = await discover(world, tenant, 'exchange');
  const ids = (list: Discovered[]) =>
    list.map((d) => d.sourceId).slice(0, client.license === 'trial' ? TRIAL_LIMITS.sourcesPerBackup : undefined);
  const later = (hours: number) => (plan.hour + hours) % 24;
  await create(world, world.partner, tenant, {
    name: 'OneDrive – all accounts',
    type: 'backup',
    application: 'onedrive',
    sources: ids(accounts),
    recurrence: daily(plan.hour),
  });
  if (plan.sharePoint) {
    await create(world, world.partner, tenant, {
      name: 'SharePoint – all sites',
      type: 'backup',
      application: 'sharepoint',
      sources: ids(await discover(world, tenant, 'sharepoint')),
      recurrence: daily(later(1)),
    });
  }
  if (plan.mailArchive) {
    await create(world, world.partner, tenant, {
      name: plan.mailArchive === 'everyAccount' ? 'Mail archive – every account' : 'Mail archive – all mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: (plan.mailArchive === 'everyAccount' ? accounts : mailboxes).map((d) => d.sourceId),
      recurrence: daily(later(2)),
    });
  }
  if (plan.teamsArchive) {
    await create(world, world.partner, tenant, {
      name: 'Teams archive – channels and chats',
      type: 'teamsArchive',
      application: 'teams',
      sources: (await discover(world, tenant, 'teams')).map((d) => d.sourceId),
      chats: mailboxes.map((d) => d.sourceId),
      recurrence: daily(later(2)),
    });
  }
}

/**
 * The drawn clients' last days: each is set up FLEET_HISTORY_DAYS ago (a quarter of a minute apart),
 * their tenants change every morning, Microsoft Graph fails the OneDrive backups of some on one
 * night, and some clients' secrets expire yesterday.
 */
function fleetEvents(
  world: World,
  simulator: SimulatorState,
  fleet: readonly FleetMember[],
  time: { at: (day: number, hour: number, minute?: number) => Date; last: number; throttling: ThrottleSetting },
): Event[] {
  const { at, last, throttling } = time;
  const events: Event[] = [];
  const firstDay = DEMO_HISTORY_DAYS - FLEET_HISTORY_DAYS;
  /** The drives failing at each instant a nightly backup starts. */
  const outages = new Map<number, string[]>();
  fleet.forEach((member, i) => {
    const plan = fleetPlan(member.client.index, fleet.length);
    events.push({ at: at(firstDay, 9, i / 4), run: () => setUpFleetClient(world, member, plan) });
    const model = simulator.tenant(member.tenant.tenantId);
    const drive = model.users[0]?.driveId;
    // The last start at its hour before the history ends, and the nights before it.
    const lastDay = new Date(last);
    let lastStart = Date.UTC(lastDay.getUTCFullYear(), lastDay.getUTCMonth(), lastDay.getUTCDate(), plan.hour);
    if (lastStart > last) lastStart -= DAY;
    for (const night of plan.outageNights) {
      // A night before the client was set up (its hour came before the set-up that day) is left out.
      const start = lastStart - night * DAY;
      if (drive && start > at(firstDay, 18).getTime()) outages.set(start, [...(outages.get(start) ?? []), drive]);
    }
    if (plan.secretExpired) {
      events.push({
        at: at(DEMO_HISTORY_DAYS - 1, 10),
        run: async () => {
          simulator.setTokenFault(member.tenant.tenantId, 'expiredClientSecret');
          await testTheConnection(world, world.partner, member.tenant);
        },
      });
    }
  });
  for (const [start, drives] of outages) {
    events.push({
      at: new Date(start - 5 * MINUTE),
      run: async () =>
        simulator.setThrottle(1, 0, { status: 503, paths: `^/v1\\.0/drives/(${drives.join('|')})/root/delta` }),
    });
    events.push({ at: new Date(start + 50 * MINUTE), run: async () => restoreThrottle(simulator, throttling) });
  }
  for (let day = firstDay + 1; day <= DEMO_HISTORY_DAYS; day++) {
    const when = at(day, 10, 30);
    const weekend = [0, 6].includes(when.getUTCDay());
    events.push({
      at: when,
      run: async () => {
        for (const { tenant } of fleet) {
          evolve(simulator.tenant(tenant.tenantId), {
            ...(weekend ? WEEKEND : { newFiles: 1, editedFiles: 1, newMessages: 2, newEvents: 1, newListItems: 1 }),
            at: when.toISOString(),
          });
        }
      },
    });
  }
  return events;
}

/** Back to the throttling the simulator had before the history changed it (none, unless configured). */
function restoreThrottle(simulator: SimulatorState, setting: ThrottleSetting) {
  simulator.setThrottle(setting.every, setting.retryAfter, {
    status: setting.status,
    ...(setting.paths ? { paths: setting.paths } : {}),
  });
}

/**
 * Microsoft 365 throttles the clean-up while it runs: once a run of the job has ended (or the server
 * closes its database), the simulator answers those paths at once again.
 */
function liftThrottleAfter(ctx: AppContext, simulator: SimulatorState, jobId: string, before: ThrottleSetting) {
  const lift = () => {
    clearInterval(timer);
    restoreThrottle(simulator, before);
  };
  const timer = setInterval(() => {
    ctx.db
      .query<{ n: number }>(
        `select count(*)::int as n from job_runs where job_id = $1 and status in ('finished', 'failed', 'stopped')`,
        [jobId],
      )
      .then(([row]) => {
        if (Number(row?.n ?? 0) > 0) lift();
      })
      .catch(lift);
  }, 15_000);
  timer.unref();
}

/** What the history's runs did, from the runs and what the backups and archives hold. */
async function figures(
  ctx: AppContext,
  tenantIds: readonly string[],
): Promise<Omit<DemoHistoryFigures, 'seconds' | 'diskBytes'>> {
  const [runs] = await ctx.db.query<{
    runs: number;
    failed: number;
    warnings: number;
    items: string;
    bytes: string;
    events: string;
    contacts: string;
    tasks: string;
    list_items: string;
    pages: string;
  }>(
    `select count(*)::int as runs, count(*) filter (where status = 'failed')::int as failed,
            count(*) filter (where status = 'finished' and warnings > 0)::int as warnings,
            coalesce(sum(items_done), 0)::bigint as items, coalesce(sum(bytes), 0)::bigint as bytes,
            coalesce(sum((mailbox_items->>'events')::int), 0)::bigint as events,
            coalesce(sum((mailbox_items->>'contacts')::int), 0)::bigint as contacts,
            coalesce(sum((mailbox_items->>'tasks')::int), 0)::bigint as tasks,
            coalesce(sum(list_items_done), 0)::bigint as list_items,
            coalesce(sum(pages_done), 0)::bigint as pages
       from job_runs where status in ('finished', 'failed', 'stopped') and tenant_id = any($1)`,
    [tenantIds],
  );
  const [stored] = await ctx.db.query<{ bytes: string }>(
    `select (select coalesce(sum(b.size), 0) from backup_items b join jobs j on j.job_id = b.job_id
              where j.tenant_id = any($1))
          + (select coalesce(sum(size), 0) from archive_items where tenant_id = any($1)) as bytes`,
    [tenantIds],
  );
  return {
    days: DEMO_HISTORY_DAYS,
    runs: Number(runs?.runs ?? 0),
    failedRuns: Number(runs?.failed ?? 0),
    warningRuns: Number(runs?.warnings ?? 0),
    items: Number(runs?.items ?? 0),
    bytes: Number(runs?.bytes ?? 0),
    storedBytes: Number(stored?.bytes ?? 0),
    mailboxItems: {
      events: Number(runs?.events ?? 0),
      contacts: Number(runs?.contacts ?? 0),
      tasks: Number(runs?.tasks ?? 0),
    },
    listItems: Number(runs?.list_items ?? 0),
    pages: Number(runs?.pages ?? 0),
  };
}

const megabytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The history in one line, as the first start prints it. */
export function describeHistory(h: DemoHistoryFigures): string {
  return (
    `Its history: ${h.days} days, ${h.runs} runs (${h.failedRuns} failed, ${h.warningRuns} with warnings), ` +
    `${h.items.toLocaleString('en-US')} items, ${megabytes(h.storedBytes)} in backups and archives ` +
    `(${megabytes(h.diskBytes)} on disk), ` +
    `${h.mailboxItems.events} events, ${h.mailboxItems.contacts} contacts and ${h.mailboxItems.tasks} tasks archived ` +
    `beside mail, ${h.listItems} list items and ${h.pages} pages backed up beside files; ` +
    `made in ${h.seconds.toFixed(1)} s.`
  );
}
