/**
 * A site's lists as Graph serves them: the lists (the library that backs the site's drive, generic
 * lists, and the hidden User Information List when `$select` asks for `system`), one list by id or by
 * its title, its columns and content types and the site's, its items with `$expand=fields` (and
 * `fields($select=…)`), one item, its fields, its versions with theirs, and list item delta with
 * Graph's `token` links and 410s. Writes a restore makes: a list with its columns, an item with its
 * fields, an item's fields updated (a new version). Items have no attachments here: Graph v1.0 has
 * no path to a list item's attachments.
 */
import { randomUUID } from 'node:crypto';
import { hexId } from '../generate.js';
import { pathOf, type SimDrive, type SimItem, type SimTenant } from '../model.js';
import {
  type FieldValue,
  fieldDate,
  lookupIdOf,
  newList,
  type Principal,
  principalOfLookupId,
  SHAREPOINT_APP,
  SITE_CONTENT_TYPES,
  type SimColumn,
  type SimContentType,
  type SimList,
  type SimListItem,
  type SimListItemVersion,
  SYSTEM_ACCOUNT,
  templateColumns,
} from '../sites.js';
import { driveJson } from './drives.js';
import { delta, graphError, jsonBody, notFound, page, type SimRequest, type SimResponse } from './odata.js';
import { type Expansion, expandText, parseExpand, QueryError } from './query.js';
import { type GraphCall, type GraphRoute, type RouteOptions, route } from './router.js';

export type SimSite = SimTenant['sites'][number];

/** Graph's largest page of list items. */
const ITEMS = { max: 999 };

const siteNotFound = () => graphError(404, 'itemNotFound', 'Requested site could not be found');
const listNotFound = () => graphError(404, 'itemNotFound', 'The specified list was not found');
const itemNotFound = () => graphError(404, 'itemNotFound', 'The specified list item was not found');
const invalid = (message: string) => graphError(400, 'invalidRequest', message);

/** Who makes a write: the signed-in user, or the SharePoint App for an app-only token. */
export const writerOf = (call: GraphCall): Principal =>
  call.access.kind === 'delegated' ? call.access.userId : SHAREPOINT_APP;

/** A person, SharePoint's system account or the app, as an identitySet. */
export function identityOf(tenant: SimTenant, who: Principal) {
  if (who === SYSTEM_ACCOUNT) return { user: { displayName: 'System Account' } };
  if (who === SHAREPOINT_APP) return { user: { displayName: 'SharePoint App' } };
  const user = tenant.users.find((u) => u.id === who);
  return { user: { id: who, displayName: user?.displayName ?? 'User' } };
}

/** A live site by id, or Graph's 404. */
export function siteOf(call: GraphCall): SimSite | SimResponse {
  return call.tenant.sites.find((s) => s.id === call.params.site && !s.deleted) ?? siteNotFound();
}

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';

/** A list by its id, or by its title as Graph also takes it (without regard to case). */
const listOf = (site: SimSite, key: string) =>
  site.lists.find((l) => l.id.toLowerCase() === key.toLowerCase()) ??
  site.lists.find((l) => l.displayName.toLowerCase() === key.toLowerCase());

const listUrl = (site: SimSite, list: SimList) =>
  list.driveId
    ? `${site.webUrl}/${list.name}`
    : list.template === 'userInformation'
      ? `${site.webUrl}/_catalogs/${list.name}`
      : `${site.webUrl}/Lists/${list.name}`;

/** A library's list items: its drive's files and folders, numbered in the order they were made. */
function libraryItems(tenant: SimTenant, list: SimList, drive: SimDrive): (SimListItem & { path: string })[] {
  const owner = tenant.users.find((u) => u.driveId === drive.id);
  const by: Principal = owner?.id ?? SYSTEM_ACCOUNT;
  const [document, folder] = list.contentTypes;
  const out: (SimListItem & { path: string })[] = [];
  let n = 0;
  for (const item of drive.items.values()) {
    if (item.kind === 'root') continue;
    n += 1;
    out.push({
      ...libraryItem(item, String(n), by, item.kind === 'folder' ? folder : document),
      path: pathOf(drive, item),
    });
  }
  return out;
}

function libraryItem(item: SimItem, id: string, by: Principal, contentType: SimContentType | undefined): SimListItem {
  const versions: SimListItemVersion[] =
    item.kind === 'folder'
      ? [{ id: '1.0', modified: item.created, editor: by, values: { FileLeafRef: item.name } }]
      : item.versions.map((v, k) => ({
          id: `${k + 1}.0`,
          modified: v.modified,
          editor: by,
          values: { FileLeafRef: item.name, FileSizeDisplay: String(v.size) },
        }));
  return {
    id,
    uniqueId: hexId(item.driveId, item.id),
    created: item.created,
    author: by,
    contentType: { id: contentType?.id ?? '0x0101', name: contentType?.name ?? 'Document' },
    versions,
    changed: item.changed,
    deleted: item.deleted,
  };
}

/** The User Information List's items: the tenant's people by their lookup ids. */
function userInformationItems(tenant: SimTenant, list: SimList): SimListItem[] {
  return tenant.users.map((u) => ({
    id: lookupIdOf(tenant, u.id),
    uniqueId: hexId(list.id, u.id),
    created: list.created,
    author: SYSTEM_ACCOUNT,
    contentType: { id: list.contentTypes[0]?.id ?? '0x01', name: 'Person' },
    versions: [
      {
        id: '1.0',
        modified: list.created,
        editor: SYSTEM_ACCOUNT,
        values: { Title: u.displayName, EMail: u.upn, UserName: u.upn },
      },
    ],
    changed: 0,
    deleted: false,
  }));
}

/** A list's items, deleted ones included (with the web address of each). */
function itemsOf(tenant: SimTenant, site: SimSite, list: SimList): (SimListItem & { webUrl: string })[] {
  const base = listUrl(site, list);
  if (list.driveId) {
    const drive = tenant.drives.get(list.driveId);
    return drive ? libraryItems(tenant, list, drive).map((i) => ({ ...i, webUrl: `${base}${i.path}` })) : [];
  }
  const items = list.template === 'userInformation' ? userInformationItems(tenant, list) : [...list.items.values()];
  return items.map((i) => ({ ...i, webUrl: `${base}/${i.id}_.000` }));
}

const latestOf = (item: SimListItem) => item.versions[item.versions.length - 1];
const etagOf = (item: SimListItem) => `"${item.uniqueId},${item.versions.length}"`;

/** When a list last changed: its newest item version, or when it was made. */
function listModified(tenant: SimTenant, site: SimSite, list: SimList) {
  let latest = list.created;
  for (const item of itemsOf(tenant, site, list)) {
    const modified = latestOf(item)?.modified ?? item.created;
    if (modified > latest) latest = modified;
  }
  return latest;
}

function listJson(tenant: SimTenant, site: SimSite, list: SimList, withSystem: boolean) {
  const modified = listModified(tenant, site, list);
  const etag = `"${list.id},${Date.parse(modified) % 100_000}"`;
  return {
    '@odata.etag': etag,
    createdDateTime: list.created,
    description: list.description,
    eTag: etag,
    id: list.id,
    lastModifiedDateTime: modified,
    name: list.name,
    webUrl: listUrl(site, list),
    displayName: list.displayName,
    createdBy: identityOf(tenant, list.author),
    parentReference: { siteId: site.id },
    list: { contentTypesEnabled: false, hidden: list.hidden, template: list.template },
    ...(withSystem && list.system ? { system: {} } : {}),
  };
}

/** A column as a columnDefinition with its type's facet. */
function columnJson(col: SimColumn) {
  const facet = (() => {
    switch (col.kind) {
      case 'text':
        return {
          text: { allowMultipleLines: false, appendChangesToExistingText: false, linesForEditing: 0, maxLength: 255 },
        };
      case 'note':
        return {
          text: {
            allowMultipleLines: true,
            appendChangesToExistingText: false,
            linesForEditing: 6,
            maxLength: 63_999,
            textType: 'plain',
          },
        };
      case 'number':
        return { number: { decimalPlaces: 'automatic', displayAs: 'number' } };
      case 'dateTime':
        return { dateTime: { displayAs: 'default', format: 'dateTime' } };
      case 'choice':
        return { choice: { allowTextEntry: false, choices: col.choices ?? [], displayAs: 'dropDownMenu' } };
      case 'boolean':
        return { boolean: {} };
      case 'personOrGroup':
        return { personOrGroup: { allowMultipleSelection: false, chooseFromType: 'peopleOnly', displayAs: 'account' } };
      case 'lookup':
        return {
          lookup: {
            allowMultipleValues: false,
            allowUnlimitedLength: false,
            columnName: col.lookup?.columnName ?? 'Title',
            listId: col.lookup?.listId ?? '',
          },
        };
    }
  })();
  return {
    columnGroup: col.readOnly ? '_Hidden' : 'Custom Columns',
    description: col.description,
    displayName: col.displayName,
    enforceUniqueValues: false,
    hidden: col.hidden,
    id: col.id,
    indexed: false,
    name: col.name,
    readOnly: col.readOnly,
    required: col.required,
    ...facet,
  };
}

function contentTypeJson(ct: SimContentType, position?: number) {
  return {
    id: ct.id,
    description: ct.description,
    group: ct.group,
    hidden: false,
    isBuiltIn: ct.parentId === undefined,
    name: ct.name,
    readOnly: false,
    sealed: false,
    ...(ct.parentId ? { parentId: ct.parentId } : {}),
    ...(position !== undefined ? { order: { default: position === 0, position } } : {}),
  };
}

/**
 * An item's column values at a version (the current one by default) as a fieldValueSet: its own
 * values and what SharePoint fills (content type, dates, who, version); `select` keeps only those
 * columns, as `fields($select=…)` does.
 */
function fieldsJson(
  tenant: SimTenant,
  list: SimList,
  item: SimListItem,
  version: SimListItemVersion | undefined = latestOf(item),
  select?: readonly string[],
) {
  const all: Record<string, FieldValue> = {
    ...version?.values,
    id: item.id,
    ContentType: item.contentType.name,
    Modified: fieldDate(version?.modified ?? item.created),
    Created: fieldDate(item.created),
    AuthorLookupId: lookupIdOf(tenant, item.author),
    EditorLookupId: lookupIdOf(tenant, version?.editor ?? item.author),
    _UIVersionString: version?.id ?? '1.0',
    ...(list.driveId ? {} : { Attachments: false }),
  };
  const fields = select ? Object.fromEntries(Object.entries(all).filter(([k]) => select.includes(k))) : all;
  return { '@odata.etag': etagOf(item), ...fields };
}

/** The expansions a request asks for, those a resource offers; a 400 as Graph answers one it has not. */
function expansions(
  request: SimRequest,
  type: string,
  offered: readonly string[],
): Map<string, Expansion> | SimResponse {
  const text = expandText(request.query);
  if (!text) return new Map();
  try {
    return checkExpansions(parseExpand(text), type, offered);
  } catch (error) {
    if (error instanceof QueryError) return graphError(400, 'BadRequest', error.message);
    throw error;
  }
}

function checkExpansions(list: Expansion[], type: string, offered: readonly string[]): Map<string, Expansion> {
  const out = new Map<string, Expansion>();
  for (const e of list) {
    if (!offered.includes(e.name))
      throw new QueryError(
        `Parsing OData Select and Expand failed: Could not find a property named '${e.name}' on type 'microsoft.graph.${type}'.`,
      );
    out.set(e.name, e);
  }
  return out;
}

/** A listItem version: who saved it and when, and its fields when expanded. */
function versionJson(
  tenant: SimTenant,
  list: SimList,
  item: SimListItem,
  version: SimListItemVersion,
  fields?: Expansion,
) {
  return {
    id: version.id,
    lastModifiedBy: identityOf(tenant, version.editor),
    lastModifiedDateTime: version.modified,
    ...(fields ? { fields: fieldsJson(tenant, list, item, version, fields.select) } : {}),
  };
}

/** A listItem as Graph answers it; a deleted one (in a delta) as its id and `deleted`. */
function itemJson(
  tenant: SimTenant,
  site: SimSite,
  list: SimList,
  item: SimListItem & { webUrl: string },
  expand: Map<string, Expansion> = new Map(),
) {
  if (item.deleted) return { id: item.id, deleted: { state: 'deleted' }, parentReference: { siteId: site.id } };
  const latest = latestOf(item);
  const fields = expand.get('fields');
  const versions = expand.get('versions');
  const versionFields = versions?.expand.find((e) => e.name === 'fields');
  return {
    '@odata.etag': etagOf(item),
    createdDateTime: item.created,
    eTag: etagOf(item),
    id: item.id,
    lastModifiedDateTime: latest?.modified ?? item.created,
    webUrl: item.webUrl,
    createdBy: identityOf(tenant, item.author),
    lastModifiedBy: identityOf(tenant, latest?.editor ?? item.author),
    parentReference: { id: list.id, siteId: site.id },
    contentType: item.contentType,
    ...(fields ? { fields: fieldsJson(tenant, list, item, latest, fields.select) } : {}),
    ...(versions
      ? { versions: [...item.versions].reverse().map((v) => versionJson(tenant, list, item, v, versionFields)) }
      : {}),
  };
}

/** A route on one list of a live site: unknown ones answer 404. */
const onList = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, site: SimSite, list: SimList) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  route(
    method,
    patterns,
    (call) => {
      const site = siteOf(call);
      if (isAnswer(site)) return site;
      const list = listOf(site, call.params.list ?? '');
      return list ? handle(call, site, list) : listNotFound();
    },
    options,
  );

/** A route on one live item of a list. */
const onItem = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, site: SimSite, list: SimList, item: SimListItem & { webUrl: string }) => SimResponse,
): GraphRoute[] =>
  onList(method, patterns, (call, site, list) => {
    const item = itemsOf(call.tenant, site, list).find((i) => i.id === call.params.item && !i.deleted);
    return item ? handle(call, site, list, item) : itemNotFound();
  });

/** The column types a list made through Graph may have here, and the kind each one stores. */
function columnKindOf(definition: Record<string, unknown>): SimColumn['kind'] | 'unsupported' | undefined {
  const facets = ['text', 'number', 'dateTime', 'choice', 'boolean', 'personOrGroup', 'lookup'];
  const given = facets.filter((f) => definition[f] !== undefined && definition[f] !== null);
  const other = [
    'calculated',
    'currency',
    'geolocation',
    'hyperlinkOrPicture',
    'term',
    'thumbnail',
    'contentApprovalStatus',
  ].some((f) => definition[f] !== undefined && definition[f] !== null);
  if (other) return 'unsupported';
  const [facet] = given;
  if (!facet) return undefined;
  if (facet === 'text') {
    const text = definition.text as { allowMultipleLines?: boolean } | undefined;
    return text?.allowMultipleLines ? 'note' : 'text';
  }
  return facet as SimColumn['kind'];
}

/** A column of a list made through Graph, or why it cannot be made. */
function columnOf(definition: unknown, site: SimSite, listId: string): SimColumn | string {
  if (typeof definition !== 'object' || definition === null) return 'A column must be an object.';
  const d = definition as Record<string, unknown>;
  const name = typeof d.name === 'string' ? d.name.trim() : '';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(name)) return `The column name '${String(d.name ?? '')}' is not valid.`;
  const kind = columnKindOf(d) ?? 'text';
  if (kind === 'unsupported')
    return `The column '${name}' is of a type the simulator does not make (it makes text, number, dateTime, choice, boolean, personOrGroup and lookup columns).`;
  const col: SimColumn = {
    id: hexId(listId, 'column', name),
    name,
    displayName: typeof d.displayName === 'string' && d.displayName ? d.displayName : name,
    kind,
    required: d.required === true,
    readOnly: false,
    hidden: d.hidden === true,
    description: typeof d.description === 'string' ? d.description : '',
  };
  if (kind === 'choice') {
    const choices = (d.choice as { choices?: unknown } | undefined)?.choices;
    col.choices = Array.isArray(choices) ? choices.filter((c): c is string => typeof c === 'string') : [];
  }
  if (kind === 'lookup') {
    const lookup = d.lookup as { listId?: unknown; columnName?: unknown } | undefined;
    const target = typeof lookup?.listId === 'string' ? listOf(site, lookup.listId) : undefined;
    if (!target) return `The lookup column '${name}' names no list of this site.`;
    col.lookup = {
      listId: target.id,
      columnName: typeof lookup?.columnName === 'string' ? lookup.columnName : 'Title',
    };
  }
  return col;
}

/** The templates a list made through Graph may have here. */
const CREATABLE = ['genericList', 'issueTracking', 'documentLibrary'] as const;

/** POST /sites/{id}/lists: a list of a template with the columns given besides the template's. */
function createList(call: GraphCall, site: SimSite): SimResponse {
  const body = jsonBody<{
    displayName: unknown;
    description: unknown;
    columns: unknown;
    list: { template?: unknown };
  }>(call.request);
  const displayName = typeof body.displayName === 'string' ? body.displayName.trim() : '';
  if (!displayName) return invalid('A list needs a displayName.');
  if (site.lists.some((l) => l.displayName.toLowerCase() === displayName.toLowerCase()))
    return graphError(
      409,
      'nameAlreadyExists',
      'A list, survey, discussion board, or document library with the specified title already exists in this Web site.  Please choose another title.',
    );
  const template = body.list?.template ?? 'genericList';
  const known = CREATABLE.find((t) => t === template);
  if (!known)
    return invalid(
      `The simulator makes lists of the templates ${CREATABLE.join(', ')}; '${String(template)}' is not one.`,
    );
  const { tenant } = call;
  const id = randomUUID();
  const columns = templateColumns(known, id);
  for (const definition of Array.isArray(body.columns) ? body.columns : []) {
    const col = columnOf(definition, site, id);
    if (typeof col === 'string') return invalid(col);
    const taken = (name: string) => columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (taken(col.name) && !taken(col.name)?.readOnly)
      return invalid(`A duplicate field name "${col.name}" was found.`);
    // A name SharePoint's own columns have (Author, Created…) gets a number, as SharePoint gives it.
    for (let n = 0; taken(col.name); n++) col.name = `${col.name.replace(/\d+$/, '')}${n}`;
    // Custom columns before the ones SharePoint fills, as SharePoint lists them.
    const firstSystem = columns.findIndex((c) => c.readOnly);
    columns.splice(firstSystem < 0 ? columns.length : firstSystem, 0, col);
  }
  const now = new Date().toISOString();
  const name = displayName.replace(/[^A-Za-z0-9]+/g, '') || 'List';
  const list = newList(
    id,
    {
      displayName,
      name,
      template: known,
      description: typeof body.description === 'string' ? body.description : '',
    },
    now,
    writerOf(call),
    columns,
  );
  tenant.clock += 1;
  if (known === 'documentLibrary') {
    // A new library is a new drive of the site, empty but for its root.
    const driveId = `sp-${id.slice(0, 8)}`;
    const rootId = `${driveId}-root`;
    tenant.drives.set(driveId, {
      id: driveId,
      name: displayName,
      ownerId: site.id,
      items: new Map([
        [
          rootId,
          {
            id: rootId,
            driveId,
            name: 'root',
            parentId: '',
            kind: 'root',
            versions: [],
            created: now,
            changed: tenant.clock,
            deleted: false,
            permissions: [],
          },
        ],
      ]),
    });
    site.driveIds.push(driveId);
    list.driveId = driveId;
    list.name = displayName;
  }
  site.lists.push(list);
  return { status: 201, json: listJson(tenant, site, list, false) };
}

/**
 * Checks a fieldValueSet a client writes against the list's columns and gives the values to store:
 * a column by its name (`<name>LookupId` for person and lookup columns, the id of a person of the
 * site or of an item of the looked-up list), of its type; a read-only, unknown or mistyped one is
 * refused as Graph refuses it.
 */
function writtenValues(
  tenant: SimTenant,
  site: SimSite,
  list: SimList,
  input: unknown,
): Record<string, FieldValue> | SimResponse {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return invalid('The fields must be an object of column values.');
  const out: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key.includes('@')) continue;
    const lookupName = key.endsWith('LookupId') ? key.slice(0, -'LookupId'.length) : undefined;
    const col =
      list.columns.find((c) => c.name === key && c.kind !== 'personOrGroup' && c.kind !== 'lookup') ??
      list.columns.find((c) => c.name === lookupName && (c.kind === 'personOrGroup' || c.kind === 'lookup'));
    if (!col) {
      const system = [
        'id',
        'ContentType',
        'Modified',
        'Created',
        'Author',
        'Editor',
        '_UIVersionString',
        'Attachments',
      ];
      return system.includes(key) || list.columns.some((c) => c.name === key && c.readOnly)
        ? invalid(`Field '${key}' is read-only`)
        : invalid(`Field '${key}' is not recognized`);
    }
    if (col.readOnly) return invalid(`Field '${key}' is read-only`);
    const wrong = () => invalid(`The value of field '${key}' is not valid for a ${col.kind} column.`);
    if (value === null) {
      out[key] = null;
      continue;
    }
    switch (col.kind) {
      case 'text':
      case 'note':
      case 'choice':
        if (typeof value !== 'string') return wrong();
        if (col.kind === 'text' && value.length > 255)
          return invalid(`The value of field '${key}' is longer than 255.`);
        out[key] = value;
        break;
      case 'number': {
        const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
        if (!Number.isFinite(n)) return wrong();
        out[key] = n;
        break;
      }
      case 'boolean':
        if (typeof value !== 'boolean') return wrong();
        out[key] = value;
        break;
      case 'dateTime': {
        const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
        if (Number.isNaN(at)) return wrong();
        out[key] = fieldDate(new Date(at).toISOString());
        break;
      }
      case 'personOrGroup': {
        const id = String(value);
        if (!principalOfLookupId(tenant, id)) return invalid(`The value of field '${key}' names no user of the site.`);
        out[key] = id;
        break;
      }
      case 'lookup': {
        const id = String(value);
        const target = site.lists.find((l) => l.id === col.lookup?.listId);
        const found = target && itemsOf(tenant, site, target).some((i) => i.id === id && !i.deleted);
        if (!found) return invalid(`The value of field '${key}' names no item of the looked-up list.`);
        out[key] = id;
        break;
      }
    }
  }
  return out;
}

/** Items are written through the drive in a library, and not at all in the User Information List. */
function refuseWrite(list: SimList): SimResponse | undefined {
  if (list.driveId) return invalid('Files and folders should only be added to a DocumentLibrary via the OneDrive API');
  if (list.template === 'userInformation') return graphError(403, 'accessDenied', 'Access denied');
  return undefined;
}

/** POST …/items: a new item with the fields given, its first version by the caller. */
function createItem(call: GraphCall, site: SimSite, list: SimList): SimResponse {
  const refusal = refuseWrite(list);
  if (refusal) return refusal;
  const body = jsonBody<{ fields: unknown }>(call.request);
  const values = writtenValues(call.tenant, site, list, body.fields ?? {});
  if (isAnswer(values)) return values;
  const { tenant } = call;
  tenant.clock += 1;
  const now = new Date().toISOString();
  const id = String(list.nextItemId++);
  const who = writerOf(call);
  const item: SimListItem = {
    id,
    uniqueId: randomUUID(),
    created: now,
    author: who,
    contentType: { id: list.contentTypes[0]?.id ?? '0x01', name: list.contentTypes[0]?.name ?? 'Item' },
    versions: [{ id: '1.0', modified: now, editor: who, values }],
    changed: tenant.clock,
    deleted: false,
  };
  list.items.set(id, item);
  const answer = itemJson(tenant, site, list, { ...item, webUrl: `${listUrl(site, list)}/${id}_.000` }, fieldsOnly);
  return { status: 201, json: answer };
}

const fieldsOnly = new Map<string, Expansion>([['fields', { name: 'fields', expand: [] }]]);

/** PATCH …/items/{id}/fields: the values given over the current ones, saved as a new version. */
function updateFields(call: GraphCall, site: SimSite, list: SimList, item: SimListItem): SimResponse {
  const refusal = refuseWrite(list);
  if (refusal) return refusal;
  const ifMatch = call.request.headers['if-match'];
  if (ifMatch && ifMatch !== '*' && ifMatch !== etagOf(item))
    // SharePoint's code for an eTag that is no longer the item's (OneDrive's resourceModified).
    return graphError(
      412,
      'resourceModified',
      'The item has changed since its eTag was read: If-Match does not match its current eTag.',
    );
  const values = writtenValues(call.tenant, site, list, jsonBody<Record<string, unknown>>(call.request));
  if (isAnswer(values)) return values;
  const stored = list.items.get(item.id);
  if (!stored) return itemNotFound();
  call.tenant.clock += 1;
  const latest = latestOf(stored);
  stored.versions.push({
    id: `${stored.versions.length + 1}.0`,
    modified: new Date().toISOString(),
    editor: writerOf(call),
    values: { ...latest?.values, ...values },
  });
  stored.changed = call.tenant.clock;
  return { status: 200, json: fieldsJson(call.tenant, list, stored) };
}

/** `$select` asks for the system facet: Graph then lists the system lists too. */
const selectsSystem = (request: SimRequest) =>
  (request.query.get('$select') ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes('system');

export const listRoutes: GraphRoute[] = [
  ...route('GET', 'sites/:site/lists', (call) => {
    const site = siteOf(call);
    if (isAnswer(site)) return site;
    const withSystem = selectsSystem(call.request);
    return page(
      call.context,
      call.request,
      site.lists.filter((l) => withSystem || !l.system),
      (l) => listJson(call.tenant, site, l, withSystem),
    );
  }),
  ...route('POST', 'sites/:site/lists', (call) => {
    const site = siteOf(call);
    return isAnswer(site) ? site : createList(call, site);
  }),
  ...route('GET', 'sites/:site/contentTypes', (call) => {
    const site = siteOf(call);
    if (isAnswer(site)) return site;
    return page(call.context, call.request, [...SITE_CONTENT_TYPES], (ct) => contentTypeJson(ct));
  }),
  ...onList(
    'GET',
    'sites/:site/lists/:list/items/delta',
    ({ context, request, tenant }, site, list) => {
      const expand = expansions(request, 'listItem', ['fields']);
      if (isAnswer(expand)) return expand;
      return delta(context, request, tenant, {
        resource: `list:${site.id}:${list.id}`,
        style: 'drive',
        max: ITEMS.max,
        changes: (after) => itemsOf(tenant, site, list).filter((i) => i.changed > after && !(after < 0 && i.deleted)),
        map: (i) => itemJson(tenant, site, list, i, expand),
      });
    },
    // listItem's delta has an overload taking the token, as driveItem's: `delta(token='…')`.
    { context: 'Collection(microsoft.graph.listItem)', functionParameters: ['token'] },
  ),
  ...onList('GET', 'sites/:site/lists/:list', ({ request, tenant }, site, list) => {
    const expand = expansions(request, 'list', ['columns', 'contentTypes', 'items']);
    if (isAnswer(expand)) return expand;
    const items = expand.get('items');
    let itemExpand: Map<string, Expansion> = new Map();
    try {
      itemExpand = checkExpansions(items?.expand ?? [], 'listItem', ['fields', 'versions']);
    } catch (error) {
      if (error instanceof QueryError) return graphError(400, 'BadRequest', error.message);
      throw error;
    }
    return {
      status: 200,
      json: {
        ...listJson(tenant, site, list, selectsSystem(request)),
        ...(expand.has('columns') ? { columns: list.columns.map(columnJson) } : {}),
        ...(expand.has('contentTypes')
          ? { contentTypes: list.contentTypes.map((ct, n) => contentTypeJson(ct, n)) }
          : {}),
        ...(items
          ? {
              items: itemsOf(tenant, site, list)
                .filter((i) => !i.deleted)
                .map((i) => itemJson(tenant, site, list, i, itemExpand)),
            }
          : {}),
      },
    };
  }),
  ...onList('GET', 'sites/:site/lists/:list/drive', ({ tenant }, _site, list) => {
    const drive = list.driveId ? tenant.drives.get(list.driveId) : undefined;
    return drive ? { status: 200, json: driveJson(tenant, drive) } : notFound('The list is not a document library.');
  }),
  ...onList('GET', 'sites/:site/lists/:list/columns', ({ context, request }, _site, list) =>
    page(context, request, list.columns, columnJson),
  ),
  ...onList('GET', 'sites/:site/lists/:list/contentTypes', ({ context, request }, _site, list) =>
    page(context, request, list.contentTypes, (ct) => contentTypeJson(ct, list.contentTypes.indexOf(ct))),
  ),
  ...onList('GET', 'sites/:site/lists/:list/items', ({ context, request, tenant }, site, list) => {
    const expand = expansions(request, 'listItem', ['fields', 'versions']);
    if (isAnswer(expand)) return expand;
    return page(
      context,
      request,
      itemsOf(tenant, site, list).filter((i) => !i.deleted),
      (i) => itemJson(tenant, site, list, i, expand),
      ITEMS,
    );
  }),
  ...onList('POST', 'sites/:site/lists/:list/items', createItem),
  ...onItem('GET', 'sites/:site/lists/:list/items/:item', ({ request, tenant }, site, list, item) => {
    const expand = expansions(request, 'listItem', ['fields', 'versions']);
    if (isAnswer(expand)) return expand;
    return { status: 200, json: itemJson(tenant, site, list, item, expand) };
  }),
  ...onItem('GET', 'sites/:site/lists/:list/items/:item/fields', ({ tenant }, _site, list, item) => ({
    status: 200,
    json: fieldsJson(tenant, list, item),
  })),
  ...onItem('PATCH', 'sites/:site/lists/:list/items/:item/fields', updateFields),
  ...onItem(
    'GET',
    'sites/:site/lists/:list/items/:item/versions',
    ({ context, request, tenant }, _site, list, item) => {
      const expand = expansions(request, 'listItemVersion', ['fields']);
      if (isAnswer(expand)) return expand;
      return page(
        context,
        request,
        [...item.versions].reverse(),
        (v) => versionJson(tenant, list, item, v, expand.get('fields')),
        ITEMS,
      );
    },
  ),
  ...onItem('GET', 'sites/:site/lists/:list/items/:item/versions/:version', (call, _site, list, item) => {
    const expand = expansions(call.request, 'listItemVersion', ['fields']);
    if (isAnswer(expand)) return expand;
    const version = item.versions.find((v) => v.id === call.params.version);
    return version
      ? { status: 200, json: versionJson(call.tenant, list, item, version, expand.get('fields')) }
      : notFound('The version was not found.');
  }),
  ...onItem('GET', 'sites/:site/lists/:list/items/:item/versions/:version/fields', (call, _site, list, item) => {
    const version = item.versions.find((v) => v.id === call.params.version);
    return version
      ? { status: 200, json: fieldsJson(call.tenant, list, item, version) }
      : notFound('The version was not found.');
  }),
];
