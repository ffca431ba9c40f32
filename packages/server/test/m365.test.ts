import { evolve, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphError, type TenantGraphConnection } from '../src/m365/graph-api.js';
import { createGraphApi } from '../src/m365/graph-client.js';

const TENANT = '11111111-2222-3333-4444-555555555555';
const SECRET = 'sim-secret';

describe('the Graph client against the simulator', () => {
  let sim: RunningSimulator;
  let connection: TenantGraphConnection;
  const api = (options: Parameters<typeof createGraphApi>[1] = {}) =>
    createGraphApi(connection, { sleep: async () => {}, ...options });

  // A simulator of its own for each test: tests change its tenant (new files, versions, uploads, throttling).
  beforeEach(async () => {
    sim = await startSimulator({
      tenants: [
        {
          tenantId: TENANT,
          clientId: 'app-1',
          clientSecret: SECRET,
          size: { users: 3, filesPerDrive: 30, versionsPerFile: 3 },
        },
      ],
      pageSize: 7,
    });
    connection = {
      directoryId: TENANT,
      clientId: 'app-1',
      clientSecret: SECRET,
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphBaseUrl,
    };
  });
  afterEach(() => sim.close());

  it('gets an app token through MSAL, and is refused with a wrong secret', async () => {
    const users = [];
    for await (const u of api().users()) users.push(u);
    expect(users.map((u) => u.userPrincipalName)).toHaveLength(4);
    expect(users.some((u) => u.userPrincipalName?.includes('#EXT#'))).toBe(true);
    const wrong = createGraphApi({ ...connection, clientSecret: 'wrong' }, { sleep: async () => {} });
    await expect(wrong.userDrive(users[0]?.id ?? '')).rejects.toThrow(/invalid_client|Invalid client secret/);
  });

  it('follows @odata.nextLink over pages, and reads a drive fully then only its changes', async () => {
    const graph = api();
    const [user] = (await collect(graph.users())) as { id: string }[];
    const drive = await graph.userDrive(user?.id ?? '');
    const full = graph.driveDelta(drive.id ?? '');
    const first = [];
    for await (const page of full) first.push(...page);
    expect(first.filter((i) => i.file)).toHaveLength(30);
    expect(first.filter((i) => i.folder && !i.root).length).toBe(3);
    const link = full.deltaLink();
    expect(link).toContain('token=');

    const nothing = graph.driveDelta(drive.id ?? '', link);
    const none = [];
    for await (const page of nothing) none.push(...page);
    expect(none).toEqual([]);

    evolve(sim.state.tenant(TENANT), { newFiles: 8, editedFiles: 3, deletedFiles: 1 });
    const changes = graph.driveDelta(drive.id ?? '', nothing.deltaLink());
    const changed = [];
    for await (const page of changes) changed.push(...page);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(12);
  });

  it('reads versions and deterministic content, restores and removes versions', async () => {
    const graph = api();
    const [user] = (await collect(graph.users())) as { id: string }[];
    const drive = await graph.userDrive(user?.id ?? '');
    const file = (await collect(graph.children(drive.id ?? '', 'root'))).find((i) => i.file);
    const itemId = file?.id ?? '';
    const versions = await collect(graph.itemVersions(drive.id ?? '', itemId));
    expect(versions.length).toBeGreaterThanOrEqual(3);
    const oldest = versions.at(-1)?.id ?? '';
    const a = await graph.itemContent(drive.id ?? '', itemId, oldest);
    const b = await api().itemContent(drive.id ?? '', itemId, oldest);
    expect(Buffer.from(a)).toEqual(Buffer.from(b));
    expect(a.length).toBe(versions.at(-1)?.size);

    await graph.restoreVersion(drive.id ?? '', itemId, oldest);
    const after = await collect(graph.itemVersions(drive.id ?? '', itemId));
    expect(after).toHaveLength(versions.length + 1);
    expect(Buffer.from(await graph.itemContent(drive.id ?? '', itemId))).toEqual(Buffer.from(a));
    await graph.deleteVersion(drive.id ?? '', itemId, oldest);
    expect(await collect(graph.itemVersions(drive.id ?? '', itemId))).toHaveLength(versions.length);
    await expect(graph.deleteVersion(drive.id ?? '', itemId, after[0]?.id ?? '')).rejects.toBeInstanceOf(GraphError);
  });

  it('uploads small files directly and large ones through an upload session, with conflict behaviours', async () => {
    const graph = api();
    const [user] = (await collect(graph.users())) as { id: string }[];
    const driveId = (await graph.userDrive(user?.id ?? '')).id ?? '';
    const folder = await graph.createFolder(driveId, 'root', 'Restored', 'fail');
    await expect(graph.createFolder(driveId, 'root', 'Restored', 'fail')).rejects.toMatchObject({ status: 409 });
    const small = new TextEncoder().encode('hello restore');
    const created = await graph.uploadContent(driveId, folder.id ?? '', 'a.txt', small, 'fail');
    await expect(graph.uploadContent(driveId, folder.id ?? '', 'a.txt', small, 'fail')).rejects.toMatchObject({
      status: 409,
    });
    const renamed = await graph.uploadContent(driveId, folder.id ?? '', 'a.txt', small, 'rename');
    expect(renamed.name).toBe('a 1.txt');
    const large = new Uint8Array(11 * 1024 * 1024).map((_, i) => i % 251);
    const big = await graph.uploadContent(driveId, folder.id ?? '', 'big.bin', large, 'replace');
    // Compared as a whole: a deep equality of 11 MiB element by element would take minutes.
    expect(Buffer.compare(Buffer.from(await graph.itemContent(driveId, big.id ?? '')), Buffer.from(large))).toBe(0);
    expect((await graph.itemByPath(driveId, '/Restored/a.txt'))?.id).toBe(created.id);
    expect(await graph.itemByPath(driveId, '/Restored/none.txt')).toBeNull();
  });

  it('survives throttling by waiting Retry-After, gives up after the retries, and bounds concurrency', async () => {
    const waits: number[] = [];
    sim.state.setThrottle(3, 2);
    const graph = api({ onRetry: (r) => waits.push(r.delayMs), maxConcurrency: 3 });
    const users = await collect(graph.users());
    const drives = await Promise.all(users.map((u) => graph.userDrive(u.id ?? '')));
    const contents = await Promise.all(
      drives.flatMap((d) => [1, 2, 3].map(async () => (await collect(graph.children(d.id ?? '', 'root'))).length)),
    );
    expect(contents.every((n) => n > 0)).toBe(true);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((ms) => ms === 2000)).toBe(true);
    expect(sim.state.stats.maxInFlight).toBeLessThanOrEqual(4);

    sim.state.setThrottle(1, 0);
    await expect(api({ maxRetries: 2 }).userDrive(users[0]?.id ?? '')).rejects.toMatchObject({ status: 429 });
    sim.state.setThrottle(0);
  });

  it('reads mail folders with their paths, message delta and MIME; a guest has no mailbox, for good', async () => {
    const graph = api();
    const users = await collect(graph.users());
    const member = users.find((u) => !u.userPrincipalName?.includes('#EXT#'));
    const folders = await collect(graph.mailFolders(member?.id ?? ''));
    expect(folders.map((f) => f.path)).toEqual(['Inbox', 'Inbox/TestOrder', 'Sent Items', 'Archive']);
    const inbox = graph.messagesDelta(member?.id ?? '', folders[0]?.id ?? '');
    const messages = [];
    for await (const page of inbox) messages.push(...page);
    expect(messages.length).toBeGreaterThan(0);
    const mime = new TextDecoder().decode(await graph.messageMime(member?.id ?? '', messages[0]?.id ?? ''));
    expect(mime).toMatch(/^From: .+\r\nTo: .+\r\nSubject: /);
    const guest = users.find((u) => u.userPrincipalName?.includes('#EXT#'));
    const failure = await collect(graph.mailFolders(guest?.id ?? '')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GraphError);
    expect((failure as GraphError).code).toBe('MailboxNotEnabledForRESTAPI');
    expect((failure as GraphError).permanent).toBe(true);
  });
});

describe('a simulated tenant left alone', () => {
  it('changes by itself when asked to, so incremental runs have work', async () => {
    const sim = await startSimulator({ tenants: [{ tenantId: TENANT }], changeEveryMs: 20 });
    const tenant = sim.state.tenant(TENANT);
    const files = () => [...tenant.drives.values()].reduce((n, d) => n + d.items.size, 0);
    const before = files();
    await new Promise((r) => setTimeout(r, 120));
    expect(tenant.clock).toBeGreaterThan(1);
    expect(files()).toBeGreaterThan(before);
    await sim.close();
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
