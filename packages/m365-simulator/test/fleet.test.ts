/**
 * A fleet of tenants made at once: a seeded draw of sizes between 10 and 200 users, few large and many
 * small, content in proportion, cheap enough for 500 tenants; Microsoft's own clients read a generated
 * tenant as they read any, and the control endpoint lists the tenants served.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTenant,
  CONTROL_HEADER,
  createSimulatorHandler,
  fleetTenants,
  groupsOf,
  type RunningSimulator,
  startSimulator,
} from '../src/index.js';

const usersOf = (fleet: ReturnType<typeof fleetTenants>) => fleet.map((t) => t.size.users ?? 0);
const quantile = (sorted: number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;

describe('a fleet of tenants', () => {
  it('is the same for the same seed, and another for another seed', () => {
    const a = fleetTenants({ count: 50, seed: 7 });
    expect(fleetTenants({ count: 50, seed: 7 })).toEqual(a);
    expect(fleetTenants({ count: 50, seed: '7' })).toEqual(a);
    // A larger fleet of the same seed begins with the same tenants.
    expect(fleetTenants({ count: 80, seed: 7 }).slice(0, 50)).toEqual(a);
    const b = fleetTenants({ count: 50, seed: 8 });
    expect(b.map((t) => t.tenantId)).not.toEqual(a.map((t) => t.tenantId));
    expect(usersOf(b)).not.toEqual(usersOf(a));
    // And a tenant's content is the same too: built twice from its id and size.
    const [first] = a;
    if (!first) throw new Error('no tenant');
    const once = buildTenant(first.tenantId, first.size);
    const twice = buildTenant(first.tenantId, first.size);
    expect(twice.users.map((u) => u.upn)).toEqual(once.users.map((u) => u.upn));
    expect([...twice.drives.keys()]).toEqual([...once.drives.keys()]);
  });

  it('has 10 to 200 users a tenant: many small ones and a few large', () => {
    const fleet = fleetTenants({ count: 500, seed: 'skew' });
    const users = usersOf(fleet).sort((x, y) => x - y);
    expect(users[0]).toBeGreaterThanOrEqual(10);
    expect(users.at(-1)).toBeLessThanOrEqual(200);
    const median = quantile(users, 0.5);
    const mean = users.reduce((s, u) => s + u, 0) / users.length;
    // Many small: half have fewer than 25 users, and the mean is well above the median.
    expect(median).toBeLessThan(25);
    expect(mean).toBeGreaterThan(median * 1.3);
    // A few large: some tenants of 100 users or more, but not one in ten.
    const large = users.filter((u) => u >= 100).length;
    expect(large).toBeGreaterThanOrEqual(5);
    expect(large).toBeLessThan(50);
    // The largest tenth holds more than a third of all users.
    const top = users.slice(-50).reduce((s, u) => s + u, 0);
    expect(top / users.reduce((s, u) => s + u, 0)).toBeGreaterThan(1 / 3);
    // The bounds and the shape are options.
    const narrow = usersOf(fleetTenants({ count: 200, seed: 'skew', minUsers: 3, maxUsers: 6 }));
    expect(Math.min(...narrow)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...narrow)).toBeLessThanOrEqual(6);
    expect(() => fleetTenants({ count: -1 })).toThrow(/count/);
    // Sizes drawn for tenants named: the same draws, given to those ids.
    const named = fleetTenants({ seed: 'skew', tenantIds: ['AAAA0000-0000-4000-8000-000000000001', 'b2'] });
    expect(named.map((t) => t.tenantId)).toEqual(['aaaa0000-0000-4000-8000-000000000001', 'b2']);
    expect(usersOf(named)).toEqual(usersOf(fleetTenants({ count: 2, seed: 'skew' })));
    expect(() => fleetTenants({ count: 5, minUsers: 20, maxUsers: 10 })).toThrow(/minUsers/);
  });

  it('gives each tenant sites, teams, chats and mailboxes in proportion, and a domain of its own', () => {
    const fleet = fleetTenants({ count: 500, seed: 'proportion' });
    const domains = new Set<string>();
    for (const { tenantId, size } of fleet) {
      const users = size.users ?? 0;
      expect(tenantId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(size.sites).toBe(Math.max(1, Math.round(users / 15)));
      expect(size.teams).toBe(Math.max(1, Math.round(users / 20)));
      expect(size.chats).toBe(Math.max(1, Math.round(users / 10)));
      domains.add(`t${tenantId.slice(0, 6)}`);
    }
    expect(domains.size).toBe(500);
    const largest = [...fleet].sort((x, y) => (y.size.users ?? 0) - (x.size.users ?? 0))[0];
    if (!largest) throw new Error('no tenant');
    const tenant = buildTenant(largest.tenantId, largest.size);
    const mailboxes = tenant.users.filter((u) => u.hasMailbox);
    expect(mailboxes).toHaveLength(largest.size.users ?? 0);
    // Every account has its OneDrive with a few files; every mailbox a few messages.
    expect(tenant.drives.size).toBe(tenant.users.length + tenant.sites.length);
    const files = [...tenant.drives.values()].map((d) => [...d.items.values()].filter((i) => i.kind === 'file').length);
    expect(new Set(files)).toEqual(new Set([3]));
    expect(mailboxes.every((u) => u.messages.size === 8)).toBe(true);
    expect(groupsOf(tenant).filter((g) => g.team)).toHaveLength(largest.size.teams ?? 0);
    // Sizes laid over the drawn ones.
    const light = fleetTenants({ count: 3, seed: 'proportion', size: { filesPerDrive: 1 } });
    expect(light.map((t) => t.size.filesPerDrive)).toEqual([1, 1, 1]);
    expect(usersOf(light)).toEqual(usersOf(fleet.slice(0, 3)));
  });

  it('makes 500 tenants in seconds', () => {
    const started = performance.now();
    const fleet = fleetTenants({ count: 500, seed: 'speed' });
    const sim = createSimulatorHandler({ tenants: fleet });
    const seconds = (performance.now() - started) / 1000;
    try {
      expect(sim.state.tenant(fleet[499]?.tenantId ?? '').users.length).toBe((fleet[499]?.size.users ?? 0) + 1);
      // A few seconds on a busy two-core machine; the bound leaves room for a slower one.
      expect(seconds).toBeLessThan(20);
    } finally {
      sim.stop();
    }
  });
});

describe('a generated tenant in the simulator', () => {
  const fleet = fleetTenants({ count: 12, seed: 'clients', minUsers: 10, maxUsers: 60 });
  const largest = [...fleet].sort((x, y) => (y.size.users ?? 0) - (x.size.users ?? 0))[0];
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: fleet.map((t) => ({ ...t, clientId: 'fleet-app', clientSecret: 'fleet-secret' })),
      pageSize: 7,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it("is read by Microsoft's clients (MSAL and the Graph client's PageIterator) as the model holds it", async () => {
    if (!largest) throw new Error('no tenant');
    const script = fileURLToPath(new URL('./fixtures/fleet-reader.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [script, sim.url, largest.tenantId, 'fleet-app', 'fleet-secret'],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: sim.caCertificatePath }, timeout: 60_000 },
    );
    const read = JSON.parse(stdout) as {
      users: string[];
      mailboxes: number;
      sites: string[];
      teams: string[];
      channels: number;
      firstUser: string;
      files: string[];
      inbox: number;
      chats: number;
      siteDrive: string;
    };
    const model = sim.state.tenant(largest.tenantId);
    expect(read.users).toEqual(model.users.map((u) => u.id));
    expect(read.mailboxes).toBe(largest.size.users);
    expect(read.sites).toEqual(model.sites.map((s) => s.id));
    expect(read.teams).toEqual(model.teams.map((t) => t.id));
    expect(read.channels).toBe(model.teams.reduce((n, t) => n + t.channels.length, 0));
    const first = model.users[0];
    if (!first) throw new Error('no user');
    expect(read.firstUser).toBe(first.id);
    const drive = model.drives.get(first.driveId);
    expect(read.files.sort()).toEqual(
      [...(drive?.items.values() ?? [])]
        .filter((i) => i.kind === 'file')
        .map((i) => i.name)
        .sort(),
    );
    expect(read.inbox).toBe(2);
    expect(read.chats).toBe(model.chats.filter((c) => c.memberIds.includes(first.id)).length);
    expect(read.siteDrive).toBe(model.sites[0]?.driveIds[0]);
  });

  it('is listed by the control endpoint with the others of its fleet, which counts the requests', async () => {
    const answer = await fetch(`${sim.url}/_simulator/tenants`, { headers: { [CONTROL_HEADER]: sim.controlKey } });
    expect(answer.status).toBe(200);
    const { value } = (await answer.json()) as {
      value: { tenantId: string; domain: string; users: number; sites: number; teams: number }[];
    };
    expect(value.map((t) => t.tenantId)).toEqual(fleet.map((t) => t.tenantId));
    expect(value.map((t) => t.users)).toEqual(usersOf(fleet));
    expect(value.map((t) => t.sites)).toEqual(fleet.map((t) => t.size.sites));
    expect(value[0]?.domain).toBe(`t${fleet[0]?.tenantId.slice(0, 6)}.onmicrosoft.com`);
    expect((await fetch(`${sim.url}/_simulator/tenants`)).status).toBe(403);
    // And the requests it answered meanwhile (the Microsoft clients' above), none throttled.
    const stats = await fetch(`${sim.url}/_simulator/stats`, { headers: { [CONTROL_HEADER]: sim.controlKey } });
    expect(await stats.json()).toEqual({
      requests: sim.state.stats.requests,
      throttled: 0,
      inFlight: 0,
      maxInFlight: sim.state.stats.maxInFlight,
      batched: 0,
    });
    expect(sim.state.stats.requests).toBeGreaterThan(5);
    expect(
      (await fetch(`${sim.url}/_simulator/tenants`, { method: 'POST', headers: { [CONTROL_HEADER]: sim.controlKey } }))
        .status,
    ).toBe(405);
  });
});
