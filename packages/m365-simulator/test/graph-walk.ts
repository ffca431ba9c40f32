/**
 * Test helpers: the Graph service over one generated tenant, called without a transport, and a walk
 * through every path the simulator serves (reads and writes), following next links.
 */

import type { SimResponse } from '../src/graph/odata.js';
import { createGraphService } from '../src/graph/service.js';
import { buildTenant, type SimTenant, type TenantSize } from '../src/model.js';
import { ALL_APPLICATION_PERMISSIONS, type GraphAccess } from '../src/permissions.js';
import { walkMailboxItems, writeMailboxItems } from './graph-walk-mailbox.js';

export const BASE = 'https://graph.simulator.test/m365-simulator';

export interface Answer extends SimResponse {
  body: Record<string, unknown>;
}

export function graphOver(
  size: Partial<TenantSize> = {},
  pageSize = 3,
  tenantId = '11111111-2222-4333-8444-555555555555',
) {
  const tenant: SimTenant = buildTenant(tenantId, size);
  // The shared state (upload sessions) too, for tests that write fragments.
  const context = { pageSize, baseUrl: () => BASE, sessions: new Map() };
  const service = createGraphService(context, {
    validate: true,
    tenant: (id) => (id === tenantId ? tenant : undefined),
  });
  /** Every request made: method, path (below the simulator's root, without the query) and status. */
  const requests: { method: string; path: string; status: number }[] = [];
  /** One request; `url` is below /v1.0 (`/users?$top=2`) or absolute (a next link). */
  async function call(
    method: string,
    url: string,
    init: { body?: string | Buffer; headers?: Record<string, string>; access?: GraphAccess } = {},
  ): Promise<Answer> {
    const parsed = new URL(url.startsWith('http') ? url : `${BASE}/v1.0${url}`);
    const path = parsed.pathname.slice(new URL(BASE).pathname.length);
    const response = await service.graph(
      { method, path, query: parsed.searchParams, headers: init.headers ?? {}, body: Buffer.from(init.body ?? '') },
      tenant,
      // Every permission granted, unless a test asks otherwise: the walk is about Graph's shapes.
      init.access ?? { kind: 'application', roles: ALL_APPLICATION_PERMISSIONS },
    );
    requests.push({ method, path, status: response.status });
    return { ...response, body: (response.json ?? {}) as Record<string, unknown> };
  }
  const get = (url: string, headers?: Record<string, string>) => call('GET', url, headers ? { headers } : {});
  /** Every item of a list, following @odata.nextLink. */
  async function all<T = Record<string, unknown>>(url: string, headers?: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = url;
    while (next) {
      const answer = await get(next, headers);
      if (answer.status !== 200) throw new Error(`${next}: ${answer.status} ${JSON.stringify(answer.body)}`);
      items.push(...((answer.body.value as T[]) ?? []));
      next = answer.body['@odata.nextLink'] as string | undefined;
    }
    return items;
  }
  return { tenant, service, context, call, get, all, requests, validation: service.validation };
}

export type Graph = ReturnType<typeof graphOver>;
type Row = Record<string, unknown> & { id: string };

/** Walks every path the simulator serves: reads first, then errors, then the writes a restore makes. */
export async function walkEverything(graph: Graph) {
  const { tenant, call: anyCall, get: anyGet, all } = graph;
  const e = encodeURIComponent;
  /** Reads and writes that must succeed; the errors use anyGet. */
  const call = async (method: string, url: string, init: Parameters<typeof anyCall>[2] = {}) => {
    const answer = await anyCall(method, url, init);
    if (answer.status >= 400) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  };
  const get = (url: string) => call('GET', url);

  for (const organization of await all<Row>('/organization')) await get(`/organization/${e(organization.id)}`);
  const users = await all<Row>('/users');
  for (const user of users) {
    const u = e(user.id);
    await get(`/users/${u}`);
    const drive = (await get(`/users/${u}/drive`)).body as Row;
    await all(`/users/${u}/drive/root/children`);
    await walkDrive(drive.id);
    await all(`/users/${u}/chats`);
    await all(`/users/${u}/joinedTeams`);
    const mailbox = await anyGet(`/users/${u}/mailFolders`);
    if (mailbox.status !== 200) continue;
    const folders = await all<Row>(`/users/${u}/mailFolders`);
    for (const name of ['inbox', 'sentitems', 'archive', 'deleteditems', 'drafts', 'junkemail', 'msgfolderroot']) {
      await get(`/users/${u}/mailFolders/${name}`);
    }
    await all(`/users/${u}/mailFolders/msgfolderroot/childFolders`);
    for (const folder of folders) {
      await get(`/users/${u}/mailFolders/${e(folder.id)}`);
      for (const child of await all<Row>(`/users/${u}/mailFolders/${e(folder.id)}/childFolders`)) {
        await all(`/users/${u}/mailFolders/${e(child.id)}/messages`);
      }
      const messages = await all<Row>(`/users/${u}/mailFolders/${e(folder.id)}/messages`);
      await all(`/users/${u}/mailFolders/${e(folder.id)}/messages/delta`);
      for (const message of messages.slice(0, 2)) {
        await get(`/users/${u}/messages/${e(message.id)}`);
        await get(`/users/${u}/mailFolders/${e(folder.id)}/messages/${e(message.id)}`);
        await get(`/users/${u}/messages/${e(message.id)}/$value`);
      }
    }
    await all(`/users/${u}/messages`);
    await walkMailboxItems(graph, user.id);
  }
  for (const site of await all<Row>('/sites?search=*')) {
    await get(`/sites/${e(site.id)}`);
    await get(`/sites/${e(site.id)}/drive`);
    for (const drive of await all<Row>(`/sites/${e(site.id)}/drives`)) await walkDrive(drive.id);
    await all(`/sites/${e(site.id)}/drive/root/children`);
    await walkSiteContent(site.id);
  }
  await all('/groups?$select=id,displayName,mail,groupTypes,mailEnabled,securityEnabled,resourceProvisioningOptions');
  for (const group of await all<Row>('/groups')) {
    await get(`/groups/${e(group.id)}`);
    await all(`/groups/${e(group.id)}/members`);
    await all(`/groups/${e(group.id)}/members/microsoft.graph.user?$select=id,displayName,userPrincipalName,mail`);
    // A team's site with `teamSites`; 404 for a group without one.
    await anyGet(`/groups/${e(group.id)}/sites/root`);
  }
  const teamsFilter = e("resourceProvisioningOptions/Any(x:x eq 'Team')");
  for (const team of await all<Row>(`/groups?$filter=${teamsFilter}&$select=id,displayName`)) {
    const t = e(team.id);
    await get(`/teams/${t}`);
    for (const channel of await all<Row>(`/teams/${t}/channels`)) {
      const c = e(channel.id);
      await get(`/teams/${t}/channels/${c}`);
      for (const message of await all<Row>(`/teams/${t}/channels/${c}/messages`)) {
        await get(`/teams/${t}/channels/${c}/messages/${e(message.id)}`);
        await all(`/teams/${t}/channels/${c}/messages/${e(message.id)}/replies`);
      }
    }
  }
  for (const chat of tenant.chats) {
    await get(`/chats/${e(chat.id)}`);
    await all(`/chats/${e(chat.id)}/members`);
    for (const message of await all<Row>(`/chats/${e(chat.id)}/messages?$top=50`)) {
      await get(`/chats/${e(chat.id)}/messages/${e(message.id)}`);
    }
  }
  await anyCall('GET', '/users/$count', { headers: { consistencylevel: 'eventual' } });
  await anyCall('GET', '/groups/$count', { headers: { consistencylevel: 'eventual' } });
  for (const group of await all<Row>('/groups?$select=id')) {
    await anyCall('GET', `/groups/${e(group.id)}/members/microsoft.graph.user/$count`, {
      headers: { consistencylevel: 'eventual' },
    });
  }

  // Errors: an unknown organization, user, item, path, mailbox; $count without ConsistencyLevel.
  await anyGet('/organization/00000000-0000-4000-8000-000000000000');
  await anyGet('/users/nobody@nowhere.example');
  await anyGet(`/drives/${e(tenant.users[0]?.driveId ?? '')}/items/no-such-item`);
  await anyGet('/no-such-resource');
  await anyGet('/users/$count');
  const guest = tenant.users.find((u) => !u.hasMailbox);
  if (guest) await anyGet(`/users/${e(guest.id)}/mailFolders`);

  // The writes a restore makes.
  const owner = tenant.users[0];
  if (!owner) return;
  const json = { 'content-type': 'application/json' };
  const created = (
    await call('POST', `/users/${e(owner.id)}/mailFolders`, {
      body: JSON.stringify({ displayName: 'Restored' }),
      headers: json,
    })
  ).body as Row;
  await call('POST', `/users/${e(owner.id)}/mailFolders/${e(created.id)}/childFolders`, {
    body: JSON.stringify({ displayName: 'Below' }),
    headers: json,
  });
  const mime = [
    'From: Nestor Wilke <nestor@contoso.example>',
    'To: Adele Vance <adele@contoso.example>',
    'Subject: =?utf-8?B?UsO8Y2tibGljaw==?=',
    'Date: Tue, 01 Sep 2026 08:00:00 +0000',
    'Message-ID: <restored-1@contoso.example>',
    '',
    'Hello',
  ].join('\r\n');
  await call('POST', `/users/${e(owner.id)}/mailFolders/${e(created.id)}/messages`, {
    body: Buffer.from(mime).toString('base64'),
    headers: { 'content-type': 'text/plain' },
  });
  await writeMailboxItems(graph, owner.id);
  const drive = owner.driveId;
  const root = `${drive}-root`;
  const restored = `/drives/${e(drive)}/items/${e(root)}:/${e('restored.txt')}:/content`;
  await call('PUT', `${restored}?@microsoft.graph.conflictBehavior=rename`, { body: 'restored bytes' });
  await call('POST', `/drives/${e(drive)}/items/${e(root)}:/${e('big.bin')}:/createUploadSession`, {
    body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'replace' } }),
  });
  await call('POST', `/drives/${e(drive)}/items/${e(root)}/children`, {
    body: JSON.stringify({ name: 'Restored folder', folder: {}, '@microsoft.graph.conflictBehavior': 'rename' }),
  });
  await call('POST', `/drives/${e(drive)}/root/children`, {
    body: JSON.stringify({ name: 'Restored folder', folder: {}, '@microsoft.graph.conflictBehavior': 'rename' }),
  });
  const file = [...(tenant.drives.get(drive)?.items.values() ?? [])].find(
    (i) => i.kind === 'file' && i.versions.length > 2,
  );
  if (file) {
    const item = `/drives/${e(drive)}/items/${e(file.id)}`;
    await call('POST', `${item}/invite`, {
      body: JSON.stringify({
        recipients: [{ objectId: tenant.users[1]?.id }],
        roles: ['read'],
        requireSignIn: true,
        sendInvitation: false,
      }),
    });
    await get(`${item}/versions/1.0`);
    await get(`${item}/versions/1.0/content`);
    await call('POST', `${item}/versions/1.0/restoreVersion`);
    await call('DELETE', `${item}/versions/2.0`);
  }
  const site = tenant.sites[0];
  if (site) await restoreSiteContent(site.id);

  /** The writes a restore makes to a site: a list with columns of each type, items, fields, a page. */
  async function restoreSiteContent(siteId: string) {
    const s = `/sites/${e(siteId)}`;
    const register = tenant.sites.find((x) => x.id === siteId)?.lists.find((l) => l.name === 'ContractRegister');
    const list = (
      await call('POST', `${s}/lists`, {
        body: JSON.stringify({
          displayName: 'Restored issues',
          list: { template: 'genericList' },
          columns: [
            { name: 'Details', text: { allowMultipleLines: true } },
            { name: 'Cost', number: {} },
            { name: 'Due', dateTime: {} },
            { name: 'State', choice: { choices: ['Open', 'Done'] } },
            { name: 'Urgent', boolean: {} },
            { name: 'Owner', personOrGroup: {} },
            ...(register ? [{ name: 'Contract', lookup: { listId: register.id, columnName: 'Title' } }] : []),
          ],
        }),
        headers: json,
      })
    ).body as Row;
    const item = (
      await call('POST', `${s}/lists/${e(list.id)}/items`, {
        body: JSON.stringify({
          fields: {
            Title: 'Restored',
            Details: 'Two lines\nof text',
            Cost: 12.5,
            Due: '2026-10-01T08:00:00Z',
            State: 'Open',
            Urgent: true,
            OwnerLookupId: '10',
            ...(register ? { ContractLookupId: '1' } : {}),
          },
        }),
        headers: json,
      })
    ).body as Row;
    await call('PATCH', `${s}/lists/${e(list.id)}/items/${e(item.id)}/fields`, {
      body: JSON.stringify({ State: 'Done' }),
      headers: json,
    });
    await call('POST', `${s}/lists`, {
      body: JSON.stringify({ displayName: 'Restored library', list: { template: 'documentLibrary' } }),
      headers: json,
    });
    const page = (
      await call('POST', `${s}/pages`, {
        body: JSON.stringify({
          '@odata.type': '#microsoft.graph.sitePage',
          name: 'Restored.aspx',
          title: 'Restored',
          pageLayout: 'article',
          canvasLayout: {
            horizontalSections: [
              {
                layout: 'twoColumns',
                id: '1',
                emphasis: 'none',
                columns: [
                  { id: '1', width: 6, webparts: [{ id: 'a', innerHtml: '<p>Restored</p>' }] },
                  {
                    id: '2',
                    width: 6,
                    webparts: [
                      {
                        id: 'b',
                        webPartType: '2161a1c6-db61-4731-b97c-3cdb303f7cbb',
                        data: { dataVersion: '1.0', title: 'Divider', properties: { length: 100 } },
                      },
                    ],
                  },
                ],
              },
            ],
          },
        }),
        headers: json,
      })
    ).body as Row;
    await call('POST', `${s}/pages/${e(page.id)}/microsoft.graph.sitePage/publish`);
  }

  /** A site's lists (system ones too), their columns, content types, items, versions and delta; its pages. */
  async function walkSiteContent(siteId: string) {
    const site = `/sites/${e(siteId)}`;
    await all(`${site}/contentTypes`);
    await all(`${site}/lists`);
    for (const list of await all<Row>(`${site}/lists?$select=id,displayName,name,list,system`)) {
      const l = `${site}/lists/${e(list.id)}`;
      await get(l);
      await get(`${site}/lists/${e(String(list.displayName))}`);
      await get(`${l}?$expand=columns,contentTypes,items($expand=fields)`);
      if ((list.list as { template?: string }).template === 'documentLibrary') await get(`${l}/drive`);
      await all(`${l}/columns`);
      await all(`${l}/contentTypes`);
      await all(`${l}/items/delta?$expand=fields`);
      await all(`${l}/items/delta()`);
      const items = await all<Row>(`${l}/items?$expand=fields`);
      await all(`${l}/items?$expand=fields($select=Title,id)&$select=id,fields`);
      for (const item of items.slice(0, 3)) {
        const i = `${l}/items/${e(item.id)}`;
        await get(`${i}?$expand=fields,versions($expand=fields)`);
        await get(`${i}/fields`);
        const versions = await all<Row>(`${i}/versions?$expand=fields`);
        for (const version of versions.slice(0, 2)) {
          await get(`${i}/versions/${e(version.id)}?$expand=fields`);
          await get(`${i}/versions/${e(version.id)}/fields`);
        }
      }
    }
    const pages = await all<Row>(`${site}/pages`);
    await all(`${site}/pages/microsoft.graph.sitePage?$expand=canvasLayout`);
    for (const page of pages) {
      const p = `${site}/pages/${e(page.id)}`;
      await get(p);
      await get(`${p}/microsoft.graph.sitePage?$expand=canvasLayout`);
      await get(`${p}/microsoft.graph.sitePage/canvasLayout`);
      await all(`${p}/microsoft.graph.sitePage/webParts`);
    }
    // Errors: an unknown list, item and page; a property $expand cannot reach.
    await anyGet(`${site}/lists/no-such-list`);
    await anyGet(`${site}/lists/Documents/items/99999`);
    await anyGet(`${site}/pages/00000000-0000-4000-8000-000000000000`);
    await anyGet(`${site}/lists/Documents/items?$expand=attachments`);
  }

  async function walkDrive(driveId: string) {
    const d = e(driveId);
    await get(`/drives/${d}`);
    await get(`/drives/${d}/root`);
    await all(`/drives/${d}/root/children`);
    const items = await all<Row>(`/drives/${d}/root/delta`);
    const folder = items.find((i) => i.folder && !i.root);
    if (folder) {
      await all(`/drives/${d}/items/${e(folder.id)}/delta`);
      await all(`/drives/${d}/root:/${e(String(folder.name))}:/children`);
    }
    for (const item of items) {
      await get(`/drives/${d}/items/${e(item.id)}`);
      if (item.folder) await all(`/drives/${d}/items/${e(item.id)}/children`);
      if (item.file) {
        await all(`/drives/${d}/items/${e(item.id)}/versions`);
        await all(`/drives/${d}/items/${e(item.id)}/permissions`);
        await get(`/drives/${d}/items/${e(item.id)}/content`);
      }
    }
    const top = items.find((i) => i.file && (i.parentReference as { path?: string }).path?.endsWith('root:'));
    if (top) {
      await get(`/drives/${d}/root:/${e(String(top.name))}`);
      await get(`/drives/${d}/root:/${e(String(top.name))}:/content`);
    }
  }
}
