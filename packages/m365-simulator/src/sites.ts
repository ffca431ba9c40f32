/**
 * What a SharePoint site holds besides its library's files: lists (a document library backed by the
 * site's drive, generic lists such as an issue tracker, a register and a custom list, and the hidden
 * User Information List its person columns look up into), their columns and content types, items
 * with their versions, and the site pages of its Site Pages library with their canvas. Generated from
 * the tenant's seed like the rest; `evolveSiteContent` adds, edits and deletes items and edits pages
 * between reads, numbered by the tenant's change clock so that list item delta sees them.
 */

import { hexId, iso, later, pick, prng, words } from './generate.js';
import type { SimTenant } from './model.js';

/** A column's type, as its columnDefinition facet names it (`note` is text with several lines). */
type ColumnKind = 'text' | 'note' | 'number' | 'dateTime' | 'choice' | 'boolean' | 'personOrGroup' | 'lookup';

export interface SimColumn {
  id: string;
  /** The internal name: the key of an item's fields (`<name>LookupId` for person and lookup columns). */
  name: string;
  displayName: string;
  kind: ColumnKind;
  required: boolean;
  /** SharePoint fills it (Created, Modified, Author…): Graph refuses to write it. */
  readOnly: boolean;
  hidden: boolean;
  description: string;
  choices?: string[];
  /** A lookup column: the list it looks into and the column it shows. */
  lookup?: { listId: string; columnName: string };
}

export interface SimContentType {
  id: string;
  name: string;
  description: string;
  group: string;
  /** The site content type a list's content type derives from. */
  parentId?: string;
}

/** A column value as the wire carries it in a fieldValueSet. */
export type FieldValue = string | number | boolean | null;

/**
 * Who made a change: a user of the tenant by id, SharePoint's system account (a site library's
 * generated files), or the SharePoint App (an app-only write through Graph).
 */
export type Principal = string;
export const SYSTEM_ACCOUNT: Principal = 'system-account';
export const SHAREPOINT_APP: Principal = 'sharepoint-app';

export interface SimListItemVersion {
  /** `1.0`, `2.0`…: each save is a new major version, as lists keep them by default. */
  id: string;
  modified: string;
  editor: Principal;
  /** The item's own column values at this version, keyed as the wire writes them. */
  values: Record<string, FieldValue>;
}

export interface SimListItem {
  /** The item's number in its list, as text (SharePoint's ID). */
  id: string;
  uniqueId: string;
  created: string;
  author: Principal;
  contentType: { id: string; name: string };
  /** Oldest first; the last is the current one. */
  versions: SimListItemVersion[];
  /** Change number of the last change; deleted items keep theirs. */
  changed: number;
  deleted: boolean;
}

export type ListTemplate = 'documentLibrary' | 'genericList' | 'issueTracking' | 'userInformation';

export interface SimList {
  id: string;
  /** The list's name in its address (`Lists/IssueTracker`, `Shared Documents`). */
  name: string;
  displayName: string;
  description: string;
  template: ListTemplate;
  hidden: boolean;
  /** A system list: Graph lists it only when `$select` asks for `system`. */
  system: boolean;
  created: string;
  author: Principal;
  columns: SimColumn[];
  contentTypes: SimContentType[];
  /** The items of a generic list; a library's are its drive's files and folders, the User Information List's the tenant's people. */
  items: Map<string, SimListItem>;
  nextItemId: number;
  /** A document library: the drive it shows. */
  driveId?: string;
}

/** A web part on a page's canvas: text with its HTML, or one of SharePoint's standard web parts. */
export type SimWebPart =
  | { id: string; kind: 'text'; innerHtml: string }
  | { id: string; kind: 'standard'; webPartType: string; data: WebPartData };

/** A standard web part's data, as the webPartData type declares it. */
export interface WebPartData {
  dataVersion?: string;
  description?: string;
  title?: string;
  properties?: unknown;
  serverProcessedContent?: Partial<Record<ProcessedContentKind, { key: string; value: string }[]>>;
}

export type ProcessedContentKind = 'htmlStrings' | 'searchablePlainTexts' | 'imageSources' | 'links';

export interface SimSection {
  id: string;
  layout: string;
  emphasis: string;
  columns: { id: string; width: number; webparts: SimWebPart[] }[];
}

export interface SimPage {
  id: string;
  /** The file name in Site Pages, `Home.aspx`. */
  name: string;
  title: string;
  description: string;
  pageLayout: 'article' | 'home';
  created: string;
  author: Principal;
  modified: string;
  editor: Principal;
  /** Published (`2.0`), a draft (`2.1`), or checked out to someone after it was created. */
  level: 'published' | 'draft' | 'checkout';
  versionId: string;
  checkedOutBy?: Principal;
  showComments: boolean;
  showRecommendedPages: boolean;
  /** The title area's declared properties, as given. */
  titleArea: Record<string, unknown>;
  sections: SimSection[];
  changed: number;
}

/** SharePoint's own ids of its built-in columns, the same in every site. */
const BUILT_IN_COLUMN = {
  Title: 'fa564e0f-0c70-4ab9-b863-0177e6ddd247',
  ContentType: 'c042a256-787d-4a6f-8a8a-cf6ab767f12d',
  Modified: '28cf69c5-fa48-462a-b5cd-27b6f9d2bd5f',
  Created: '8c06beca-0777-48f7-91c7-6da68bc07b69',
  Author: '1df5e554-ec7e-46a6-901d-d85a3881cb18',
  Editor: 'd31655d1-1d5b-4511-95a1-7a09e9b75bf2',
  _UIVersionString: 'dce8262a-3ae9-45aa-aab4-83bd75fb738a',
  Attachments: '67df98f4-9dec-48ff-a553-29bece9c5bf4',
  FileLeafRef: '8553196d-ec8d-4564-9861-3dbe931050c8',
} as const;

/** SharePoint's site content types the lists' own derive from. */
export const SITE_CONTENT_TYPES: readonly SimContentType[] = [
  { id: '0x01', name: 'Item', description: 'Create a new list item.', group: 'List Content Types' },
  { id: '0x0101', name: 'Document', description: 'Create a new document.', group: 'Document Content Types' },
  { id: '0x0103', name: 'Issue', description: 'Track an issue or problem.', group: 'List Content Types' },
  { id: '0x0120', name: 'Folder', description: 'Create a new folder.', group: 'Folder Content Types' },
  {
    id: '0x0101009D1CB255DA76424F860D91F20E6C4118',
    name: 'Site Page',
    description: 'Create a new site page.',
    group: 'Document Content Types',
  },
];

/** A list's copy of a site content type: the parent's id, `00`, and 32 hex digits of its own. */
function listContentType(listId: string, parentId: string): SimContentType {
  const parent = SITE_CONTENT_TYPES.find((c) => c.id === parentId) ?? SITE_CONTENT_TYPES[0];
  const own = hexId(listId, 'content-type', parentId).replace(/-/g, '').toUpperCase();
  return {
    id: `${parentId}00${own}`,
    name: parent?.name ?? 'Item',
    description: parent?.description ?? '',
    group: parent?.group ?? 'List Content Types',
    parentId,
  };
}

/** SharePoint's user ids of the site's people, its system account and the app, as person columns hold them. */
export function lookupIdOf(tenant: SimTenant, who: Principal): string {
  if (who === SYSTEM_ACCOUNT) return '1073741823';
  if (who === SHAREPOINT_APP) return '1073741822';
  const index = tenant.users.findIndex((u) => u.id === who);
  return String(10 + Math.max(0, index));
}

/** The person behind a lookup id, or undefined when none is. */
export function principalOfLookupId(tenant: SimTenant, lookupId: string): Principal | undefined {
  if (lookupId === '1073741823') return SYSTEM_ACCOUNT;
  if (lookupId === '1073741822') return SHAREPOINT_APP;
  const index = Number(lookupId) - 10;
  return Number.isInteger(index) ? tenant.users[index]?.id : undefined;
}

const column = (
  name: string,
  displayName: string,
  kind: ColumnKind,
  more: Partial<Omit<SimColumn, 'name' | 'displayName' | 'kind'>> = {},
  idSeed = '',
): SimColumn => ({
  id: BUILT_IN_COLUMN[name as keyof typeof BUILT_IN_COLUMN] ?? hexId('column', idSeed, name),
  name,
  displayName,
  kind,
  required: false,
  readOnly: false,
  hidden: false,
  description: '',
  ...more,
});

/** The columns every list has, which SharePoint fills: content type, dates, who, version, attachments. */
function systemColumns(library: boolean): SimColumn[] {
  const readOnly = { readOnly: true };
  return [
    column('ContentType', 'Content Type', 'text', readOnly),
    column('Modified', 'Modified', 'dateTime', readOnly),
    column('Created', 'Created', 'dateTime', readOnly),
    column('Author', 'Created By', 'personOrGroup', readOnly),
    column('Editor', 'Modified By', 'personOrGroup', readOnly),
    column('_UIVersionString', 'Version', 'text', readOnly),
    ...(library ? [] : [column('Attachments', 'Attachments', 'boolean', readOnly)]),
  ];
}

/** The columns a list of this template starts with (a new list through Graph gets them too). */
export function templateColumns(template: ListTemplate, listId: string): SimColumn[] {
  const title = column('Title', 'Title', 'text', { required: template !== 'documentLibrary' });
  switch (template) {
    case 'documentLibrary':
      return [column('FileLeafRef', 'Name', 'text', { required: true }), title, ...systemColumns(true)];
    case 'issueTracking':
      return [
        title,
        column('AssignedTo', 'Assigned To', 'personOrGroup', {}, listId),
        column('Status', 'Issue Status', 'choice', { choices: ['Active', 'Resolved', 'Closed'] }, listId),
        column('Priority', 'Priority', 'choice', { choices: ['(1) High', '(2) Normal', '(3) Low'] }, listId),
        column('Comment', 'Description', 'note', {}, listId),
        column('DueDate', 'Due Date', 'dateTime', {}, listId),
        ...systemColumns(false),
      ];
    case 'userInformation':
      return [
        column('Title', 'Name', 'text', { required: true }),
        column('EMail', 'Work email', 'text', {}, listId),
        column('UserName', 'User name', 'text', {}, listId),
        ...systemColumns(false),
      ];
    default:
      return [title, ...systemColumns(false)];
  }
}

/** The content types a list of this template has. */
function templateContentTypes(template: ListTemplate, listId: string): SimContentType[] {
  const main = template === 'documentLibrary' ? '0x0101' : template === 'issueTracking' ? '0x0103' : '0x01';
  return [listContentType(listId, main), listContentType(listId, '0x0120')];
}

/** A date as SharePoint writes it in a field: whole seconds. */
export const fieldDate = (at: string) => at.replace(/\.\d{3}Z$/, 'Z');

const CITIES = ['Berlin', 'Zürich', 'Lisbon', 'Seattle', 'Singapore', 'Oslo', 'Vienna', 'Dublin'];
const capital = (text: string) => text.replace(/^./, (c) => c.toUpperCase());

/** The generic lists a site gets, in turn: an issue tracker, a register, a custom list. */
const GENERIC_LISTS: {
  displayName: string;
  name: string;
  template: ListTemplate;
  description: string;
  columns(listId: string, lookupListId: string | undefined): SimColumn[];
}[] = [
  {
    displayName: 'Issue tracker',
    name: 'IssueTracker',
    template: 'issueTracking',
    description: 'Issues raised by the team, who works on them and how far they are.',
    columns: (listId, lookupListId) => {
      const columns = templateColumns('issueTracking', listId);
      if (lookupListId) {
        columns.splice(
          6,
          0,
          column(
            'RelatedContract',
            'Related contract',
            'lookup',
            { lookup: { listId: lookupListId, columnName: 'Title' } },
            listId,
          ),
        );
      }
      return columns;
    },
  },
  {
    displayName: 'Contract register',
    name: 'ContractRegister',
    template: 'genericList',
    description: 'Contracts with customers and suppliers.',
    columns: (listId) => [
      column('Title', 'Title', 'text', { required: true }),
      column('Customer', 'Customer', 'text', { required: true }, listId),
      column('ContractValue', 'Value', 'number', {}, listId),
      column('StartDate', 'Start date', 'dateTime', {}, listId),
      column('Signed', 'Signed', 'boolean', {}, listId),
      column('Owner', 'Owner', 'personOrGroup', {}, listId),
      column('Category', 'Category', 'choice', { choices: ['Service', 'Licence', 'Maintenance'] }, listId),
      ...systemColumns(false),
    ],
  },
  {
    displayName: 'Travel requests',
    name: 'TravelRequests',
    template: 'genericList',
    description: 'Business trips asked for and their approval.',
    columns: (listId) => [
      column('Title', 'Title', 'text', { required: true }),
      column('Destination', 'Destination', 'text', {}, listId),
      column('Departure', 'Departure', 'dateTime', {}, listId),
      column('Nights', 'Nights', 'number', {}, listId),
      column('Approved', 'Approved', 'boolean', {}, listId),
      column('Traveller', 'Traveller', 'personOrGroup', {}, listId),
      column('Notes', 'Notes', 'note', {}, listId),
      ...systemColumns(false),
    ],
  },
];

/** The people of the tenant who make changes to a site (accounts with a mailbox). */
const people = (tenant: SimTenant) => tenant.users.filter((u) => u.hasMailbox);

/**
 * A value for one of an item's own columns, drawn from `random`; `n` numbers the item (titles,
 * lookups). Person and lookup columns hold the looked-up item's id under `<name>LookupId`.
 */
function drawValue(
  tenant: SimTenant,
  site: SiteLists,
  col: SimColumn,
  random: () => number,
  n: number,
): [string, FieldValue] {
  switch (col.kind) {
    case 'text':
      if (col.name === 'Title') return [col.name, `${capital(words(random, 3))} ${n}`];
      if (col.name === 'Customer')
        return [col.name, `${capital(words(random, 1))} ${pick(random, ['GmbH', 'AG', 'Ltd', 'SA'])}`];
      if (col.name === 'Destination') return [col.name, pick(random, CITIES)];
      return [col.name, capital(words(random, 2))];
    case 'note':
      return [col.name, `${capital(words(random, 14))}.`];
    case 'number':
      return [col.name, col.name === 'Nights' ? 1 + Math.floor(random() * 6) : Math.round(random() * 9_000_000) / 100];
    case 'dateTime':
      return [col.name, fieldDate(iso(60 * 24 * (3 + Math.floor(random() * 120))))];
    case 'choice':
      return [col.name, pick(random, col.choices ?? [''])];
    case 'boolean':
      return [col.name, random() < 0.5];
    case 'personOrGroup': {
      const person = pick(random, people(tenant));
      return [`${col.name}LookupId`, person ? lookupIdOf(tenant, person.id) : null];
    }
    case 'lookup': {
      const target = site.lists.find((l) => l.id === col.lookup?.listId);
      const live = target ? [...target.items.values()].filter((i) => !i.deleted) : [];
      const item = live.length > 0 ? pick(random, live) : undefined;
      return [`${col.name}LookupId`, item ? item.id : null];
    }
  }
}

const hasLookup = (list: SimList | undefined) => Boolean(list?.columns.some((c) => c.kind === 'lookup'));

/** The columns an item's own values are drawn for: writable and not the system's. */
const ownColumns = (list: SimList) => list.columns.filter((c) => !c.readOnly && c.name !== 'FileLeafRef');

/** What a site's content generation needs of the site. */
interface SiteLists {
  id: string;
  webUrl: string;
  lists: SimList[];
}

/** A generic list's item, with `versions` saves (each changing a column or two), by people of the tenant. */
function addItem(
  tenant: SimTenant,
  site: SiteLists,
  list: SimList,
  random: () => number,
  versions: number,
  created: string,
  changed: number,
  who?: Principal,
): SimListItem {
  const id = String(list.nextItemId++);
  const everyone = people(tenant);
  const by = (k: number) => who ?? everyone[(Number(id) + k) % Math.max(1, everyone.length)]?.id ?? SYSTEM_ACCOUNT;
  const values: Record<string, FieldValue> = {};
  for (const col of ownColumns(list)) {
    const [key, value] = drawValue(tenant, site, col, random, Number(id));
    values[key] = value;
  }
  const item: SimListItem = {
    id,
    uniqueId: hexId(list.id, 'item', id),
    created,
    author: by(0),
    contentType: { id: list.contentTypes[0]?.id ?? '0x01', name: list.contentTypes[0]?.name ?? 'Item' },
    versions: [{ id: '1.0', modified: created, editor: by(0), values }],
    changed,
    deleted: false,
  };
  for (let v = 2; v <= versions; v++) editItem(tenant, site, list, item, random, later(created, (v - 1) * 45), by(v));
  list.items.set(id, item);
  return item;
}

/** A new version of an item with one of its columns (not its title) changed. */
function editItem(
  tenant: SimTenant,
  site: SiteLists,
  list: SimList,
  item: SimListItem,
  random: () => number,
  modified: string,
  editor: Principal,
) {
  const latest = item.versions[item.versions.length - 1];
  const candidates = ownColumns(list).filter((c) => c.name !== 'Title');
  const col = candidates[Math.floor(random() * candidates.length)];
  const values = { ...latest?.values };
  // A save that changes nothing is no new version: draw until the value differs (a few tries).
  for (let attempt = 0; col && attempt < 5; attempt++) {
    const [key, value] = drawValue(tenant, site, col, random, Number(item.id));
    if (values[key] === value) continue;
    values[key] = value;
    break;
  }
  item.versions.push({ id: `${item.versions.length + 1}.0`, modified, editor, values });
}

const SITE_LAYOUTS = { one: 'oneColumn', two: 'twoColumns' } as const;

/** The Button web part, one of those Graph writes, linking to the site. */
function buttonPart(pageId: string, label: string, url: string): SimWebPart {
  return {
    id: hexId(pageId, 'button'),
    kind: 'standard',
    webPartType: '0f087d7f-520e-42b7-89c0-496aaf979d58',
    data: {
      dataVersion: '1.0',
      description: 'Add a clickable button with a custom label and link.',
      title: 'Button',
      properties: { label, alignment: 'Left' },
      serverProcessedContent: {
        htmlStrings: [],
        searchablePlainTexts: [],
        imageSources: [],
        links: [{ key: 'linkUrl', value: url }],
      },
    },
  };
}

/** A site page: a heading and text across the width, then text beside a button. */
function addPage(
  tenant: SimTenant,
  site: { id: string; name: string; webUrl: string },
  p: number,
  count: number,
): SimPage {
  const random = prng(tenant.tenantId, site.id, 'page', p);
  const everyone = people(tenant);
  const by = (k: number) => everyone[(p + k) % Math.max(1, everyone.length)]?.id ?? SYSTEM_ACCOUNT;
  const home = p === 0;
  const topic = capital(words(random, 2));
  const title = home ? site.name : topic;
  const id = hexId(tenant.tenantId, site.id, 'page', p);
  const created = iso(30 + p * 240);
  const draft = p === 2 && count > 2;
  const major = 1 + (p % 2);
  return {
    id,
    name: home ? 'Home.aspx' : `${topic.replace(/ /g, '-')}-${p}.aspx`,
    title,
    description: home ? `The ${site.name} site.` : `${capital(words(random, 8))}.`,
    pageLayout: home ? 'home' : 'article',
    created,
    author: by(0),
    modified: later(created, 90),
    editor: by(1),
    level: draft ? 'draft' : 'published',
    versionId: draft ? `${major}.1` : `${major}.0`,
    showComments: !home,
    showRecommendedPages: false,
    titleArea: {
      enableGradientEffect: false,
      imageWebUrl: '',
      layout: 'plain',
      showAuthor: !home,
      showPublishedDate: !home,
      showTextBlockAboveTitle: false,
      textAboveTitle: '',
      textAlignment: 'left',
    },
    sections: [
      {
        id: '1',
        layout: SITE_LAYOUTS.one,
        emphasis: 'none',
        columns: [
          {
            id: '1',
            width: 12,
            webparts: [
              {
                id: hexId(id, 'text', 1),
                kind: 'text',
                innerHtml: `<h2>${title}</h2><p>${capital(words(random, 20))}.</p>`,
              },
            ],
          },
        ],
      },
      {
        id: '2',
        layout: SITE_LAYOUTS.two,
        emphasis: 'soft',
        columns: [
          {
            id: '1',
            width: 6,
            webparts: [{ id: hexId(id, 'text', 2), kind: 'text', innerHtml: `<p>${capital(words(random, 30))}.</p>` }],
          },
          { id: '2', width: 6, webparts: [buttonPart(id, 'Open the site', site.webUrl)] },
        ],
      },
    ],
    changed: 0,
  };
}

/** A new list of a template in a site (its columns and content types), empty. */
export function newList(
  id: string,
  spec: { displayName: string; name: string; template: ListTemplate; description: string },
  created: string,
  author: Principal,
  columns: SimColumn[],
): SimList {
  return {
    id,
    name: spec.name,
    displayName: spec.displayName,
    description: spec.description,
    template: spec.template,
    hidden: spec.template === 'userInformation',
    system: spec.template === 'userInformation',
    created,
    author,
    columns,
    contentTypes: templateContentTypes(spec.template, id),
    items: new Map(),
    nextItemId: 1,
  };
}

/** A site's lists and pages, drawn from the tenant's seed and the site's id. */
export function buildSiteContent(
  tenant: SimTenant,
  site: { id: string; name: string; webUrl: string; driveIds: string[] },
): { lists: SimList[]; pages: SimPage[] } {
  const lists: SimList[] = [];
  const content: SiteLists = { id: site.id, webUrl: site.webUrl, lists };
  const listId = (key: string) => hexId(tenant.tenantId, site.id, 'list', key);
  const libraryId = listId('library');
  lists.push({
    ...newList(
      libraryId,
      { displayName: 'Documents', name: 'Shared Documents', template: 'documentLibrary', description: '' },
      iso(0),
      SYSTEM_ACCOUNT,
      templateColumns('documentLibrary', libraryId),
    ),
    ...(site.driveIds[0] ? { driveId: site.driveIds[0] } : {}),
  });
  const count = tenant.size.listsPerSite;
  // The first register is where the issue trackers' lookup column looks.
  const registerId = count > 1 ? listId('generic-1') : undefined;
  const generic: SimList[] = [];
  for (let k = 0; k < count; k++) {
    const spec = GENERIC_LISTS[k % GENERIC_LISTS.length];
    if (!spec) continue;
    const suffix = k >= GENERIC_LISTS.length ? ` ${Math.floor(k / GENERIC_LISTS.length) + 1}` : '';
    const id = listId(`generic-${k}`);
    generic.push(
      newList(
        id,
        {
          displayName: `${spec.displayName}${suffix}`,
          name: `${spec.name}${suffix.trim()}`,
          template: spec.template,
          description: spec.description,
        },
        iso(k + 1),
        people(tenant)[k % Math.max(1, people(tenant).length)]?.id ?? SYSTEM_ACCOUNT,
        spec.columns(id, registerId),
      ),
    );
  }
  lists.push(...generic);
  // Lists with a lookup column get their items last, when the lists they look into have theirs.
  const fillOrder = [...generic.keys()].sort(
    (a, b) => Number(hasLookup(generic[a])) - Number(hasLookup(generic[b])) || a - b,
  );
  for (const k of fillOrder) {
    const list = generic[k];
    if (!list) continue;
    const random = prng(tenant.tenantId, site.id, 'list', k);
    for (let n = 0; n < tenant.size.listItemsPerList; n++) {
      addItem(tenant, content, list, random, tenant.size.versionsPerListItem, iso(120 + k * 600 + n * 90), 0);
    }
  }
  lists.push(
    newList(
      listId('users'),
      { displayName: 'User Information List', name: 'users', template: 'userInformation', description: '' },
      iso(0),
      SYSTEM_ACCOUNT,
      templateColumns('userInformation', listId('users')),
    ),
  );
  const pages: SimPage[] = [];
  for (let p = 0; p < tenant.size.pagesPerSite; p++) pages.push(addPage(tenant, site, p, tenant.size.pagesPerSite));
  return { lists, pages };
}

/** Changes to sites' lists and pages between reads. */
export interface SiteEvolution {
  newListItems?: number;
  editedListItems?: number;
  deletedListItems?: number;
  editedPages?: number;
}

/**
 * Applies list item and page changes across the tenant's sites, numbered `at`, in a deterministic
 * order (its own generator, so the tenant's other changes draw what they drew before); `when(k)` is
 * the time of the change's k-th new thing.
 */
export function evolveSiteContent(tenant: SimTenant, change: SiteEvolution, at: number, when: (k: number) => string) {
  const random = prng(tenant.tenantId, 'evolve-sites', at);
  const sites = tenant.sites.filter((s) => !s.deleted);
  const generic = sites.flatMap((site) =>
    site.lists.filter((l) => !l.driveId && !l.system).map((list) => ({ site, list })),
  );
  const everyone = people(tenant);
  const someone = (k: number) => everyone[(at + k) % Math.max(1, everyone.length)]?.id ?? SYSTEM_ACCOUNT;
  for (let n = 0; n < (change.newListItems ?? 0) && generic.length > 0; n++) {
    const target = generic[n % generic.length];
    if (!target) continue;
    addItem(tenant, target.site, target.list, random, 1, when(n), at, someone(n));
  }
  const live = () =>
    generic.flatMap(({ site, list }) =>
      [...list.items.values()].filter((i) => !i.deleted).map((item) => ({ site, list, item })),
    );
  for (let n = 0; n < (change.editedListItems ?? 0); n++) {
    const all = live();
    const target = all[Math.floor(random() * all.length)];
    if (!target) break;
    editItem(tenant, target.site, target.list, target.item, random, when(n), someone(n));
    target.item.changed = at;
  }
  for (let n = 0; n < (change.deletedListItems ?? 0); n++) {
    const all = live();
    const target = all[Math.floor(random() * all.length)];
    if (!target) break;
    target.item.deleted = true;
    target.item.changed = at;
  }
  const pages = sites.flatMap((s) => s.pages);
  for (let n = 0; n < (change.editedPages ?? 0) && pages.length > 0; n++) {
    const page = pages[Math.floor(random() * pages.length)];
    const part = page?.sections[0]?.columns[0]?.webparts.find((w) => w.kind === 'text');
    if (!page || !part || part.kind !== 'text') continue;
    part.innerHtml = `<h2>${page.title}</h2><p>${capital(words(random, 20))}.</p>`;
    page.versionId = `${Number.parseInt(page.versionId, 10) + 1}.0`;
    page.level = 'published';
    page.modified = when(n);
    page.editor = someone(n);
    page.changed = at;
  }
}
