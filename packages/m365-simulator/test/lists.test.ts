/**
 * A site's lists as Graph serves them: the library's list and the generic lists (the hidden User
 * Information List only with `$select=system`), one list by id or title, columns with their type
 * facets, content types, items with `$expand=fields` and `fields($select=…)`, versions with their
 * fields, list item delta across changes with its 410s, the writes a restore makes (checked against
 * Microsoft's documented examples), the permissions each asks and throttling. Every answer is
 * checked against Graph's metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_APPLICATION_PERMISSIONS,
  type RunningSimulator,
  type SimList,
  type SimListItem,
  startSimulator,
} from '../src/index.js';
import { checkGraphAnswer } from '../src/metadata/check.js';
import { evolve, expireDeltaTokens, type SimTenant } from '../src/model.js';
import { graphOver } from './graph-walk.js';
import { accessToken, SIGN_IN_APP, signInTokens, TENANT } from './helpers.js';

type Row = Record<string, unknown> & { id: string };
type Fields = Record<string, unknown>;
const e = encodeURIComponent;
const json = { 'content-type': 'application/json' };

const siteOf = (tenant: SimTenant) => tenant.sites[0] ?? expect.unreachable('a site');
const listNamed = (tenant: SimTenant, name: string): SimList =>
  siteOf(tenant).lists.find((l) => l.name === name) ?? expect.unreachable(`a list ${name}`);
const latest = (item: SimListItem) => item.versions[item.versions.length - 1] ?? expect.unreachable('a version');

describe("a site's lists", () => {
  const graph = graphOver({ users: 3, sites: 1, teams: 0, listItemsPerList: 5, versionsPerListItem: 3 }, 2);
  const { tenant, get, all } = graph;
  const site = `/sites/${e(siteOf(tenant).id)}`;
  const issues = () => listNamed(tenant, 'IssueTracker');
  const register = () => listNamed(tenant, 'ContractRegister');

  it('lists the library, the issue tracker, the register and the custom list; the hidden User Information List only with $select=system', async () => {
    const lists = await all<Row>(`${site}/lists`);
    expect(lists.map((l) => [l.displayName, (l.list as Row).template, (l.list as Row).hidden])).toEqual([
      ['Documents', 'documentLibrary', false],
      ['Issue tracker', 'issueTracking', false],
      ['Contract register', 'genericList', false],
      ['Travel requests', 'genericList', false],
    ]);
    expect(lists.some((l) => 'system' in l)).toBe(false);
    const withSystem = await all<Row>(`${site}/lists?$select=id,displayName,list,system`);
    expect(withSystem).toHaveLength(5);
    expect(withSystem.at(-1)).toMatchObject({
      displayName: 'User Information List',
      list: { hidden: true, template: 'userInformation' },
      system: {},
    });
    expect(withSystem.filter((l) => 'system' in l)).toHaveLength(1);
    // The library's list shows the site's drive.
    const library = lists[0] ?? expect.unreachable('a library');
    const drive = (await get(`${site}/lists/${e(library.id)}/drive`)).body;
    expect(drive.id).toBe(siteOf(tenant).driveIds[0]);
    expect((await get(`${site}/drive`)).body.id).toBe(drive.id);
    expect((await get(`${site}/lists/${e(lists[1]?.id ?? '')}/drive`)).status).toBe(404);
  });

  it("answers as Microsoft's documented example of List lists: its rows' properties are all there, and it passes the checker", async () => {
    // learn.microsoft.com, List lists in a site: the answer to GET /sites/{site-id}/lists.
    const documented = {
      '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#sites('x')/lists",
      value: [
        {
          id: 'b57af081-936c-4803-a120-d94887b03864',
          name: 'Documents',
          createdDateTime: '2016-08-30T08:32:00Z',
          lastModifiedDateTime: '2016-08-30T08:32:00Z',
          list: { hidden: false, template: 'documentLibrary' },
        },
      ],
    };
    expect(
      checkGraphAnswer({ method: 'GET', path: '/sites/x/lists', status: 200, json: documented }).mismatches,
    ).toEqual([]);
    const [library] = (await get(`${site}/lists`)).body.value as Row[];
    const [example] = documented.value;
    for (const key of Object.keys(example ?? {})) expect(library, key).toHaveProperty(key);
    expect(library?.list).toMatchObject(example?.list ?? {});
  });

  it('answers one list by its id or its title, with its columns, content types and items expanded', async () => {
    const byId = await get(`${site}/lists/${e(issues().id)}`);
    expect(byId.status).toBe(200);
    expect((await get(`${site}/lists/${e('ISSUE TRACKER')}`)).body.id).toBe(issues().id);
    const expanded = (await get(`${site}/lists/${e(issues().id)}?$expand=columns,contentTypes,items($expand=fields)`))
      .body;
    expect((expanded.columns as Row[]).map((c) => c.name)).toEqual(issues().columns.map((c) => c.name));
    expect((expanded.contentTypes as Row[]).map((c) => c.name)).toEqual(['Issue', 'Folder']);
    expect((expanded.items as Row[]).map((i) => (i.fields as Fields).Title)).toEqual(
      [...issues().items.values()].map((i) => latest(i).values.Title),
    );
    const missing = await get(`${site}/lists/no-such-list`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'itemNotFound' });
    const wrongExpand = await get(`${site}/lists/${e(issues().id)}?$expand=owner`);
    expect(wrongExpand.status).toBe(400);
    expect(wrongExpand.body.error).toMatchObject({
      code: 'BadRequest',
      message:
        "Parsing OData Select and Expand failed: Could not find a property named 'owner' on type 'microsoft.graph.list'.",
    });
  });

  it('gives each column its type facet, and says which are required and which SharePoint fills', async () => {
    const columns = await all<Row>(`${site}/lists/${e(issues().id)}/columns`);
    const byName = new Map(columns.map((c) => [c.name, c]));
    expect(byName.get('Title')).toMatchObject({
      id: 'fa564e0f-0c70-4ab9-b863-0177e6ddd247',
      required: true,
      readOnly: false,
      text: { maxLength: 255 },
    });
    expect(byName.get('Comment')).toMatchObject({ text: { allowMultipleLines: true } });
    expect(byName.get('Status')).toMatchObject({ choice: { choices: ['Active', 'Resolved', 'Closed'] } });
    expect(byName.get('DueDate')).toHaveProperty('dateTime');
    expect(byName.get('AssignedTo')).toHaveProperty('personOrGroup');
    expect(byName.get('RelatedContract')).toMatchObject({ lookup: { listId: register().id, columnName: 'Title' } });
    for (const name of ['Modified', 'Created', 'Author', 'Editor', '_UIVersionString', 'Attachments'])
      expect(byName.get(name), name).toMatchObject({ readOnly: true, required: false });
    const registerColumns = await all<Row>(`${site}/lists/${e(register().id)}/columns`);
    const kinds = registerColumns.map((c) =>
      ['text', 'number', 'dateTime', 'choice', 'boolean', 'personOrGroup'].find((k) => k in c),
    );
    expect(new Set(kinds)).toEqual(new Set(['text', 'number', 'dateTime', 'choice', 'boolean', 'personOrGroup']));
  });

  it("gives each list content types of its own that derive from the site's", async () => {
    const siteTypes = await all<Row>(`${site}/contentTypes`);
    expect(siteTypes.map((c) => c.id)).toEqual(expect.arrayContaining(['0x01', '0x0101', '0x0103', '0x0120']));
    for (const list of [issues(), register(), listNamed(tenant, 'Shared Documents')]) {
      const types = await all<Row>(`${site}/lists/${e(list.id)}/contentTypes`);
      for (const [n, type] of types.entries()) {
        expect(String(type.id).startsWith(`${type.parentId}00`), String(type.id)).toBe(true);
        expect(siteTypes.map((c) => c.id)).toContain(type.parentId);
        expect(type.order).toEqual({ default: n === 0, position: n });
      }
    }
  });

  it('pages items with $expand=fields, as the model holds them, and keeps only the columns fields($select=…) names', async () => {
    const answer = await get(`${site}/lists/${e(register().id)}/items?$expand=fields`);
    expect(answer.body['@odata.nextLink']).toMatch(/\$skiptoken=/);
    const items = await all<Row>(`${site}/lists/${e(register().id)}/items?$expand=fields`);
    const model = [...register().items.values()];
    expect(items.map((i) => i.id)).toEqual(model.map((i) => i.id));
    for (const [n, item] of items.entries()) {
      const source = model[n] ?? expect.unreachable('an item');
      expect(item.fields).toMatchObject({
        ...latest(source).values,
        id: source.id,
        ContentType: 'Item',
        _UIVersionString: latest(source).id,
        Attachments: false,
      });
      expect(item.eTag).toBe((item.fields as Fields)['@odata.etag']);
    }
    const selected = await all<Row>(
      `${site}/lists/${e(register().id)}/items?$expand=fields($select=Title,Customer)&$select=id`,
    );
    for (const item of selected) {
      expect(Object.keys(item).sort()).toEqual(['@odata.etag', 'fields', 'id']);
      expect(Object.keys(item.fields as Fields).sort()).toEqual(['@odata.etag', 'Customer', 'Title']);
    }
    // Graph's SharePoint form without the dollars, as Microsoft's documentation writes it.
    const [first] = (await get(`${site}/lists/${e(register().id)}/items?expand=fields(select=Title)`)).body
      .value as Row[];
    expect(Object.keys(first?.fields as Fields).sort()).toEqual(['@odata.etag', 'Title']);
    const one = await get(`${site}/lists/${e(register().id)}/items/2?$expand=fields`);
    const { '@odata.context': _context, ...fields } = (await get(`${site}/lists/${e(register().id)}/items/2/fields`))
      .body;
    expect(one.body.fields).toEqual(fields);
    expect((await get(`${site}/lists/${e(register().id)}/items/99`)).status).toBe(404);
    expect((await get(`${site}/lists/${e(register().id)}/items?$expand=attachments`)).status).toBe(400);
  });

  it('keeps every version of an item, newest first, each with its fields', async () => {
    const source = issues().items.get('3') ?? expect.unreachable('item 3');
    const versions = await all<Row>(`${site}/lists/${e(issues().id)}/items/3/versions?$expand=fields`);
    expect(versions.map((v) => v.id)).toEqual(['3.0', '2.0', '1.0']);
    for (const version of versions) {
      const stored = source.versions.find((v) => v.id === version.id) ?? expect.unreachable('a version');
      expect(version.lastModifiedDateTime).toBe(stored.modified);
      expect(version.fields).toMatchObject({ ...stored.values, _UIVersionString: stored.id });
    }
    // Each version after the first changed a column.
    for (let v = 1; v < source.versions.length; v++)
      expect(source.versions[v]?.values).not.toEqual(source.versions[v - 1]?.values);
    const one = await get(`${site}/lists/${e(issues().id)}/items/3/versions/1.0?$expand=fields`);
    const { '@odata.context': _at, ...versionFields } = (
      await get(`${site}/lists/${e(issues().id)}/items/3/versions/1.0/fields`)
    ).body;
    expect(one.body.fields).toEqual(versionFields);
    expect((await get(`${site}/lists/${e(issues().id)}/items/3/versions/9.0`)).status).toBe(404);
    const withVersions = await get(`${site}/lists/${e(issues().id)}/items/3?$expand=versions($expand=fields)`);
    expect((withVersions.body.versions as Row[]).map((v) => v.id)).toEqual(['3.0', '2.0', '1.0']);
  });

  it("shows the library's files and folders as its items, and the tenant's people as the User Information List's", async () => {
    const library = listNamed(tenant, 'Shared Documents');
    const drive = tenant.drives.get(library.driveId ?? '') ?? expect.unreachable('a drive');
    const files = [...drive.items.values()].filter((i) => i.kind !== 'root');
    const items = await all<Row>(`${site}/lists/${e(library.id)}/items?$expand=fields`);
    expect(items.map((i) => (i.fields as Fields).FileLeafRef)).toEqual(files.map((f) => f.name));
    expect(items.map((i) => (i.contentType as Row).name)).toEqual(
      files.map((f) => (f.kind === 'folder' ? 'Folder' : 'Document')),
    );
    const file = files.findIndex((f) => f.kind === 'file');
    const versions = await all<Row>(`${site}/lists/${e(library.id)}/items/${file + 1}/versions`);
    expect(versions).toHaveLength(files[file]?.versions.length ?? 0);
    const people = await all<Row>(`${site}/lists/${e('User Information List')}/items?$expand=fields`);
    expect(people.map((p) => (p.fields as Fields).EMail)).toEqual(tenant.users.map((u) => u.upn));
  });

  it('holds person columns as ids of the User Information List and lookups as ids of the looked-up items', async () => {
    const people = new Set((await all<Row>(`${site}/lists/${e('User Information List')}/items`)).map((p) => p.id));
    const contracts = new Set((await all<Row>(`${site}/lists/${e(register().id)}/items`)).map((i) => i.id));
    for (const item of await all<Row>(`${site}/lists/${e(issues().id)}/items?$expand=fields`)) {
      const fields = item.fields as Fields;
      expect(people.has(String(fields.AssignedToLookupId))).toBe(true);
      expect(people.has(String(fields.AuthorLookupId))).toBe(true);
      expect(contracts.has(String(fields.RelatedContractLookupId))).toBe(true);
    }
  });

  it('matched Graph v1.0’s metadata in every answer', () => {
    expect(graph.validation?.mismatches).toEqual([]);
  });
});

describe('list item delta', () => {
  const graph = graphOver({ users: 3, sites: 1, teams: 0, listItemsPerList: 5, versionsPerListItem: 1 }, 2);
  const { tenant, get } = graph;
  const site = `/sites/${e(siteOf(tenant).id)}`;
  const issues = () => listNamed(tenant, 'IssueTracker');
  const deltaOf = (list: SimList) => `${site}/lists/${e(list.id)}/items/delta`;

  /** A delta round to its end: the items and the delta link. */
  async function round(url: string) {
    const items: Row[] = [];
    const requests: string[] = [];
    let next: string | undefined = url;
    let deltaLink = '';
    while (next) {
      requests.push(next);
      const answer = await get(next);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      items.push(...(answer.body.value as Row[]));
      next = answer.body['@odata.nextLink'] as string | undefined;
      deltaLink = (answer.body['@odata.deltaLink'] as string | undefined) ?? deltaLink;
    }
    return { items, deltaLink, requests };
  }

  it('enumerates every item, then only those added, edited or deleted since, in Graph’s link forms', async () => {
    const full = await round(`${deltaOf(issues())}?$expand=fields`);
    expect(full.items.map((i) => i.id)).toEqual([...issues().items.keys()]);
    expect(full.requests.length).toBe(3);
    expect(full.requests[1]).toMatch(/\/items\/delta\?\$expand=fields&token=/);
    expect(full.deltaLink).toMatch(/\/items\/delta\?\$expand=fields&token=/);
    expect((await round(full.deltaLink)).items).toEqual([]);

    const before = tenant.clock;
    evolve(tenant, { newListItems: 8, editedListItems: 6, deletedListItems: 3 });
    const changed = [...issues().items.values()].filter((i) => i.changed > before);
    expect(changed.length).toBeGreaterThan(0);
    const next = await round(full.deltaLink);
    expect(new Set(next.items.map((i) => i.id))).toEqual(new Set(changed.map((i) => i.id)));
    for (const row of next.items) {
      const source = issues().items.get(row.id) ?? expect.unreachable('an item');
      if (source.deleted)
        expect(row).toEqual({
          id: row.id,
          deleted: { state: 'deleted' },
          parentReference: { siteId: siteOf(tenant).id },
        });
      else expect((row.fields as Fields)._UIVersionString).toBe(latest(source).id);
    }
    // An edited item has a new version; a new one its first.
    const edited = changed.find((i) => !i.deleted && i.versions.length > 1);
    expect(edited).toBeDefined();
    expect(changed.some((i) => Number(i.id) > 5 && i.versions.length >= 1)).toBe(true);
  });

  it('answers token=latest with only a delta link, and the call form delta() as the bare name', async () => {
    const latestLink = await get(`${deltaOf(issues())}?token=latest`);
    expect(latestLink.body.value).toEqual([]);
    expect(latestLink.body['@odata.deltaLink']).toMatch(/token=/);
    const call = await round(`${deltaOf(issues())}()`);
    expect(call.items.length).toBe([...issues().items.values()].filter((i) => !i.deleted).length);
    expect(call.deltaLink).toMatch(/\/items\/delta\?token=/);
    evolve(tenant, { newListItems: 4 });
    expect((await round(String(latestLink.body['@odata.deltaLink']))).items.length).toBeGreaterThan(0);
  });

  it("follows the library's drive: new files come as new items", async () => {
    const library = listNamed(tenant, 'Shared Documents');
    const full = await round(deltaOf(library));
    evolve(tenant, { newFiles: tenant.drives.size });
    const next = await round(full.deltaLink);
    expect(next.items.length).toBe(1);
    expect(((await get(`${deltaOf(library)}?token=latest`)).body.value as Row[]).length).toBe(0);
  });

  it('answers 410 resyncRequired for a token of another list, an altered one, and one past the retention', async () => {
    const register = listNamed(tenant, 'ContractRegister');
    const foreign = new URL((await round(deltaOf(register))).deltaLink).searchParams.get('token') ?? '';
    const mine = await round(deltaOf(issues()));
    for (const url of [`${deltaOf(issues())}?token=${e(foreign)}`, `${deltaOf(issues())}?token=nonsense`]) {
      const answer = await get(url);
      expect(answer.status).toBe(410);
      expect(answer.body.error).toMatchObject({
        code: 'resyncRequired',
        innerError: { code: 'resyncChangesApplyDifferences' },
      });
      expect(answer.headers?.location).toMatch(/\/items\/delta$/);
    }
    expireDeltaTokens(tenant);
    const gone = await get(mine.deltaLink);
    expect(gone.status).toBe(410);
    expect((await round(deltaOf(issues()))).items.length).toBeGreaterThan(0);
  });

  it('is the same change for the same tenant (deterministic), dated at the time given', () => {
    const size = { users: 3, sites: 1, teams: 0 };
    const a = graphOver(size).tenant;
    const b = graphOver(size).tenant;
    for (const t of [a, b]) evolve(t, { newListItems: 3, editedListItems: 3, deletedListItems: 1 });
    const snapshot = (t: SimTenant) => JSON.stringify(siteOf(t).lists.map((l) => [...l.items.values()]));
    expect(snapshot(a)).toBe(snapshot(b));
    // List changes draw from their own generator: files and mail change as they did before.
    const plain = graphOver(size).tenant;
    const withLists = graphOver(size).tenant;
    evolve(plain, { newFiles: 2, editedFiles: 2, deletedFiles: 1 });
    evolve(withLists, { newFiles: 2, editedFiles: 2, deletedFiles: 1, newListItems: 2, editedListItems: 2 });
    const files = (t: SimTenant) => JSON.stringify([...t.drives.values()].map((d) => [...d.items.values()]));
    expect(files(withLists)).toBe(files(plain));
    const at = '2026-12-01T10:00:00.000Z';
    const change = evolve(a, { newListItems: 2, editedListItems: 1, at });
    const touched = siteOf(a)
      .lists.flatMap((l) => [...l.items.values()])
      .filter((i) => i.changed === change);
    expect(touched.length).toBeGreaterThan(0);
    for (const item of touched) expect(latest(item).modified.slice(0, 13)).toBe('2026-12-01T10');
  });

  it('matched Graph v1.0’s metadata in every answer', () => {
    expect(graph.validation?.mismatches).toEqual([]);
  });
});

describe('the writes a restore makes', () => {
  const graph = graphOver({ users: 3, sites: 1, teams: 0 }, 5);
  const { tenant, get, call } = graph;
  const site = `/sites/${e(siteOf(tenant).id)}`;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call('POST', url, { body: JSON.stringify(body), headers: { ...json, ...headers } });
  const patch = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call('PATCH', url, { body: JSON.stringify(body), headers: { ...json, ...headers } });

  it("creates the documented example's list, item and field update, answering as Microsoft documents them", async () => {
    // learn.microsoft.com, Create a new list: the request's body; the answer is a list, 201.
    const books = await post(`${site}/lists`, {
      displayName: 'Books',
      columns: [
        { name: 'Author', text: {} },
        { name: 'PageCount', number: {} },
      ],
      list: { template: 'genericList' },
    });
    expect(books.status).toBe(201);
    expect(books.body).toMatchObject({
      displayName: 'Books',
      list: { template: 'genericList' },
      createdBy: { user: { displayName: 'SharePoint App' } },
    });
    for (const key of ['id', 'createdDateTime', 'createdBy', 'lastModifiedDateTime'])
      expect(books.body).toHaveProperty(key);
    const columns = (await get(`${site}/lists/${e(String(books.body.id))}/columns`)).body.value as Row[];
    // The genericList template's Title, then the columns given; Author is SharePoint's own column's
    // name (Created By), so the new one's internal name gets a number.
    const kind = (c: Row) => ('text' in c ? 'text' : 'number' in c ? 'number' : '?');
    expect(columns.slice(0, 3).map((c) => [c.name, c.displayName, kind(c)])).toEqual([
      ['Title', 'Title', 'text'],
      ['Author0', 'Author', 'text'],
      ['PageCount', 'PageCount', 'number'],
    ]);
    // Create listItem and Update listItem's examples use Color, Weight and Quantity.
    const widgets = await post(`${site}/lists`, {
      displayName: 'Widgets',
      columns: [
        { name: 'Color', text: {} },
        { name: 'Weight', number: {} },
        { name: 'Quantity', number: {} },
      ],
    });
    const items = `${site}/lists/${e(String(widgets.body.id))}/items`;
    const created = await post(items, { fields: { Title: 'Widget', Color: 'Purple', Weight: 32 } });
    expect(created.status).toBe(201);
    for (const key of ['id', 'createdDateTime', 'createdBy', 'lastModifiedDateTime', 'lastModifiedBy'])
      expect(created.body).toHaveProperty(key);
    expect(created.body.fields).toMatchObject({
      Title: 'Widget',
      Color: 'Purple',
      Weight: 32,
      _UIVersionString: '1.0',
    });
    const updated = await patch(`${items}/${created.body.id}/fields`, { Color: 'Fuchsia', Quantity: 934 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      Title: 'Widget',
      Color: 'Fuchsia',
      Quantity: 934,
      Weight: 32,
      _UIVersionString: '2.0',
    });
    expect(String(updated.body['@odata.context'])).toMatch(/\/fields\/\$entity$/);
    const versions = (await get(`${items}/${created.body.id}/versions?$expand=fields`)).body.value as Row[];
    expect(versions.map((v) => (v.fields as Fields).Color)).toEqual(['Fuchsia', 'Purple']);
  });

  it('writes every column type, persons and lookups by their ids, and a library as a new drive of the site', async () => {
    const register = listNamed(tenant, 'ContractRegister');
    const list = await post(`${site}/lists`, {
      displayName: 'Restored issues',
      columns: [
        { name: 'Details', text: { allowMultipleLines: true } },
        { name: 'Cost', number: {} },
        { name: 'Due', dateTime: {} },
        { name: 'State', choice: { choices: ['Open', 'Done'] } },
        { name: 'Urgent', boolean: {} },
        { name: 'Owner', personOrGroup: {} },
        { name: 'Contract', lookup: { listId: register.id, columnName: 'Title' } },
      ],
    });
    expect(list.status).toBe(201);
    const fields = {
      Title: 'Printer on fire',
      Details: 'Smoke.\nFlames.',
      Cost: '12.5',
      Due: '2026-10-01T08:00:00.000Z',
      State: 'Open',
      Urgent: true,
      OwnerLookupId: '11',
      ContractLookupId: 2,
    };
    const item = await post(`${site}/lists/${e(String(list.body.id))}/items`, { fields });
    expect(item.status).toBe(201);
    expect(item.body.fields).toMatchObject({
      ...fields,
      Cost: 12.5,
      Due: '2026-10-01T08:00:00Z',
      ContractLookupId: '2',
    });
    const library = await post(`${site}/lists`, {
      displayName: 'Restored library',
      list: { template: 'documentLibrary' },
    });
    expect(library.status).toBe(201);
    const drive = (await get(`${site}/lists/${e(String(library.body.id))}/drive`)).body;
    expect(drive).toMatchObject({ name: 'Restored library', driveType: 'documentLibrary' });
    expect(siteOf(tenant).driveIds).toContain(drive.id);
    expect(((await get(`${site}/drives`)).body.value as Row[]).map((d) => d.id)).toContain(drive.id);
  });

  it('refuses what Graph refuses: a read-only, unknown or mistyped field, an unknown person or item, a duplicate list', async () => {
    const list = listNamed(tenant, 'TravelRequests');
    const items = `${site}/lists/${e(list.id)}/items`;
    const refusals: [unknown, string][] = [
      [{ Title: 'x', Modified: '2020-01-01T00:00:00Z' }, "Field 'Modified' is read-only"],
      [{ Title: 'x', AuthorLookupId: '10' }, "Field 'AuthorLookupId' is read-only"],
      [{ Title: 'x', Colour: 'red' }, "Field 'Colour' is not recognized"],
      [{ Title: 'x', Nights: 'many' }, "The value of field 'Nights' is not valid for a number column."],
      [{ Title: 'x', Approved: 'yes' }, "The value of field 'Approved' is not valid for a boolean column."],
      [{ Title: 'x', Departure: 'tomorrow' }, "The value of field 'Departure' is not valid for a dateTime column."],
      [{ Title: 'x', TravellerLookupId: '999' }, "The value of field 'TravellerLookupId' names no user of the site."],
      [{ Title: 'x'.repeat(256) }, "The value of field 'Title' is longer than 255."],
    ];
    for (const [fields, message] of refusals) {
      const answer = await post(items, { fields });
      expect(answer.status, message).toBe(400);
      expect(answer.body.error, message).toMatchObject({ code: 'invalidRequest', message });
    }
    const duplicate = await post(`${site}/lists`, { displayName: 'travel REQUESTS' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'nameAlreadyExists' });
    expect((await post(`${site}/lists`, { displayName: 'Survey', list: { template: 'survey' } })).status).toBe(400);
    expect(
      (await post(`${site}/lists`, { displayName: 'Sums', columns: [{ name: 'Total', calculated: {} }] })).status,
    ).toBe(400);
    const library = listNamed(tenant, 'Shared Documents');
    const inLibrary = await post(`${site}/lists/${e(library.id)}/items`, { fields: { Title: 'x' } });
    expect(inLibrary.body.error).toMatchObject({
      code: 'invalidRequest',
      message: 'Files and folders should only be added to a DocumentLibrary via the OneDrive API',
    });
    expect(list.items.size).toBe(4);
  });

  it('updates fields only with the current eTag when If-Match is given, and delta sees the new version', async () => {
    const list = listNamed(tenant, 'IssueTracker');
    const delta = (await get(`${site}/lists/${e(list.id)}/items/delta`)).body;
    let link = String(delta['@odata.deltaLink'] ?? '');
    for (let next = delta['@odata.nextLink'] as string | undefined; next; ) {
      const page = (await get(next)).body;
      next = page['@odata.nextLink'] as string | undefined;
      link = String(page['@odata.deltaLink'] ?? link);
    }
    const item = `${site}/lists/${e(list.id)}/items/2`;
    const etag = String((await get(item)).body.eTag);
    const stale = await patch(`${item}/fields`, { Status: 'Resolved' }, { 'if-match': '"stale,1"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'resourceModified' });
    const fresh = await patch(`${item}/fields`, { Status: 'Resolved' }, { 'if-match': etag });
    expect(fresh.status).toBe(200);
    expect(String((await get(item)).body.eTag)).not.toBe(etag);
    const changes = (await get(`${link}&$expand=fields`)).body.value as Row[];
    expect(changes.map((c) => [c.id, (c.fields as Fields).Status])).toEqual([['2', 'Resolved']]);
  });

  it('matched Graph v1.0’s metadata in every answer', () => {
    expect(graph.validation?.mismatches).toEqual([]);
  });
});

describe('lists over HTTP: permissions and throttling', () => {
  const PASSWORD = 'Lists-Passw0rd!';
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 2, sites: 1, teams: 0 } }],
      signInApps: [SIGN_IN_APP],
      userPassword: PASSWORD,
      validate: true,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const model = () => sim.state.tenant(TENANT);
  const site = () => `/sites/${e(siteOf(model()).id)}`;
  const issues = () => `${site()}/lists/${e(listNamed(model(), 'IssueTracker').id)}`;
  const tokenWith = async (roles: readonly string[]) => {
    sim.state.setConsent(TENANT, roles);
    const token = await accessToken(sim);
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    return token;
  };
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${sim.graphBaseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...json, ...init.headers },
    });
  const newItem = { method: 'POST', body: JSON.stringify({ fields: { Title: 'From a test' } }) };
  const newList = (name: string) => ({ method: 'POST', body: JSON.stringify({ displayName: name }) });

  it('reads with Sites.Read.All, writes items with Sites.ReadWrite.All, makes lists with Sites.Manage.All too', async () => {
    const read = await tokenWith(['Sites.Read.All']);
    for (const path of [
      `${site()}/lists`,
      `${issues()}/items?$expand=fields`,
      `${issues()}/items/delta`,
      `${issues()}/columns`,
    ])
      expect((await call(read, path)).status, path).toBe(200);
    const refused = await call(read, `${issues()}/items`, newItem);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'accessDenied', message: 'Access denied' } });
    expect((await call(await tokenWith(['Files.Read.All']), `${site()}/lists`)).status).toBe(403);
    expect((await call(await tokenWith(['Sites.ReadWrite.All']), `${issues()}/items`, newItem)).status).toBe(201);
    expect((await call(await tokenWith(['Sites.Manage.All']), `${site()}/lists`, newList('Managed'))).status).toBe(201);
    expect((await call(await tokenWith(['Sites.ReadWrite.All']), `${site()}/lists`, newList('Written'))).status).toBe(
      201,
    );
    expect((await call(read, `${site()}/lists`, newList('Read only'))).status).toBe(403);
  });

  it("records a signed-in user's writes as theirs; delegated Sites.ReadWrite.All writes items, only Sites.Manage.All makes lists", async () => {
    const user = model().users[1] ?? expect.unreachable('a user');
    const token = async (scope: string) =>
      (await signInTokens(sim, user.upn, `openid ${scope}`, PASSWORD)).access_token;
    const write = await token('Sites.ReadWrite.All');
    const created = await call(write, `${issues()}/items`, newItem);
    expect(created.status).toBe(201);
    const body = (await created.json()) as { createdBy: unknown; fields: Fields };
    expect(body.createdBy).toEqual({ user: { id: user.id, displayName: user.displayName } });
    expect(body.fields.AuthorLookupId).toBe('11');
    expect((await call(write, `${site()}/lists`, newList('Delegated'))).status).toBe(403);
    expect((await call(await token('Sites.Manage.All'), `${site()}/lists`, newList('Delegated'))).status).toBe(201);
    expect((await call(await token('Sites.Read.All'), `${issues()}/items`)).status).toBe(200);
    expect((await call(await token('Files.Read'), `${issues()}/items`)).status).toBe(403);
  });

  it('throttles list paths like any other, with Retry-After', async () => {
    const token = await accessToken(sim);
    sim.state.setThrottle(2, 1, { paths: '/lists/' });
    try {
      const statuses = [];
      for (let n = 0; n < 4; n++) {
        const answer = await call(token, `${issues()}/items`);
        statuses.push([answer.status, answer.headers.get('retry-after')]);
      }
      expect(statuses).toEqual([
        [200, null],
        [429, '1'],
        [200, null],
        [429, '1'],
      ]);
      expect((await call(token, `${site()}/lists`)).status).toBe(200);
    } finally {
      sim.state.setThrottle(0);
    }
  });

  it('changes lists through POST /_simulator/evolve', async () => {
    const before = [...listNamed(model(), 'IssueTracker').items.values()].length;
    const answer = await fetch(`${sim.url}/_simulator/evolve`, {
      method: 'POST',
      headers: { ...json, 'x-simulator-control': sim.controlKey },
      body: JSON.stringify({
        tenantId: TENANT,
        newListItems: 3,
        editedListItems: 1,
        deletedListItems: 1,
        editedPages: 1,
      }),
    });
    expect(answer.status).toBe(200);
    expect([...listNamed(model(), 'IssueTracker').items.values()].length).toBe(before + 1);
    expect(sim.state.validation?.mismatches).toEqual([]);
  });
});
