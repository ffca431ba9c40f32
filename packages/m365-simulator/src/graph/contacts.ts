/**
 * Contacts as Outlook serves them: a mailbox's contact folders (the default "Contacts" and others at
 * the top, child folders below them), a folder's contacts, the default folder's (`/contacts`), one
 * contact, contact delta per folder (deleted contacts as `@removed`), and the writes a restore makes
 * (contact folders, child folders, contacts in a folder, a contact updated). A contact answers every property Graph
 * gives by default, those it was never given empty as Outlook has them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SimContact, SimContactFolder } from '../mailbox-items.js';
import type { SimUser } from '../model.js';
import { itemNotFound, onMailbox } from './mail.js';
import { delta, graphError, jsonBody, type ListOptions, page, type SimResponse } from './odata.js';
import type { GraphCall, GraphRoute, RouteOptions } from './router.js';

/** Outlook pages contacts and folders up to 1,000. */
const OUTLOOK: ListOptions = { max: 1000 };

/**
 * Graph's writable contact properties and what a contact without them answers: strings null (fileAs
 * and personalNotes empty), collections empty, addresses empty objects, as Outlook gives them.
 */
const CONTACT_DEFAULTS: Record<string, unknown> = {
  birthday: null,
  fileAs: '',
  displayName: '',
  givenName: null,
  initials: null,
  middleName: null,
  nickName: null,
  surname: null,
  title: null,
  yomiGivenName: null,
  yomiSurname: null,
  yomiCompanyName: null,
  generation: null,
  imAddresses: [],
  jobTitle: null,
  companyName: null,
  department: null,
  officeLocation: null,
  profession: null,
  businessHomePage: null,
  assistantName: null,
  manager: null,
  homePhones: [],
  mobilePhone: null,
  businessPhones: [],
  spouseName: null,
  personalNotes: '',
  children: [],
  emailAddresses: [],
  homeAddress: {},
  businessAddress: {},
  otherAddress: {},
};
const COLLECTIONS = ['imAddresses', 'homePhones', 'businessPhones', 'children'];
const ADDRESSES = ['homeAddress', 'businessAddress', 'otherAddress'];
const ADDRESS_PARTS = ['street', 'city', 'state', 'countryOrRegion', 'postalCode'];

const changeKeyOf = (id: string, changed: number) =>
  createHash('sha256').update(`contact:${id}:${changed}`).digest('base64').slice(0, 24);

function folderJson(user: SimUser, f: SimContactFolder) {
  return { id: f.id, displayName: f.name, parentFolderId: f.parentId ?? user.rootFolderId };
}

function contactJson(c: SimContact) {
  const changeKey = changeKeyOf(c.id, c.changed);
  return {
    '@odata.etag': `W/"${changeKey}"`,
    id: c.id,
    createdDateTime: c.created,
    lastModifiedDateTime: c.modified,
    changeKey,
    categories: Array.isArray(c.properties.categories) ? c.properties.categories : [],
    parentFolderId: c.folderId,
    ...CONTACT_DEFAULTS,
    ...Object.fromEntries(Object.entries(c.properties).filter(([k]) => k !== 'categories')),
  };
}

const removedJson = (id: string) => ({
  '@odata.type': '#microsoft.graph.contact',
  id,
  '@removed': { reason: 'deleted' },
});

const folderOf = (user: SimUser, key: string) => user.contactFolders.find((f) => f.id === key);

/** A route on one contact folder of a mailbox (`:folder`), or the default one where the path names none. */
const onFolder = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser, folder: SimContactFolder) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  onMailbox(
    method,
    patterns,
    (call, user) => {
      const folder =
        call.params.folder === undefined
          ? user.contactFolders.find((f) => f.isDefault)
          : folderOf(user, call.params.folder);
      return folder ? handle(call, user, folder) : itemNotFound();
    },
    options,
  );

const liveIn = (user: SimUser, folderId: string) =>
  [...user.contacts.values()].filter((c) => c.folderId === folderId && !c.deleted);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (message: string) => graphError(400, 'ErrorInvalidRequest', message);

function readJson(call: GraphCall): Json | SimResponse {
  try {
    const body = jsonBody<Json>(call.request);
    return isObject(body) ? body : graphError(400, 'BadRequest', 'The request body is not a JSON object.');
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
}

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';

/**
 * The contact properties of a request that Graph writes, checked for their types; read-only and
 * unknown ones are left out, as Outlook ignores them on an open type.
 */
function contactProperties(body: Json): Record<string, unknown> | SimResponse {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'categories' && !(key in CONTACT_DEFAULTS)) continue;
    if (value === null) continue;
    if (key === 'categories' || COLLECTIONS.includes(key)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        return invalid(`${key} must be a collection of strings.`);
      }
      out[key] = value;
    } else if (key === 'emailAddresses') {
      if (!Array.isArray(value) || !value.every((v) => isObject(v) && typeof v.address === 'string')) {
        return invalid('emailAddresses must be a collection of emailAddress, each with an address.');
      }
      out[key] = value.map((v) => ({ name: typeof v.name === 'string' ? v.name : v.address, address: v.address }));
    } else if (ADDRESSES.includes(key)) {
      if (!isObject(value)) return invalid(`${key} must be a physicalAddress.`);
      out[key] = Object.fromEntries(
        ADDRESS_PARTS.filter((p) => typeof value[p] === 'string').map((p) => [p, value[p]]),
      );
    } else if (key === 'birthday') {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return invalid('birthday must be a date-time.');
      out[key] = new Date(value).toISOString().replace('.000Z', 'Z');
    } else {
      if (typeof value !== 'string') return invalid(`${key} must be a string.`);
      out[key] = value;
    }
  }
  // Outlook names a contact given no display name after its given name and surname.
  if (!out.displayName) {
    const name = [out.givenName, out.middleName, out.surname].filter((p) => typeof p === 'string' && p).join(' ');
    out.displayName =
      name || (Array.isArray(out.emailAddresses) ? ((out.emailAddresses[0] as Json)?.address ?? '') : '');
  }
  return out;
}

function createFolder(call: GraphCall, user: SimUser, parent: SimContactFolder | null): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  const name = typeof body.displayName === 'string' ? body.displayName.trim() : '';
  if (!name) return invalid('A contact folder needs a displayName.');
  const parentId = parent?.id ?? null;
  if (user.contactFolders.some((f) => f.parentId === parentId && f.name.toLowerCase() === name.toLowerCase())) {
    return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
  }
  const folder: SimContactFolder = { id: `cf-${randomBytes(12).toString('hex')}`, name, parentId, isDefault: false };
  user.contactFolders.push(folder);
  return { status: 201, json: folderJson(user, folder) };
}

function createContact(call: GraphCall, user: SimUser, folder: SimContactFolder): SimResponse {
  const body = readJson(call);
  if (isAnswer(body)) return body;
  const properties = contactProperties(body);
  if (isAnswer(properties)) return properties;
  call.tenant.clock += 1;
  const now = new Date().toISOString();
  const contact: SimContact = {
    id: `ct-${randomBytes(12).toString('hex')}`,
    folderId: folder.id,
    properties,
    created: now,
    modified: now,
    changed: call.tenant.clock,
    deleted: false,
  };
  user.contacts.set(contact.id, contact);
  return { status: 201, json: contactJson(contact) };
}

/** PATCH a contact: the properties given replace its own, the others stay. */
function updateContact(call: GraphCall, user: SimUser): SimResponse {
  const contact = user.contacts.get(call.params.contact ?? '');
  if (!contact || contact.deleted) return itemNotFound();
  if (call.params.folder !== undefined && folderOf(user, call.params.folder)?.id !== contact.folderId) {
    return itemNotFound();
  }
  const body = readJson(call);
  if (isAnswer(body)) return body;
  const properties = contactProperties(body);
  if (isAnswer(properties)) return properties;
  // A display name is made up only for a contact created without one, not for an update leaving it.
  if (!('displayName' in body)) delete properties.displayName;
  for (const [key, value] of Object.entries(body)) if (value === null) delete contact.properties[key];
  Object.assign(contact.properties, properties);
  call.tenant.clock += 1;
  contact.modified = new Date().toISOString();
  contact.changed = call.tenant.clock;
  return { status: 200, json: contactJson(contact) };
}

export const contactRoutes: GraphRoute[] = [
  ...onMailbox('GET', 'users/:user/contactFolders', ({ context, request }, user) =>
    page(
      context,
      request,
      user.contactFolders.filter((f) => f.parentId === null),
      (f) => folderJson(user, f),
      OUTLOOK,
    ),
  ),
  ...onFolder('GET', 'users/:user/contactFolders/:folder', (_call, user, folder) => ({
    status: 200,
    json: folderJson(user, folder),
  })),
  ...onFolder('GET', 'users/:user/contactFolders/:folder/childFolders', ({ context, request }, user, folder) =>
    page(
      context,
      request,
      user.contactFolders.filter((f) => f.parentId === folder.id),
      (f) => folderJson(user, f),
      OUTLOOK,
    ),
  ),
  ...onFolder(
    'GET',
    'users/:user/contactFolders/:folder/contacts/delta',
    ({ context, request, tenant }, user, folder) =>
      delta(context, request, tenant, {
        resource: `contacts:${user.id}:${folder.id}`,
        style: 'outlook',
        max: 1000,
        changes: (after) =>
          [...user.contacts.values()].filter(
            (c) => c.folderId === folder.id && c.changed > after && !(after < 0 && c.deleted),
          ),
        map: (c) => (c.deleted ? removedJson(c.id) : contactJson(c)),
      }),
    { context: 'Collection(microsoft.graph.contact)', functionParameters: [] },
  ),
  ...onFolder(
    'GET',
    ['users/:user/contacts', 'users/:user/contactFolders/:folder/contacts'],
    ({ context, request }, user, folder) => page(context, request, liveIn(user, folder.id), contactJson, OUTLOOK),
  ),
  ...onMailbox(
    'GET',
    ['users/:user/contacts/:contact', 'users/:user/contactFolders/:folder/contacts/:contact'],
    ({ params }, user) => {
      const contact = user.contacts.get(params.contact ?? '');
      if (!contact || contact.deleted) return itemNotFound();
      if (params.folder !== undefined && folderOf(user, params.folder)?.id !== contact.folderId) return itemNotFound();
      return { status: 200, json: contactJson(contact) };
    },
  ),
  ...onMailbox('POST', 'users/:user/contactFolders', (call, user) => createFolder(call, user, null)),
  ...onFolder('POST', 'users/:user/contactFolders/:folder/childFolders', (call, user, folder) =>
    createFolder(call, user, folder),
  ),
  ...onFolder('POST', ['users/:user/contacts', 'users/:user/contactFolders/:folder/contacts'], createContact),
  ...onMailbox(
    'PATCH',
    ['users/:user/contacts/:contact', 'users/:user/contactFolders/:folder/contacts/:contact'],
    updateContact,
  ),
];
