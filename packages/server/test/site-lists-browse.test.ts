import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator } from '@compliance-portal/m365-simulator';
import { createClient, type DiscoveryNode, NotFoundError } from '@compliance-portal/sdk';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, API_KEY, jobsApi, PARTNER, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/**
 * A backed-up site's lists and pages in its snapshot's tree, through the SDK: beside the libraries a
 * node per list and the pages group; a list's items and the pages as each snapshot had them; a list's
 * items as csv; and none of it for a caller of another organisation.
 */
describe('browsing a site backup: lists, list items and pages', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-site-browse-')) });
  let sim: RunningSimulator;
  let origin = '';
  let token = '';
  let engine: JobEngine;
  const tenantId = TENANTS.contoso;

  beforeAll(async () => {
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    token = await sessionToken(server, ADMIN);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      {
        users: 2,
        sites: 1,
        teams: 0,
        filesPerDrive: 2,
        versionsPerFile: 1,
        listsPerSite: 3,
        listItemsPerList: 5,
        versionsPerListItem: 2,
        pagesPerSite: 3,
      },
      4,
    );
    const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-')));
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
  });
  afterEach(() => sim.close());

  const client = (as = token) => createClient({ origin, apiKey: API_KEY, token: as });
  const site = () => {
    const found = sim.state.tenant(tenantId).sites[0];
    if (!found) throw new Error('the simulated tenant has no site');
    return found;
  };
  const simLists = () => site().lists.filter((l) => !l.hidden && !l.system && l.template !== 'documentLibrary');
  /** A list's live items as the simulator has them now: id, title and version label, by id. */
  const simItems = (listId: string) =>
    [
      ...(site()
        .lists.find((l) => l.id === listId)
        ?.items.values() ?? []),
    ]
      .filter((i) => !i.deleted)
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((i) => {
        const latest = i.versions[i.versions.length - 1];
        return { id: i.id, title: String(latest?.values.Title ?? ''), version: latest?.id };
      });

  /** Items in the tree's order: by name without case, then by id. */
  const byName = <T extends { id: string; title: string }>(items: T[]) =>
    [...items].sort((a, b) =>
      a.title.toLowerCase() === b.title.toLowerCase()
        ? a.id.localeCompare(b.id)
        : a.title.toLowerCase() < b.title.toLowerCase()
          ? -1
          : 1,
    );

  async function backup() {
    const api = jobsApi(server, tenantId, () => token);
    const job = await api.create({ name: 'Site', type: 'backup', application: 'sharepoint', sources: [site().id] });
    const [row] = await server.ctx.db.query<{ location_id: string }>('select location_id from jobs where job_id = $1', [
      job.jobId,
    ]);
    const run = async () => {
      const { run } = await api.start(job.jobId, engine);
      expect(run.status).toBe('finished');
      // The next run finishes an hour later: each snapshot has a time of its own.
      server.clock.advance(3_600_000);
      return new Date(run.finished as string).toISOString();
    };
    return { jobId: job.jobId, locationId: row?.location_id ?? '', run };
  }

  /** Every child of `nodeId` at `snapshot`, page by page through the SDK. */
  async function children(locationId: string, nodeId: string, snapshot?: string, as = token) {
    const all: DiscoveryNode[] = [];
    for await (const node of client(as).apollo.discovery.items.items({
      tenantId,
      locationId,
      sourceId: site().id,
      nodeId,
      query: { pageSize: 2, ...(snapshot ? { snapshot } : {}) },
    }))
      all.push(node);
    return all;
  }

  it('shows the lists and the pages group beside the libraries, a list its items and the group its pages', async () => {
    const { locationId, run } = await backup();
    await run();
    const top = await children(locationId, 'root');
    const libraries = top.filter((n) => n.kind === 'library');
    expect(libraries.length).toBeGreaterThan(0);
    const lists = top.filter((n) => n.kind === 'list');
    expect(lists.map((n) => [n.nodeId, n.name, n.itemCount, n.hasChildren]).sort()).toEqual(
      simLists()
        .map((l) => [`list:${l.id}`, l.displayName, simItems(l.id).length, simItems(l.id).length > 0])
        .sort(),
    );
    // Libraries first, then lists, then the pages group.
    expect(top.map((n) => n.kind)).toEqual([...libraries.map(() => 'library'), ...lists.map(() => 'list'), 'pages']);
    expect(top.at(-1)).toMatchObject({ nodeId: 'pages', kind: 'pages', itemCount: 3, hasChildren: true });

    for (const list of simLists()) {
      const items = await children(locationId, `list:${list.id}`);
      expect(items.map((n) => [n.nodeId, n.kind, n.name, n.version, n.parentId])).toEqual(
        byName(simItems(list.id)).map((i) => [
          `listItem:${list.id}:${i.id}`,
          'listItem',
          i.title,
          i.version,
          `list:${list.id}`,
        ]),
      );
      for (const item of items) expect(Date.parse(item.modified ?? '')).not.toBeNaN();
    }

    const pages = await children(locationId, 'pages');
    expect(pages.map((n) => [n.nodeId, n.kind, n.name, n.version]).sort()).toEqual(
      site()
        .pages.map((p) => [`page:${p.id}`, 'page', p.title, p.versionId])
        .sort(),
    );

    // Search, paging and sort as the snapshot's other listings: by name, without case.
    const first = simLists()[0];
    const wanted = simItems(first?.id ?? '')[1];
    const found = await client().apollo.discovery.items({
      tenantId,
      locationId,
      sourceId: site().id,
      nodeId: `list:${first?.id}`,
      query: { search: (wanted?.title ?? '').toUpperCase() },
    });
    expect(found.items.map((n) => n.name)).toContain(wanted?.title);
    const titles = simItems(first?.id ?? '')
      .map((i) => i.title)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? 1 : -1));
    const second = await client().apollo.discovery.items({
      tenantId,
      locationId,
      sourceId: site().id,
      nodeId: `list:${first?.id}`,
      query: { sort: 'name', order: 'desc', page: 2, pageSize: 2 },
    });
    expect(second).toMatchObject({ total: titles.length, page: 2 });
    expect(second.items.map((n) => n.name)).toEqual(titles.slice(2, 4));

    // A list the snapshot does not have is not found.
    await expect(children(locationId, 'list:none')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("shows a list's items and exports them as csv as each snapshot had them", async () => {
    const { locationId, run } = await backup();
    const firstAt = await run();
    const before = new Map(simLists().map((l) => [l.id, simItems(l.id)]));
    evolve(sim.state.tenant(tenantId), { newListItems: 2, editedListItems: 3, deletedListItems: 2, editedPages: 1 });
    const secondAt = await run();
    const changed = simLists().filter((l) => JSON.stringify(simItems(l.id)) !== JSON.stringify(before.get(l.id)));
    expect(changed.length).toBeGreaterThan(0);

    for (const list of simLists()) {
      const nodes = (at: string) =>
        children(locationId, `list:${list.id}`, at).then((items) => items.map((n) => [n.nodeId, n.name, n.version]));
      const then = before.get(list.id) ?? [];
      const now = simItems(list.id);
      const tree = (items: typeof now) => byName(items).map((i) => [`listItem:${list.id}:${i.id}`, i.title, i.version]);
      expect(await nodes(firstAt)).toEqual(tree(then));
      expect(await nodes(secondAt)).toEqual(tree(now));

      const csvAt = async (at: string) => {
        const file = await client().apollo.discovery.listCsv({
          tenantId,
          locationId,
          sourceId: site().id,
          listId: list.id,
          query: { snapshot: at },
        });
        expect(file.contentType).toMatch(/^text\/csv/);
        expect(file.fileName).toBe(`${list.displayName}.csv`);
        const rows: string[][] = parse(await file.blob.text());
        const title = rows[0]?.indexOf('Title') ?? -1;
        expect(title).toBeGreaterThanOrEqual(0);
        return rows.slice(1).map((r) => r[title]);
      };
      // The csv keeps the list's own order: by item id.
      expect(await csvAt(firstAt)).toEqual(then.map((i) => i.title));
      expect(await csvAt(secondAt)).toEqual(now.map((i) => i.title));
    }
    // The two snapshots of a changed list differ, in the tree and in the csv alike.
    const list = changed[0];
    expect(await children(locationId, `list:${list?.id}`, firstAt)).not.toEqual(
      await children(locationId, `list:${list?.id}`, secondAt),
    );
  });

  it("refuses another organisation's caller the tree and the csv with the answer of an unknown tenant", async () => {
    const { locationId, run } = await backup();
    await run();
    const list = simLists()[0];
    const other = await sessionToken(server, PARTNER);
    await expect(children(locationId, `list:${list?.id}`, undefined, other)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      client(other).apollo.discovery.listCsv({ tenantId, locationId, sourceId: site().id, listId: list?.id ?? '' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    // The owner reads both.
    expect((await children(locationId, `list:${list?.id}`)).length).toBeGreaterThan(0);
    const own = await client().apollo.discovery.listCsv({
      tenantId,
      locationId,
      sourceId: site().id,
      listId: list?.id ?? '',
    });
    expect(parse(await own.blob.text()).length).toBe(simItems(list?.id ?? '').length + 1);
  });
});
