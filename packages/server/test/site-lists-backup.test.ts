import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator } from '@compliance-portal/m365-simulator';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { listItemsAt, listsAt, pagesAt } from '../src/jobs/executors/site-content-repository.js';
import { executors } from '../src/jobs/executors.js';
import { listItemsCsv } from '../src/modules/site-content/service.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/**
 * A site's lists and pages backed up with its libraries, against the simulator: the first run keeps
 * every list's definition, every item's every version and every page's canvas; after the tenant
 * changes, the next run keeps what changed, and each run's snapshot equals the simulator's model then.
 */
describe('site lists and pages backup', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-site-lists-')) });
  let sim: RunningSimulator;
  let token = '';
  let engine: JobEngine;
  const tenantId = TENANTS.contoso;

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      {
        users: 3,
        sites: 1,
        teams: 0,
        filesPerDrive: 4,
        versionsPerFile: 1,
        listsPerSite: 3,
        listItemsPerList: 6,
        versionsPerListItem: 2,
        pagesPerSite: 3,
      },
      4,
    );
    const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-')));
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
  });
  afterEach(() => sim.close());

  const api = () => jobsApi(server, tenantId, () => token);
  const site = () => {
    const found = sim.state.tenant(tenantId).sites[0];
    if (!found) throw new Error('the simulated tenant has no site');
    return found;
  };
  /** The simulator's lists a list backup keeps: not hidden, not libraries. */
  const simLists = () => site().lists.filter((l) => !l.hidden && !l.system && l.template !== 'documentLibrary');

  /** The run's snapshot equals the simulator's model now: definitions, items with every version's values, pages' canvas. */
  async function expectSnapshotMatches(jobId: string, seq: number) {
    const key = { jobId, siteId: site().id };
    const lists = await listsAt(server.ctx.db, key, seq);
    expect(lists.map((l) => l.listId).sort()).toEqual(
      simLists()
        .map((l) => l.id)
        .sort(),
    );
    for (const list of simLists()) {
      const stored = lists.find((l) => l.listId === list.id);
      expect(stored?.definition).toMatchObject({ displayName: list.displayName, template: list.template });
      expect(stored?.definition.columns.map((c) => [c.name, c.displayName, c.readOnly]).sort()).toEqual(
        list.columns.map((c) => [c.name, c.displayName, c.readOnly]).sort(),
      );
      expect(stored?.definition.contentTypes.map((c) => c.id).sort()).toEqual(
        list.contentTypes.map((c) => c.id).sort(),
      );
      const items = await listItemsAt(server.ctx.db, key, list.id, seq);
      const live = [...list.items.values()].filter((i) => !i.deleted);
      expect(items.map((i) => i.itemId)).toEqual(live.map((i) => i.id).sort((a, b) => Number(a) - Number(b)));
      for (const item of live) {
        const kept = items.find((i) => i.itemId === item.id);
        expect(kept?.versions.map((v) => v.versionId)).toEqual(item.versions.map((v) => v.id));
        for (const [at, version] of item.versions.entries()) {
          const fields = kept?.versions[at]?.fields ?? {};
          // Field for field: every column value of the version, and SharePoint's version label.
          for (const [name, value] of Object.entries(version.values))
            expect([name, fields[name]]).toEqual([name, value]);
          expect(fields._UIVersionString).toBe(version.id);
          expect(fields.ContentType).toBe(item.contentType.name);
        }
      }
    }
    const pages = await pagesAt(server.ctx.db, key, seq);
    const simPages = [...site().pages].sort((a, b) => a.name.localeCompare(b.name));
    expect(pages.map((p) => [p.pageId, p.name, p.title, p.versionId])).toEqual(
      simPages.map((p) => [p.id, p.name, p.title, p.versionId]),
    );
    for (const page of simPages) {
      const canvas = pages.find((p) => p.pageId === page.id)?.page.canvasLayout as {
        horizontalSections: {
          id: string;
          layout: string;
          columns: { width: number; webparts: Record<string, unknown>[] }[];
        }[];
      };
      expect(canvas.horizontalSections.map((s) => [s.id, s.layout, s.columns.map((c) => c.width)])).toEqual(
        page.sections.map((s) => [s.id, s.layout, s.columns.map((c) => c.width)]),
      );
      const parts = canvas.horizontalSections.flatMap((s) => s.columns.flatMap((c) => c.webparts));
      const simParts = page.sections.flatMap((s) => s.columns.flatMap((c) => c.webparts));
      expect(parts.map((w) => w.id)).toEqual(simParts.map((w) => w.id));
      for (const [at, part] of simParts.entries()) {
        if (part.kind === 'text') expect(parts[at]?.innerHtml).toBe(part.innerHtml);
        else expect(parts[at]).toMatchObject({ webPartType: part.webPartType, data: { title: part.data.title } });
      }
    }
  }

  it('backs up lists, items with every version and pages, then only what changed, snapshots matching the source', async () => {
    const job = await api().create({ name: 'Site', type: 'backup', application: 'sharepoint', sources: [site().id] });
    const first = await api().start(job.jobId, engine);
    const itemCount = simLists().reduce((n, l) => n + l.items.size, 0);
    // Files count as before; lists' items and pages have counters of their own.
    expect(first.run).toMatchObject({
      status: 'finished',
      items_done: 4,
      items_failed: 0,
      list_items_done: itemCount,
      pages_done: 3,
    });
    expect(itemCount).toBe(18);
    await expectSnapshotMatches(job.jobId, Number(first.run.seq));
    // Before the change, what the first run kept, to compare with the first snapshot later.
    const firstState = simLists().map((l) => ({
      id: l.id,
      items: [...l.items.values()].map((i) => ({ id: i.id, versions: i.versions.map((v) => v.id) })),
    }));

    evolve(sim.state.tenant(tenantId), { newListItems: 2, editedListItems: 3, deletedListItems: 2, editedPages: 2 });
    const deleted = simLists().flatMap((l) => [...l.items.values()].filter((i) => i.deleted));
    expect(deleted).toHaveLength(2);
    const second = await api().start(job.jobId, engine);
    expect(second.run).toMatchObject({ status: 'finished', items_failed: 0, items_done: 0, pages_done: 2 });
    // Two new, up to three edited (an edit may fall on an item deleted later) and two deleted.
    expect(Number(second.run.list_items_done)).toBeGreaterThanOrEqual(5);
    expect(Number(second.run.list_items_done)).toBeLessThanOrEqual(7);
    await expectSnapshotMatches(job.jobId, Number(second.run.seq));

    // The first snapshot still has the deleted items, at the versions they had then.
    for (const list of firstState) {
      const items = await listItemsAt(
        server.ctx.db,
        { jobId: job.jobId, siteId: site().id },
        list.id,
        Number(first.run.seq),
      );
      expect(items.map((i) => ({ id: i.itemId, versions: i.versions.map((v) => v.versionId) }))).toEqual(
        [...list.items].sort((a, b) => Number(a.id) - Number(b.id)),
      );
    }

    // Nothing changed: nothing new is read into the counters.
    const third = await api().start(job.jobId, engine);
    expect(third.run).toMatchObject({ status: 'finished', items_done: 0, list_items_done: 0, pages_done: 0 });
  });

  it('exports the items of a list as csv a standard parser reads back, value for value per column type', async () => {
    // A value with a quote, a comma and a line break: quoted as RFC 4180 says.
    const tricky = 'Said "yes", then\r\nleft';
    const first = simLists()[0];
    const firstItem = first ? [...first.items.values()][0] : undefined;
    const latest = firstItem?.versions[firstItem.versions.length - 1];
    if (latest) latest.values.Title = tricky;
    const job = await api().create({ name: 'Site', type: 'backup', application: 'sharepoint', sources: [site().id] });
    const { run } = await api().start(job.jobId, engine);
    expect(run.status).toBe('finished');
    const kinds = new Set<string>();
    for (const list of simLists()) {
      const csv = await listItemsCsv(server.ctx.db, {
        jobId: job.jobId,
        siteId: site().id,
        listId: list.id,
        seq: Number(run.seq),
      });
      expect(csv).not.toBeNull();
      expect(csv?.endsWith('\r\n')).toBe(true);
      const rows: string[][] = parse(csv ?? '', { relaxColumnCount: false });
      const columns = list.columns.filter((c) => !c.hidden);
      expect(rows[0]).toEqual(columns.map((c) => c.displayName));
      const items = [...list.items.values()].filter((i) => !i.deleted).sort((a, b) => Number(a.id) - Number(b.id));
      expect(rows).toHaveLength(items.length + 1);
      for (const [at, item] of items.entries()) {
        const values = item.versions[item.versions.length - 1]?.values ?? {};
        const expected = columns.map((c) => {
          kinds.add(c.kind);
          if (c.kind === 'lookup') {
            const looked = site().lists.find((l) => l.id === c.lookup?.listId);
            const id = String(values[`${c.name}LookupId`] ?? '');
            const target = looked?.items.get(id);
            return id
              ? String(target?.versions[target.versions.length - 1]?.values[c.lookup?.columnName ?? 'Title'] ?? id)
              : '';
          }
          if (c.readOnly) return null;
          const value = c.kind === 'personOrGroup' ? values[`${c.name}LookupId`] : values[c.name];
          if (c.kind === 'boolean') return value === true ? 'Yes' : value === false ? 'No' : '';
          return value === null || value === undefined ? '' : String(value);
        });
        const row = rows[at + 1] ?? [];
        for (const [i, want] of expected.entries())
          if (want !== null) expect([rows[0]?.[i], row[i]]).toEqual([rows[0]?.[i], want]);
      }
    }
    // The simulator's lists hold every column type the csv renders.
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['boolean', 'choice', 'dateTime', 'number', 'personOrGroup', 'text']),
    );
    const withTricky = await listItemsCsv(server.ctx.db, {
      jobId: job.jobId,
      siteId: site().id,
      listId: first?.id ?? '',
      seq: Number(run.seq),
    });
    expect(withTricky).toContain('"Said ""yes"", then\r\nleft"');
    expect(parse(withTricky ?? '')[1]).toContain(tricky);
    expect(
      await listItemsCsv(server.ctx.db, { jobId: job.jobId, siteId: site().id, listId: 'none', seq: Number(run.seq) }),
    ).toBeNull();
  });
});
