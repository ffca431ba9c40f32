/**
 * Microsoft Graph v1.0 and the Entra ID token endpoint, as far as the data plane uses them, over the
 * simulated tenants: Graph's JSON shapes, paging with @odata.nextLink, delta links, error bodies,
 * throttling with Retry-After, and writes (uploads, upload sessions, folders, version restore and
 * removal) that change the tenant, so a test can read back what a job wrote.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  buildTenant,
  evolve,
  groupsOf,
  pathOf,
  type SimDrive,
  type SimItem,
  type SimTenant,
  type SimUser,
  type TenantSize,
  versionBytes,
} from './model.js';

export interface SimRequest {
  method: string;
  /** Path below the simulator's mount point, e.g. /v1.0/users. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  bytes?: Uint8Array;
}

export interface SimulatorOptions {
  /**
   * The tenants served, with their content sizes; other tenant ids are unknown to the simulator. With
   * `clientId` and `clientSecret`, a token is issued only to that application with that secret, as the
   * identity platform does; without them any application with any non-empty secret gets one.
   */
  tenants: { tenantId: string; clientId?: string; clientSecret?: string; size?: Partial<TenantSize> }[];
  /** Every this many ms each tenant changes a little (new and edited files, new mail and messages). */
  changeEveryMs?: number;
  /** Answer every n-th Graph request with 429 (0: never). */
  throttleEvery?: number;
  /** Retry-After seconds of a throttled answer. */
  retryAfter?: number;
  /** Items per page of a list or delta answer. */
  pageSize?: number;
  /** Base URL the simulator is reached at (for @odata.nextLink), without a trailing slash. */
  baseUrl?: string;
}

export interface SimulatorState {
  tenant(tenantId: string): SimTenant;
  /** Requests answered, throttled, and the most Graph requests in flight at once. */
  stats: { requests: number; throttled: number; inFlight: number; maxInFlight: number };
  setThrottle(every: number, retryAfter?: number): void;
  baseUrl: string;
}

const graphError = (status: number, code: string, message: string, headers?: Record<string, string>): SimResponse => ({
  status,
  json: { error: { code, message, innerError: { date: new Date().toISOString() } } },
  ...(headers ? { headers } : {}),
});

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const notFound = (what = 'The resource could not be found.') => graphError(404, 'itemNotFound', what);

export function createSimulatorHandler(options: SimulatorOptions) {
  const pageSize = options.pageSize ?? 200;
  const tenants = new Map<string, { model: SimTenant; clientId?: string; clientSecret?: string }>();
  for (const t of options.tenants) {
    tenants.set(t.tenantId.toLowerCase(), {
      model: buildTenant(t.tenantId.toLowerCase(), t.size),
      ...(t.clientId ? { clientId: t.clientId } : {}),
      ...(t.clientSecret ? { clientSecret: t.clientSecret } : {}),
    });
  }
  const tokens = new Map<string, { tenantId: string; expires: number }>();
  const sessions = new Map<
    string,
    {
      driveId: string;
      parentId: string;
      name: string;
      conflict: string;
      size: number;
      chunks: Buffer[];
      received: number;
    }
  >();
  let throttleEvery = options.throttleEvery ?? 0;
  let retryAfter = options.retryAfter ?? 0;
  const state: SimulatorState = {
    tenant(tenantId) {
      const t = tenants.get(tenantId.toLowerCase());
      if (!t) throw new Error(`the simulator does not serve tenant ${tenantId}`);
      return t.model;
    },
    stats: { requests: 0, throttled: 0, inFlight: 0, maxInFlight: 0 },
    setThrottle(every, after = 0) {
      throttleEvery = every;
      retryAfter = after;
    },
    baseUrl: options.baseUrl ?? '',
  };

  let timer: NodeJS.Timeout | undefined;
  if (options.changeEveryMs) {
    timer = setInterval(() => {
      for (const { model } of tenants.values()) {
        evolve(model, { newFiles: 2, editedFiles: 3, newMessages: 4, newChannelMessages: 2 });
      }
    }, options.changeEveryMs);
    timer.unref();
  }

  const page = <T>(request: SimRequest, all: T[], map: (item: T) => unknown): SimResponse => {
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const slice = all.slice(skip, skip + pageSize);
    const next = skip + pageSize < all.length;
    const query = new URLSearchParams(request.query);
    query.set('$skiptoken', String(skip + pageSize));
    return {
      status: 200,
      json: {
        value: slice.map(map),
        ...(next ? { '@odata.nextLink': `${state.baseUrl}${request.path}?${query}` } : {}),
      },
    };
  };

  /** Delta: the items changed after the link's number; the last page carries the next link. */
  const delta = <T>(
    request: SimRequest,
    tenant: SimTenant,
    changes: (after: number) => T[],
    map: (item: T) => unknown,
  ) => {
    const after = Number(request.query.get('token') ?? -1);
    const all = changes(after);
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const slice = all.slice(skip, skip + pageSize);
    const query = new URLSearchParams({ token: String(after) });
    if (skip + pageSize < all.length) {
      query.set('$skiptoken', String(skip + pageSize));
      return {
        status: 200,
        json: { value: slice.map(map), '@odata.nextLink': `${state.baseUrl}${request.path}?${query}` },
      };
    }
    return {
      status: 200,
      json: {
        value: slice.map(map),
        '@odata.deltaLink': `${state.baseUrl}${request.path}?${new URLSearchParams({ token: String(tenant.clock) })}`,
      },
    };
  };

  const itemJson = (tenant: SimTenant, drive: SimDrive, item: SimItem) => {
    const latest = item.versions[item.versions.length - 1];
    const parent = drive.items.get(item.parentId);
    const parentPath = parent ? (parent.kind === 'root' ? '' : pathOf(drive, parent)) : '';
    if (item.deleted) return { id: item.id, deleted: { state: 'deleted' }, parentReference: { driveId: drive.id } };
    return {
      id: item.id,
      name: item.name,
      createdDateTime: item.created,
      lastModifiedDateTime: latest?.modified ?? item.created,
      cTag: `"c:{${item.id}},${item.versions.length}"`,
      eTag: `"{${item.id}},${item.versions.length}"`,
      size: latest?.size ?? 0,
      webUrl: `https://${tenant.domain.split('.')[0]}.sharepoint.com/${drive.id}${pathOf(drive, item)}`,
      parentReference:
        item.kind === 'root'
          ? { driveId: drive.id }
          : { driveId: drive.id, id: item.parentId, path: `/drives/${drive.id}/root:${parentPath}` },
      ...(item.kind === 'root' ? { root: {}, folder: { childCount: 0 } } : {}),
      ...(item.kind === 'folder'
        ? {
            folder: {
              childCount: [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted).length,
            },
          }
        : {}),
      ...(item.kind === 'file' ? { file: { mimeType: 'application/octet-stream' } } : {}),
    };
  };

  const versionJson = (item: SimItem) =>
    [...item.versions].reverse().map((v) => ({ id: v.id, size: v.size, lastModifiedDateTime: v.modified }));

  const findDrive = (tenant: SimTenant, driveId: string) => tenant.drives.get(driveId);
  /** What a drive takes, as SharePoint counts it: every version of every live file. */
  const quota = (drive: SimDrive | undefined) => {
    let used = 0;
    for (const item of drive?.items.values() ?? [])
      if (!item.deleted && item.kind === 'file') for (const v of item.versions) used += v.size;
    return { used, total: 1024 ** 4, remaining: 1024 ** 4 - used };
  };
  const findItem = (drive: SimDrive, itemId: string) => {
    const id = itemId === 'root' ? `${drive.id}-root` : itemId;
    const item = drive.items.get(id);
    return item && !item.deleted ? item : undefined;
  };
  const userOf = (tenant: SimTenant, key: string): SimUser | undefined =>
    tenant.users.find((u) => u.id === key || u.upn.toLowerCase() === key.toLowerCase());
  const childNamed = (drive: SimDrive, parentId: string, name: string) =>
    [...drive.items.values()].find(
      (i) => i.parentId === parentId && !i.deleted && i.name.toLowerCase() === name.toLowerCase(),
    );

  const freeName = (drive: SimDrive, parentId: string, name: string) => {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let n = 1;
    let candidate = name;
    while (childNamed(drive, parentId, candidate)) candidate = `${stem} ${n++}${ext}`;
    return candidate;
  };

  /** Creates or replaces a file under parent with the conflict behaviour of Graph. */
  const writeFile = (
    tenant: SimTenant,
    drive: SimDrive,
    parent: SimItem,
    rawName: string,
    bytes: Uint8Array,
    conflict: string,
  ): SimResponse => {
    const existing = childNamed(drive, parent.id, rawName);
    tenant.clock += 1;
    const now = new Date().toISOString();
    if (existing && conflict === 'replace' && existing.kind === 'file') {
      const next = Number.parseInt(existing.versions[existing.versions.length - 1]?.id ?? '0', 10) + 1;
      existing.versions.push({
        id: `${next}.0`,
        size: bytes.length,
        modified: now,
        content: bytes,
        contentKey: `upload|${tenant.clock}`,
      });
      existing.changed = tenant.clock;
      return { status: 200, json: itemJson(tenant, drive, existing) };
    }
    if (existing && conflict !== 'rename') {
      return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
    }
    const name = existing ? freeName(drive, parent.id, rawName) : rawName;
    const id = `${drive.id}-u${tenant.nextItem++}`;
    const item: SimItem = {
      id,
      driveId: drive.id,
      name,
      parentId: parent.id,
      kind: 'file',
      versions: [{ id: '1.0', size: bytes.length, modified: now, content: bytes, contentKey: `upload|${id}` }],
      created: now,
      changed: tenant.clock,
      deleted: false,
      permissions: [],
    };
    drive.items.set(id, item);
    return { status: 201, json: itemJson(tenant, drive, item) };
  };

  /** An identity platform error body: `error`, `error_description` (AADSTS code first) and its trace fields. */
  const identityError = (status: number, error: string, code: number, description: string): SimResponse => {
    const traceId = randomUUID();
    const correlationId = randomUUID();
    const timestamp = new Date()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z');
    return {
      status,
      json: {
        error,
        error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
        error_codes: [code],
        timestamp,
        trace_id: traceId,
        correlation_id: correlationId,
      },
    };
  };

  const token = (request: SimRequest, tenantId: string): SimResponse => {
    const entry = tenants.get(tenantId.toLowerCase());
    const form = new URLSearchParams(request.body.toString('utf8'));
    if (!entry) {
      return identityError(
        400,
        'invalid_tenant',
        90002,
        `Tenant '${tenantId}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return identityError(
        400,
        'unsupported_grant_type',
        70003,
        'The app requested an unsupported grant type. This simulator issues app-only tokens (client_credentials).',
      );
    }
    const clientId = form.get('client_id') ?? '';
    if (entry.clientId && clientId !== entry.clientId) {
      return identityError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
      );
    }
    const secret = form.get('client_secret') ?? '';
    if (entry.clientSecret ? !safeEqual(secret, entry.clientSecret) : !secret) {
      return identityError(
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
      );
    }
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { tenantId: tenantId.toLowerCase(), expires: Date.now() + 3600_000 });
    return {
      status: 200,
      json: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken },
    };
  };

  const openid = (tenantId: string): SimResponse => {
    const login = `${state.baseUrl}/login/${tenantId}`;
    return {
      status: 200,
      json: {
        token_endpoint: `${login}/oauth2/v2.0/token`,
        authorization_endpoint: `${login}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${login}/oauth2/v2.0/logout`,
        issuer: `${login}/v2.0`,
        jwks_uri: `${login}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
      },
    };
  };

  const graph = async (request: SimRequest, tenant: SimTenant): Promise<SimResponse> => {
    const p = request.path.replace(/^\/v1\.0/, '');
    const seg = p.split('/').filter(Boolean).map(decodeURIComponent);
    const m = request.method;
    const is = (pattern: string) => {
      const parts = pattern.split('/').filter(Boolean);
      return parts.length === seg.length && parts.every((x, i) => x.startsWith(':') || x === seg[i]);
    };

    if (m === 'GET' && is('users')) {
      return page(request, tenant.users, (u) => ({
        id: u.id,
        userPrincipalName: u.upn,
        displayName: u.displayName,
        mail: u.hasMailbox ? u.upn : null,
      }));
    }
    if (m === 'GET' && is('users/:id/drive')) {
      const user = userOf(tenant, seg[1] ?? '');
      const drive = user && findDrive(tenant, user.driveId);
      return drive
        ? {
            status: 200,
            json: {
              id: drive.id,
              name: drive.name,
              driveType: 'business',
              owner: { user: { id: user.id } },
              quota: quota(drive),
            },
          }
        : notFound();
    }
    if (m === 'GET' && is('sites')) {
      return page(
        request,
        tenant.sites.filter((s) => !s.deleted),
        (s) => ({ id: s.id, name: s.name, displayName: s.name, webUrl: s.webUrl }),
      );
    }
    if (m === 'GET' && is('sites/:id/drives')) {
      const site = tenant.sites.find((s) => s.id === seg[1] && !s.deleted);
      if (!site) return notFound('The site was not found or has been deleted.');
      return page(request, site.driveIds, (id) => ({
        id,
        name: 'Documents',
        driveType: 'documentLibrary',
        quota: quota(findDrive(tenant, id)),
      }));
    }
    if (m === 'GET' && is('groups')) {
      const teamsOnly = (request.query.get('$filter') ?? '').includes('resourceProvisioningOptions');
      return page(
        request,
        groupsOf(tenant).filter((g) => !teamsOnly || g.team),
        (g) => ({
          id: g.id,
          displayName: g.displayName,
          mail: g.mail,
          groupTypes: g.team ? ['Unified'] : [],
          mailEnabled: true,
          securityEnabled: !g.team,
          resourceProvisioningOptions: g.team ? ['Team'] : [],
        }),
      );
    }
    if (m === 'GET' && (is('groups/:id/members') || is('groups/:id/members/microsoft.graph.user'))) {
      const group = groupsOf(tenant).find((g) => g.id === seg[1]);
      if (!group) return notFound();
      return page(request, group.members, (u) => ({
        '@odata.type': '#microsoft.graph.user',
        id: u.id,
        userPrincipalName: u.upn,
        displayName: u.displayName,
        mail: u.hasMailbox ? u.upn : null,
      }));
    }
    if (m === 'GET' && is('teams/:id/channels')) {
      const team = tenant.teams.find((t) => t.id === seg[1]);
      return team
        ? page(request, team.channels, (c) => ({ id: c.id, displayName: c.name, membershipType: 'standard' }))
        : notFound();
    }
    if (m === 'GET' && (is('teams/:id/channels/:c/messages') || is('teams/:id/channels/:c/messages/:m/replies'))) {
      const channel = tenant.teams.find((t) => t.id === seg[1])?.channels.find((c) => c.id === seg[3]);
      if (!channel) return notFound();
      const list =
        seg.length === 5
          ? channel.messages.filter((x) => x.replyTo === null)
          : channel.messages.filter((x) => x.replyTo === seg[5]);
      return page(request, list, (x) => ({
        id: x.id,
        replyToId: x.replyTo,
        messageType: 'message',
        createdDateTime: x.created,
        lastModifiedDateTime: x.created,
        from: { user: { displayName: x.from } },
        body: { contentType: 'html', content: `<p>${x.body}</p>` },
        channelIdentity: { teamId: seg[1], channelId: seg[3] },
      }));
    }
    if (m === 'GET' && is('users/:id/chats')) {
      const user = userOf(tenant, seg[1] ?? '');
      if (!user) return notFound();
      return page(
        request,
        tenant.chats.filter((c) => c.memberIds.includes(user.id)),
        (c) => ({ id: c.id, topic: c.topic, chatType: c.chatType, createdDateTime: c.created }),
      );
    }
    if (m === 'GET' && is('chats/:id/members')) {
      const chat = tenant.chats.find((c) => c.id === seg[1]);
      if (!chat) return notFound();
      return page(request, chat.memberIds, (id) => {
        const user = tenant.users.find((u) => u.id === id);
        return {
          '@odata.type': '#microsoft.graph.aadUserConversationMember',
          id: `${chat.id}|${id}`,
          roles: user?.hasMailbox ? ['owner'] : ['guest'],
          displayName: user?.displayName ?? null,
          userId: id,
          email: user?.hasMailbox ? user.upn : null,
        };
      });
    }
    if (m === 'GET' && is('chats/:id/messages')) {
      const chat = tenant.chats.find((c) => c.id === seg[1]);
      if (!chat) return notFound();
      return page(request, chat.messages, (x) => ({
        id: x.id,
        replyToId: null,
        messageType: 'message',
        chatId: chat.id,
        createdDateTime: x.created,
        lastModifiedDateTime: x.created,
        from: { user: { displayName: x.from } },
        body: { contentType: 'html', content: `<p>${x.body}</p>` },
      }));
    }
    if ((seg[0] === 'users' && seg[2] === 'mailFolders') || (seg[0] === 'users' && seg[2] === 'messages')) {
      const user = userOf(tenant, seg[1] ?? '');
      if (!user) return notFound();
      if (!user.hasMailbox) {
        return graphError(
          404,
          'MailboxNotEnabledForRESTAPI',
          'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
        );
      }
      if (m === 'GET' && is('users/:id/mailFolders')) {
        return page(
          request,
          user.folders.filter((f) => f.parentId === null),
          (f) => ({
            id: f.id,
            displayName: f.name,
            childFolderCount: user.folders.filter((c) => c.parentId === f.id).length,
          }),
        );
      }
      if (m === 'GET' && is('users/:id/mailFolders/:f/childFolders')) {
        return page(
          request,
          user.folders.filter((f) => f.parentId === seg[3]),
          (f) => ({
            id: f.id,
            displayName: f.name,
            childFolderCount: user.folders.filter((c) => c.parentId === f.id).length,
          }),
        );
      }
      if (m === 'GET' && is('users/:id/mailFolders/:f/messages/delta')) {
        const folder = user.folders.find((f) => f.id === seg[3]);
        if (!folder) return notFound();
        return delta(
          request,
          tenant,
          (after) => [...user.messages.values()].filter((x) => x.folderId === folder.id && x.changed > after),
          (x) => ({
            id: x.id,
            subject: x.subject,
            receivedDateTime: x.received,
            from: { emailAddress: { address: x.from } },
          }),
        );
      }
      if (m === 'POST' && (is('users/:id/mailFolders') || is('users/:id/mailFolders/:f/childFolders'))) {
        const parentId = seg.length === 5 ? (seg[3] ?? null) : null;
        if (parentId && !user.folders.some((f) => f.id === parentId)) return notFound();
        const name = String(
          (JSON.parse(request.body.toString('utf8') || '{}') as { displayName?: unknown }).displayName ?? '',
        );
        if (!name) return graphError(400, 'ErrorInvalidRequest', 'displayName is required.');
        if (user.folders.some((f) => f.parentId === parentId && f.name.toLowerCase() === name.toLowerCase()))
          return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
        const folder = { id: `f-${randomBytes(8).toString('hex')}`, name, parentId };
        user.folders.push(folder);
        return { status: 201, json: { id: folder.id, displayName: name, childFolderCount: 0 } };
      }
      if (m === 'POST' && is('users/:id/mailFolders/:f/messages')) {
        const folder = user.folders.find((f) => f.id === seg[3]);
        if (!folder) return notFound();
        const raw = Buffer.from(request.body.toString('utf8').trim(), 'base64');
        const text = raw.toString('utf8');
        const header = (name: string) =>
          new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(text.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim() ?? '';
        if (!header('Subject') && !header('From'))
          return graphError(400, 'ErrorMimeContentInvalid', 'The MIME content is not valid.');
        tenant.clock += 1;
        const id = `imported-${randomBytes(8).toString('hex')}`;
        const date = Date.parse(header('Date'));
        user.messages.set(id, {
          id,
          folderId: folder.id,
          subject: header('Subject'),
          from: header('From'),
          to: header('To'),
          body: text
            .split(/\r?\n\r?\n/)
            .slice(1)
            .join('\n\n'),
          received: new Date(Number.isNaN(date) ? Date.now() : date).toISOString(),
          changed: tenant.clock,
          raw,
        });
        return { status: 201, json: { id, subject: header('Subject'), parentFolderId: folder.id } };
      }
      if (m === 'GET' && is('users/:id/messages/:m/$value')) {
        const message = user.messages.get(seg[3] ?? '');
        if (!message) return notFound();
        if (message.raw) return { status: 200, headers: { 'content-type': 'message/rfc822' }, bytes: message.raw };
        const mime = [
          `From: ${message.from}`,
          `To: ${message.to}`,
          `Subject: ${message.subject}`,
          `Date: ${new Date(message.received).toUTCString()}`,
          `Message-ID: <${message.id}@${tenant.domain}>`,
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
          '',
          message.body,
          '',
        ].join('\r\n');
        return { status: 200, headers: { 'content-type': 'message/rfc822' }, bytes: Buffer.from(mime) };
      }
    }
    if (seg[0] === 'drives') {
      const drive = findDrive(tenant, seg[1] ?? '');
      if (!drive) return notFound();
      if (m === 'GET' && is('drives/:d/root/delta')) {
        return delta(
          request,
          tenant,
          (after) => [...drive.items.values()].filter((i) => i.changed > after && !(after < 0 && i.deleted)),
          (i) => itemJson(tenant, drive, i),
        );
      }
      // /drives/{d}/root:/a/b (item by path), and uploads /drives/{d}/items/{parent}:/{name}:/content
      const colon = p.indexOf(':');
      if (colon > 0) {
        const head = p.slice(0, colon).split('/').filter(Boolean);
        const rest = decodeURIComponent(p.slice(colon + 1));
        if (m === 'GET' && head.length === 3 && head[2] === 'root') {
          let current = findItem(drive, 'root');
          for (const name of rest.split('/').filter(Boolean)) current = current && childNamed(drive, current.id, name);
          return current ? { status: 200, json: itemJson(tenant, drive, current) } : notFound();
        }
        const parent = findItem(drive, head[3] ?? '');
        if (!parent) return notFound();
        const name = rest.replace(/^\//, '').replace(/:\/(content|createUploadSession)$/, '');
        const conflict = request.query.get('@microsoft.graph.conflictBehavior') ?? 'replace';
        if (m === 'PUT' && rest.endsWith(':/content'))
          return writeFile(tenant, drive, parent, name, new Uint8Array(request.body), conflict);
        if (m === 'POST' && rest.endsWith(':/createUploadSession')) {
          const body =
            request.body.length > 0
              ? (JSON.parse(request.body.toString('utf8')) as {
                  item?: { '@microsoft.graph.conflictBehavior'?: string };
                })
              : {};
          const id = randomBytes(12).toString('hex');
          sessions.set(id, {
            driveId: drive.id,
            parentId: parent.id,
            name,
            conflict: body.item?.['@microsoft.graph.conflictBehavior'] ?? 'replace',
            size: 0,
            chunks: [],
            received: 0,
          });
          return {
            status: 200,
            json: {
              uploadUrl: `${state.baseUrl}/upload/${tenant.tenantId}/${id}`,
              expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
            },
          };
        }
        return notFound();
      }
      const item = findItem(drive, seg[3] ?? '');
      if (seg[2] !== 'items' || !item) return notFound();
      if (item.forbidden) return graphError(403, 'accessDenied', 'Access denied');
      if (m === 'GET' && is('drives/:d/items/:i')) return { status: 200, json: itemJson(tenant, drive, item) };
      if (m === 'GET' && is('drives/:d/items/:i/children')) {
        return page(
          request,
          [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted),
          (c) => itemJson(tenant, drive, c),
        );
      }
      if (m === 'POST' && is('drives/:d/items/:i/children')) {
        const body = JSON.parse(request.body.toString('utf8') || '{}') as {
          name?: string;
          '@microsoft.graph.conflictBehavior'?: string;
        };
        const name = body.name ?? '';
        const existing = childNamed(drive, item.id, name);
        const conflict = body['@microsoft.graph.conflictBehavior'] ?? 'fail';
        if (existing && conflict === 'fail')
          return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
        if (existing && conflict === 'replace' && existing.kind === 'folder')
          return { status: 200, json: itemJson(tenant, drive, existing) };
        tenant.clock += 1;
        const id = `${drive.id}-u${tenant.nextItem++}`;
        const folder: SimItem = {
          id,
          driveId: drive.id,
          name: existing ? freeName(drive, item.id, name) : name,
          parentId: item.id,
          kind: 'folder',
          versions: [],
          created: new Date().toISOString(),
          changed: tenant.clock,
          deleted: false,
          permissions: [],
        };
        drive.items.set(id, folder);
        return { status: 201, json: itemJson(tenant, drive, folder) };
      }
      if (m === 'GET' && is('drives/:d/items/:i/versions')) return page(request, versionJson(item), (v) => v);
      if (m === 'GET' && is('drives/:d/items/:i/permissions')) {
        const owner = tenant.users.find((u) => u.driveId === drive.id);
        const grants = [
          ...(owner
            ? [
                {
                  id: 'owner',
                  roles: ['owner'],
                  grantedToV2: { user: { id: owner.id, displayName: owner.displayName } },
                },
              ]
            : []),
          ...item.permissions.map((p) => ({
            id: p.id,
            roles: p.roles,
            grantedToV2: {
              user: { id: p.userId, displayName: tenant.users.find((u) => u.id === p.userId)?.displayName ?? '' },
            },
          })),
        ];
        return page(request, grants, (g) => g);
      }
      if (m === 'POST' && is('drives/:d/items/:i/invite')) {
        const body = JSON.parse(request.body.toString('utf8') || '{}') as {
          recipients?: { objectId?: string }[];
          roles?: string[];
        };
        const granted = [];
        for (const r of body.recipients ?? []) {
          if (!r.objectId || !tenant.users.some((u) => u.id === r.objectId))
            return graphError(400, 'invalidRequest', 'Unknown recipient.');
          const permission = {
            id: `p-${randomBytes(6).toString('hex')}`,
            userId: r.objectId,
            roles: body.roles ?? ['read'],
          };
          item.permissions.push(permission);
          granted.push({ id: permission.id, roles: permission.roles });
        }
        return { status: 200, json: { value: granted } };
      }
      if (m === 'GET' && (is('drives/:d/items/:i/content') || is('drives/:d/items/:i/versions/:v/content'))) {
        const version =
          seg.length === 5 ? item.versions[item.versions.length - 1] : item.versions.find((v) => v.id === seg[5]);
        if (!version) return notFound('The version was not found.');
        return {
          status: 200,
          headers: { 'content-type': 'application/octet-stream' },
          bytes: versionBytes(tenant.tenantId, version),
        };
      }
      if (m === 'POST' && is('drives/:d/items/:i/versions/:v/restoreVersion')) {
        const version = item.versions.find((v) => v.id === seg[5]);
        if (!version) return notFound('The version was not found.');
        const next = Number.parseInt(item.versions[item.versions.length - 1]?.id ?? '0', 10) + 1;
        tenant.clock += 1;
        item.versions.push({ ...version, id: `${next}.0`, modified: new Date().toISOString() });
        item.changed = tenant.clock;
        return { status: 204 };
      }
      if (m === 'DELETE' && is('drives/:d/items/:i/versions/:v')) {
        const index = item.versions.findIndex((v) => v.id === seg[5]);
        if (index < 0) return notFound('The version was not found.');
        if (index === item.versions.length - 1)
          return graphError(400, 'invalidRequest', 'The current version cannot be deleted.');
        item.versions.splice(index, 1);
        return { status: 204 };
      }
    }
    return graphError(400, 'BadRequest', `Resource not found for the segment '${seg[0] ?? ''}'.`);
  };

  const upload = (request: SimRequest, tenantId: string, id: string): SimResponse => {
    const session = sessions.get(id);
    if (!session || request.method !== 'PUT') return notFound('The upload session was not found.');
    const range = /bytes (\d+)-(\d+)\/(\d+)/.exec(request.headers['content-range'] ?? '');
    if (!range) return graphError(400, 'invalidRange', 'A Content-Range header is required.');
    const [, start, end, total] = range.map(Number);
    if (start !== session.received || (end ?? 0) - (start ?? 0) + 1 !== request.body.length) {
      return graphError(416, 'invalidRange', 'The fragment does not follow the bytes received.');
    }
    session.chunks.push(request.body);
    session.received += request.body.length;
    if (session.received < (total ?? 0)) {
      return { status: 202, json: { nextExpectedRanges: [`${session.received}-`] } };
    }
    sessions.delete(id);
    const tenant = state.tenant(tenantId);
    const drive = findDrive(tenant, session.driveId);
    const parent = drive && findItem(drive, session.parentId);
    if (!drive || !parent) return notFound();
    return writeFile(
      tenant,
      drive,
      parent,
      session.name,
      new Uint8Array(Buffer.concat(session.chunks)),
      session.conflict,
    );
  };

  async function handle(request: SimRequest): Promise<SimResponse> {
    const seg = request.path.split('/').filter(Boolean);
    if (seg[0] === 'login') {
      const tenantId = seg[1] ?? '';
      if (request.method === 'POST' && seg.slice(2).join('/') === 'oauth2/v2.0/token') return token(request, tenantId);
      if (request.method === 'GET' && seg.slice(2).join('/') === 'v2.0/.well-known/openid-configuration')
        return openid(tenantId);
      return { status: 404, json: { error: 'not_found' } };
    }
    if (seg[0] === 'upload') return upload(request, seg[1] ?? '', seg[2] ?? '');
    if (seg[0] !== 'v1.0') return graphError(404, 'NotFound', 'Unknown path.');
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const session = bearer ? tokens.get(bearer) : undefined;
    if (!session || session.expires < Date.now()) {
      return graphError(401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.');
    }
    state.stats.requests += 1;
    if (throttleEvery > 0 && state.stats.requests % throttleEvery === 0) {
      state.stats.throttled += 1;
      return graphError(429, 'TooManyRequests', 'Too many requests.', { 'retry-after': String(retryAfter) });
    }
    state.stats.inFlight += 1;
    state.stats.maxInFlight = Math.max(state.stats.maxInFlight, state.stats.inFlight);
    try {
      // A turn of the event loop, so that concurrent requests overlap as they do over a network.
      await new Promise((r) => setImmediate(r));
      return await graph(request, state.tenant(session.tenantId));
    } finally {
      state.stats.inFlight -= 1;
    }
  }

  return {
    handle,
    state,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
