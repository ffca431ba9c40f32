/**
 * Contacts as Outlook answers them: the mailbox's contact folders (the default "Contacts" and others
 * at the top, child folders below), a folder's contacts and the default folder's, one contact with
 * Graph's properties, contact delta per folder across changes (new, edited, deleted as `@removed`) with
 * Outlook's 410s, the writes a restore makes, and the permissions each call asks. Microsoft's documented
 * examples serve as fixtures where they fit.
 */
import { describe, expect, it } from 'vitest';
import { evolve, expireDeltaTokens } from '../src/model.js';
import type { GraphAccess } from '../src/permissions.js';
import { graphOver } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };
type Page = { value: Row[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };

const json = { 'content-type': 'application/json' };

describe('contacts', () => {
  const graph = graphOver({ users: 3, extraContactFolders: 2, contactsPerFolder: 4 }, 3);
  const { tenant, get, call, all } = graph;
  const [user, other] = tenant.users;
  if (!user || !other) throw new Error('no users');
  const base = `/users/${user.id}`;
  const defaultFolder = () => user.contactFolders.find((f) => f.isDefault) ?? expect.unreachable('Contacts');

  it('lists the default Contacts folder and the others at the top, child folders below them', async () => {
    const folders = await all<Row>(`${base}/contactFolders`);
    expect(folders.map((f) => f.displayName)).toEqual(['Contacts', 'Suppliers', 'Clients']);
    // As Microsoft's example shows them: an id, a name, and the mailbox's root as their parent.
    for (const folder of folders) expect(Object.keys(folder).sort()).toEqual(['displayName', 'id', 'parentFolderId']);
    expect(new Set(folders.map((f) => f.parentFolderId))).toEqual(new Set([user.rootFolderId]));
    const suppliers = folders[1] ?? expect.unreachable('Suppliers');
    const children = await all<Row>(`${base}/contactFolders/${suppliers.id}/childFolders`);
    expect(children).toEqual([
      { id: expect.any(String), displayName: 'Former suppliers', parentFolderId: suppliers.id },
    ]);
    expect((await get(`${base}/contactFolders/${children[0]?.id}`)).body.displayName).toBe('Former suppliers');
    expect(await all(`${base}/contactFolders/${folders[0]?.id}/childFolders`)).toEqual([]);
    expect((await get(`${base}/contactFolders/no-such-folder`)).status).toBe(404);
  });

  it("answers a contact with Graph's properties, the default folder's at /contacts", async () => {
    const contacts = await all<Row>(`${base}/contacts`);
    expect(contacts).toHaveLength(4);
    expect(contacts.every((c) => c.parentFolderId === defaultFolder().id)).toBe(true);
    expect((await all<Row>(`${base}/contactFolders/${defaultFolder().id}/contacts`)).map((c) => c.id)).toEqual(
      contacts.map((c) => c.id),
    );
    const [first] = contacts;
    expect(first).toMatchObject({
      givenName: expect.any(String),
      surname: expect.any(String),
      displayName: `${first?.givenName} ${first?.surname}`,
      emailAddresses: expect.arrayContaining([
        { name: first?.displayName, address: expect.stringMatching(/@[a-z]+\.example$/) },
      ]),
      businessPhones: [expect.stringMatching(/^\+49 30/)],
      companyName: expect.any(String),
      jobTitle: expect.any(String),
      businessAddress: { street: expect.any(String), city: expect.any(String), countryOrRegion: expect.any(String) },
      imAddresses: [],
      children: [],
      otherAddress: {},
    });
    // Some have a birthday, a home address, a mobile phone and notes; the others answer them empty.
    expect(contacts.some((c) => typeof c.birthday === 'string')).toBe(true);
    expect(contacts.some((c) => c.birthday === null)).toBe(true);
    expect(contacts.some((c) => Object.keys(c.homeAddress as Row).length > 0)).toBe(true);
    expect(contacts.some((c) => c.mobilePhone === null)).toBe(true);
    const one = await get(`${base}/contacts/${first?.id}`);
    expect(one.body).toEqual({ ...first, '@odata.context': expect.stringMatching(/\/contacts\/\$entity$/) });
    const suppliers = user.contactFolders.find((f) => f.name === 'Suppliers');
    expect((await get(`${base}/contactFolders/${suppliers?.id}/contacts/${first?.id}`)).status).toBe(404);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it("creates folders and contacts as Microsoft's example does: the display name made of the names", async () => {
    const folder = await call('POST', `${base}/contactFolders`, {
      body: JSON.stringify({ displayName: 'Restored' }),
      headers: json,
    });
    expect(folder.status).toBe(201);
    expect(folder.body).toMatchObject({ displayName: 'Restored', parentFolderId: user.rootFolderId });
    const again = await call('POST', `${base}/contactFolders`, {
      body: JSON.stringify({ displayName: 'restored' }),
      headers: json,
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'ErrorFolderExists' });
    const child = await call('POST', `${base}/contactFolders/${folder.body.id}/childFolders`, {
      body: JSON.stringify({ displayName: 'Below' }),
      headers: json,
    });
    expect(child.body).toMatchObject({ displayName: 'Below', parentFolderId: folder.body.id });
    // learn.microsoft.com, Create contact: the request as documented, and its answer's displayName.
    const request = {
      givenName: 'Pavel',
      surname: 'Bansky',
      emailAddresses: [{ address: 'pavelb@contoso.com', name: 'Pavel Bansky' }],
      businessPhones: ['+1 732 555 0102'],
    };
    const created = await call('POST', `${base}/contactFolders/${folder.body.id}/contacts`, {
      body: JSON.stringify(request),
      headers: json,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...request, displayName: 'Pavel Bansky', parentFolderId: folder.body.id });
    expect(String(created.body['@odata.context'])).toMatch(/\/contactFolders\('[^']+'\)\/contacts\/\$entity$/);
    // Every writable property comes back as written; read-only ones are Outlook's own.
    const whole = {
      givenName: 'Ana',
      middleName: 'Maria',
      surname: 'Lopez',
      nickName: 'Ani',
      title: 'Dr.',
      initials: 'A.M.L.',
      generation: 'Jr.',
      fileAs: 'Lopez, Ana',
      birthday: '1981-04-12T11:59:00Z',
      spouseName: 'Tom',
      children: ['Mia'],
      imAddresses: ['ana@im.example'],
      homePhones: ['+34 91 555 0100'],
      mobilePhone: '+34 600 555 010',
      businessHomePage: 'https://fabrikam.example',
      companyName: 'Fabrikam',
      department: 'Legal',
      jobTitle: 'Counsel',
      officeLocation: 'Madrid',
      profession: 'Lawyer',
      manager: 'Ben',
      assistantName: 'Carla',
      personalNotes: 'Met at the fair.',
      homeAddress: {
        street: 'Calle Mayor 1',
        city: 'Madrid',
        state: 'Madrid',
        countryOrRegion: 'Spain',
        postalCode: '28013',
      },
      otherAddress: { city: 'Sevilla' },
      categories: ['Red category'],
      id: 'ignored',
      createdDateTime: '2000-01-01T00:00:00Z',
    };
    const full = await call('POST', `${base}/contacts`, { body: JSON.stringify(whole), headers: json });
    const { id: _id, createdDateTime: _created, ...writable } = whole;
    expect(full.body).toMatchObject({
      ...writable,
      displayName: 'Ana Maria Lopez',
      parentFolderId: defaultFolder().id,
    });
    expect(full.body.id).not.toBe('ignored');
    expect(full.body.createdDateTime).not.toBe('2000-01-01T00:00:00Z');
    const wrong = await call('POST', `${base}/contacts`, {
      body: JSON.stringify({ emailAddresses: 'pavel@contoso.com' }),
      headers: json,
    });
    expect(wrong.status).toBe(400);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('updates a contact: the properties given replace its own, null clears one, the others stay', async () => {
    const send = (method: string, url: string, body: unknown) =>
      call(method, url, { body: JSON.stringify(body), headers: json });
    const folder = defaultFolder();
    const made = await send('POST', `${base}/contactFolders/${folder.id}/contacts`, {
      givenName: 'Pavel',
      surname: 'Bansky',
      jobTitle: 'Engineer',
      businessPhones: ['+1 732 555 0102'],
    });
    const updated = await send('PATCH', `${base}/contacts/${made.body.id}`, { jobTitle: null, nickName: 'Pav' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      displayName: 'Pavel Bansky',
      jobTitle: null,
      nickName: 'Pav',
      businessPhones: ['+1 732 555 0102'],
    });
    const other = user.contactFolders.find((f) => !f.isDefault);
    expect((await send('PATCH', `${base}/contactFolders/${other?.id}/contacts/${made.body.id}`, {})).status).toBe(404);
    expect((await send('PATCH', `${base}/contacts/${made.body.id}`, { businessPhones: 'one' })).status).toBe(400);
  });

  it('tracks a folder’s contacts by delta: a full round, then the new, edited and deleted ones', async () => {
    const folder = defaultFolder();
    const url = `${base}/contactFolders/${folder.id}/contacts/delta`;
    /** A delta round to its end. */
    const round = async (start: string, headers?: Record<string, string>) => {
      const rows: Row[] = [];
      let next: string | undefined = start;
      let deltaLink = '';
      let requests = 0;
      while (next) {
        const answer = await get(next, headers);
        expect(answer.status).toBe(200);
        requests += 1;
        rows.push(...(answer.body as Page).value);
        next = (answer.body as Page)['@odata.nextLink'];
        deltaLink = (answer.body as Page)['@odata.deltaLink'] ?? deltaLink;
      }
      return { rows, deltaLink, requests };
    };
    // As Microsoft's example asks it: $select=displayName, two a page.
    const full = await round(`${url}?$select=displayName`, { prefer: 'odata.maxpagesize=2' });
    const live = [...user.contacts.values()].filter((c) => c.folderId === folder.id && !c.deleted);
    expect(full.rows.map((r) => r.id).sort()).toEqual(live.map((c) => c.id).sort());
    expect(full.requests).toBe(Math.ceil(live.length / 2));
    for (const row of full.rows) expect(Object.keys(row).sort()).toEqual(['@odata.etag', 'displayName', 'id']);
    expect(full.deltaLink).toMatch(/\/contacts\/delta\?\$select=displayName&\$deltatoken=/);
    expect((await round(full.deltaLink)).rows).toEqual([]);

    const change = evolve(tenant, { newContacts: 6, editedContacts: 6, deletedContacts: 6 });
    const changed = [...user.contacts.values()].filter((c) => c.folderId === folder.id && c.changed === change);
    const next = await round(full.deltaLink);
    expect(next.rows.map((r) => r.id).sort()).toEqual(changed.map((c) => c.id).sort());
    for (const contact of changed) {
      const row = next.rows.find((r) => r.id === contact.id);
      if (contact.deleted) {
        expect(row).toEqual({
          '@odata.type': '#microsoft.graph.contact',
          id: contact.id,
          '@removed': { reason: 'deleted' },
        });
      } else {
        // The round keeps the first request's $select, as Graph keeps it in its tokens.
        expect(row).toEqual({
          '@odata.etag': expect.any(String),
          id: contact.id,
          displayName: contact.properties.displayName,
        });
      }
    }
    expect(changed.length).toBeGreaterThan(0);
    // Contacts another folder's token does not reach; an expired token answers 410.
    const suppliers = user.contactFolders.find((f) => f.name === 'Suppliers');
    const token = new URL(next.deltaLink).searchParams.get('$deltatoken') ?? '';
    const foreign = await get(
      `${base}/contactFolders/${suppliers?.id}/contacts/delta?$deltatoken=${encodeURIComponent(token)}`,
    );
    expect(foreign.status).toBe(410);
    expect(foreign.body.error).toMatchObject({ code: 'syncStateInvalid' });
    expireDeltaTokens(tenant);
    const expired = await get(next.deltaLink);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'syncStateNotFound' });
    expect((await get(`${url}()`)).status).toBe(200);
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('asks Contacts.Read to read and Contacts.ReadWrite to write; a user reads another’s only with .Shared', async () => {
    const as = (access: GraphAccess, method: string, path: string, body?: unknown) =>
      call(method, path, { access, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });
    const app = (...roles: string[]): GraphAccess => ({ kind: 'application', roles });
    const me = (...scopes: string[]): GraphAccess => ({ kind: 'delegated', userId: user.id, scopes });
    expect((await as(app('Contacts.Read'), 'GET', `${base}/contacts`)).status).toBe(200);
    const refused = await as(app('Calendars.ReadWrite'), 'GET', `${base}/contacts`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ErrorAccessDenied' });
    expect((await as(app('Contacts.Read'), 'POST', `${base}/contacts`, { givenName: 'X' })).status).toBe(403);
    expect((await as(app('Contacts.ReadWrite'), 'POST', `${base}/contacts`, { givenName: 'X' })).status).toBe(201);
    expect((await as(me('Contacts.Read'), 'GET', '/me/contactFolders')).status).toBe(200);
    expect((await as(me('Contacts.Read'), 'GET', `/users/${other.id}/contactFolders`)).status).toBe(403);
    expect((await as(me('Contacts.Read.Shared'), 'GET', `/users/${other.id}/contactFolders`)).status).toBe(200);
  });
});
