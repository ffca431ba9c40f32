/**
 * Microsoft's own clients, as published, against the simulator in the scenarios an integrator runs:
 * MSAL's client credentials and token cache; the Graph client's PageIterator over users, drive
 * children, drive and message delta (across changes, and the 410s of tampered and expired tokens), mail
 * folders and MIME, teams, channels, chats; its default RetryHandler against 429 and 503 with
 * Retry-After; query options with ConsistencyLevel; JSON batching with BatchRequestContent and
 * BatchResponseContent (dependsOn, and requests throttled inside a batch retried by the caller after
 * their Retry-After). Each scenario group runs in a process of its own
 * (test/fixtures/official-clients.mjs) that trusts the simulator's CA by NODE_EXTRA_CA_CERTS alone;
 * each scenario is a named check of what the clients read against the simulated tenant.
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolve, groupsOf, type RunningSimulator, type SimTenant, startSimulator, versionBytes } from '../src/index.js';
import { expireDeltaTokens } from '../src/model.js';
import { CLIENT, SECRET, TENANT, trusting } from './helpers.js';

const script = fileURLToPath(new URL('./fixtures/official-clients.mjs', import.meta.url));

/** What a child reported: each group's own shape, read by its scenarios. */
type Json = Record<string, unknown>;
type Action = (data: Json) => Json | undefined;

interface Failure {
  graphError?: boolean;
  statusCode?: number;
  code?: string;
  message?: string;
  requestId?: string;
  location?: string | null;
  resolved?: unknown;
}
interface Item {
  id: string;
  name: string;
  size?: number;
  eTag?: string;
  folder?: { childCount: number };
  file?: { mimeType: string; hashes: { quickXorHash: string } };
  deleted?: { state: string };
}
interface Listing<T> {
  items: T[];
  requests: string[];
  deltaLink?: string;
}
interface TokenResult {
  first: { accessToken: string; fromCache: boolean; tokenType: string; authority: string; scopes: string[] };
  second: { accessToken: string; fromCache: boolean; tokenType: string };
  expiresOn: string;
  tokenRequests: number;
  discovery: number;
  graphRequests: number;
  graphRead: number[];
}
interface DirectoryResult {
  users: Listing<{ id: string }> & { ids: string[]; upns: string[] };
  queried: { count: number; rows: Json[]; requests: string[] };
  withoutEventual: Failure;
  count: { type: string; value: unknown };
  countWithout: Failure;
  memberCount: { group: string; type: string; value: unknown };
  memberCountWithout: Failure;
}
interface DriveChildrenResult {
  site: Listing<Item>;
  user: Listing<Item>;
  folder: Listing<Item>;
  content: { id: string; size: number; sha256: string; hops: { path: string; status: number }[] };
}
interface DriveDeltaResult {
  full: { ids: string[]; deltaLink: string; requests: string[] };
  uploaded: Item;
  replaced: Item;
  next: Listing<Item>;
  invalid: Failure;
  expired: Failure;
}
interface MailMessage {
  id: string;
  subject: string;
  parentFolderId: string;
  from: { emailAddress: { name: string; address: string } };
}
interface MailResult {
  inbox: Json;
  folders: Listing<{ id: string; displayName: string }>;
  full: Listing<MailMessage> & { deltaLink: string };
  next: { items: MailMessage[]; deltaLink: string };
  mime: { type: string; text: string; id: string };
  streamed: { text: string; id: string };
  text: string;
  expired: Failure;
}
interface TeamsMessage {
  id: string;
  replyToId: string | null;
  from: string;
  body: string;
  channelIdentity: { teamId: string; channelId: string } | null;
}
interface TeamsResult {
  groups: Listing<{ id: string; displayName: string }>;
  teams: { team: { id: string; displayName: string }; channels: { id: string; displayName: string }[] }[];
  teamId: string;
  channelId: string;
  messages: Listing<TeamsMessage>;
  replies: Listing<TeamsMessage>;
}
interface ChatsResult {
  ids: string[];
  requests: string[];
  chats: {
    chat: { id: string; chatType: string; topic: string | null; tenantId: string };
    members: { '@odata.type': string; userId: string; displayName: string; roles: string[] }[];
    messages: { id: string; from: string; body: string }[];
    messageRequests: number;
  }[];
}
interface ThrottleRun {
  set: { status: number; setting: Json };
  answers: { id: string; displayName: string }[];
  ms: number;
  attempts: { status: number; retryAfter?: string; retryAttempt?: string; at: number }[];
}
interface ThrottleResult {
  runs: Record<'429' | '503', ThrottleRun>;
  off: { status: number; setting: Json };
}
interface BatchAnswer {
  status: number;
  type: string;
  retryAfter: string | null;
  body: unknown;
}
interface BatchRound {
  order: string[];
  read: Record<string, BatchAnswer>;
  trips: { method: string; path: string; status: number; at: number }[];
}
interface BatchResult {
  reads: BatchRound;
  afterSuccess: BatchRound;
  afterFailure: BatchRound;
  throttle: {
    set: { status: number; setting: Json };
    rounds: { statuses: Record<string, number>; retryAfter: string[]; trips: BatchRound['trips'] }[];
    users: Record<string, string>;
    off: { status: number; setting: Json };
  };
}

interface Scenario {
  name: string;
  group: string;
  check(result: Json): void | Promise<void>;
}

describe("Microsoft's published clients in an integrator's scenarios", () => {
  let sim: RunningSimulator;
  let tenant: SimTenant;
  const outcome: { name: string; passed: boolean; detail?: string }[] = [];
  /** What the test did to the tenant while a child ran, for the scenarios to compare against. */
  const notes = {
    drive: { before: 0, liveBefore: [] as string[], replaceId: '' },
    mail: { before: 0 },
    throttledBefore: 0,
  };

  beforeAll(async () => {
    // A data directory of its own: nothing but NODE_EXTRA_CA_CERTS makes the children trust its CA.
    sim = await startSimulator({
      dataDir: mkdtempSync(join(tmpdir(), 'm365-simulator-official-')),
      tenants: [
        {
          tenantId: TENANT,
          clientId: CLIENT,
          clientSecret: SECRET,
          size: { users: 5, sites: 1, teams: 3, chats: 3, filesPerDrive: 12 },
        },
      ],
      // Small pages, so that every list the clients read takes several requests.
      pageSize: 2,
      throttle: { every: 0 },
      validate: true,
    });
    tenant = sim.state.tenant(TENANT);
  });
  afterAll(async () => {
    await sim?.close();
  });

  /** Runs one scenario group in a child process, answering what it asks of the tenant. */
  function runGroup(group: string, args: Json, actions: Record<string, Action> = {}): Promise<Json> {
    return new Promise((resolve, reject) => {
      const child = fork(
        script,
        [
          JSON.stringify({
            origin: sim.url,
            tenantId: TENANT,
            clientId: CLIENT,
            clientSecret: SECRET,
            controlKey: sim.controlKey,
            group,
            args,
          }),
        ],
        {
          env: { ...process.env, NODE_EXTRA_CA_CERTS: sim.caCertificatePath },
          execArgv: [],
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
          timeout: 30_000,
        },
      );
      let output = '';
      let result: Json | undefined;
      let error: string | undefined;
      const keep = (chunk: Buffer) => {
        output += chunk.toString('utf8');
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.on('message', (message: { ask?: string; id?: number; data?: Json; result?: Json; error?: string }) => {
        if (message.ask !== undefined) {
          const action = actions[message.ask];
          if (!action) error = `the child asked for "${message.ask}", which this group does not offer`;
          child.send({ id: message.id, data: action?.(message.data ?? {}) ?? {} });
        } else if (message.result) result = message.result;
        else if (message.error) error = message.error;
      });
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        if (result && !error) resolve(result);
        else reject(new Error(`group ${group}: ${error ?? `exit ${code ?? signal}`}\n${output}`));
      });
    });
  }

  const drive = (id: string) => {
    const d = tenant.drives.get(id);
    if (!d) throw new Error(`no drive ${id}`);
    return d;
  };
  const user0 = () => tenant.users[0] ?? expect.unreachable('a user');
  const rootOf = (driveId: string) => `${driveId}-root`;
  const childrenOf = (driveId: string, parentId: string) =>
    [...drive(driveId).items.values()].filter((i) => i.parentId === parentId && !i.deleted);
  const inboxOf = (u: SimTenant['users'][number]) =>
    u.folders.find((f) => f.wellKnownName === 'inbox') ?? expect.unreachable('an inbox');
  const subjectOf = (mime: string) => /^Subject: (.*)$/m.exec(mime.split(/\r?\n\r?\n/)[0] ?? '')?.[1]?.trim();

  const scenarios: Scenario[] = [
    {
      name: 'MSAL client credentials: a JWT for Graph with tid, appid, aud and roles, signed by the JWKS key',
      group: 'token',
      async check(result) {
        const r = result as unknown as TokenResult;
        expect(r.first).toMatchObject({
          fromCache: false,
          tokenType: 'Bearer',
          authority: `${sim.authorityHost}/${TENANT}/`,
          scopes: ['https://graph.microsoft.com/.default'],
        });
        const answer = await fetch(`${sim.authorityHost}/${TENANT}/discovery/v2.0/keys`, {
          dispatcher: trusting(sim.caCertificate),
        } as RequestInit);
        const keys = createLocalJWKSet((await answer.json()) as JSONWebKeySet);
        const { payload } = await jwtVerify(r.first.accessToken, keys, {
          audience: 'https://graph.microsoft.com',
          issuer: `https://sts.windows.net/${TENANT}/`,
        });
        expect(payload).toMatchObject({ tid: TENANT, appid: CLIENT, idtyp: 'app' });
        expect([...((payload.roles as string[]) ?? [])].sort()).toEqual(sim.state.consent(TENANT).sort());
        // MSAL's expiry is its clock plus expires_in: the token's exp, give or take the seconds of the round trip.
        expect(Math.abs(Date.parse(r.expiresOn) - (payload.exp ?? 0) * 1000)).toBeLessThanOrEqual(5_000);
      },
    },
    {
      name: "MSAL's token cache: the second acquireTokenByClientCredential and every Graph request are answered without a new token request",
      group: 'token',
      check(result) {
        const r = result as unknown as TokenResult;
        expect(r.second).toEqual({ accessToken: r.first.accessToken, fromCache: true, tokenType: 'Bearer' });
        expect(r.tokenRequests).toBe(1);
        expect(r.discovery).toBe(1);
        expect(r.graphRequests).toBe(2);
        expect(r.graphRead).toEqual([1, 1]);
      },
    },
    {
      name: 'PageIterator over /users: every user in order, over three pages of two',
      group: 'directory',
      check(result) {
        const { users } = result as unknown as DirectoryResult;
        expect(users.ids).toEqual(tenant.users.map((u) => u.id));
        expect(users.upns).toEqual(tenant.users.map((u) => u.upn));
        expect(users.requests).toHaveLength(Math.ceil(tenant.users.length / 2));
        for (const next of users.requests.slice(1)) expect(next).toContain('$skiptoken=');
      },
    },
    {
      name: 'select/filter/orderby/count/top with the ConsistencyLevel: eventual header, paged with it',
      group: 'directory',
      check(result) {
        const { queried } = result as unknown as DirectoryResult;
        const expected = tenant.users
          .filter((u) => u.hasMailbox)
          .sort((a, b) => b.displayName.localeCompare(a.displayName));
        expect(queried.count).toBe(expected.length);
        expect(queried.rows).toEqual(expected.map((u) => ({ id: u.id, displayName: u.displayName, mail: u.upn })));
        expect(queried.requests).toHaveLength(Math.ceil(expected.length / 2));
      },
    },
    {
      name: 'an advanced query without ConsistencyLevel throws GraphError 400 Request_UnsupportedQuery; /users/$count answers text',
      group: 'directory',
      check(result) {
        const r = result as unknown as DirectoryResult;
        expect(r.withoutEventual).toMatchObject({
          graphError: true,
          statusCode: 400,
          code: 'Request_UnsupportedQuery',
          requestId: expect.any(String),
        });
        expect(r.count).toEqual({ type: 'string', value: String(tenant.users.length) });
        expect(r.countWithout).toMatchObject({ graphError: true, statusCode: 400, code: 'Request_BadRequest' });
        const group = groupsOf(tenant).find((g) => g.id === r.memberCount.group) ?? expect.unreachable('a group');
        expect(r.memberCount).toEqual({ group: group.id, type: 'string', value: String(group.members.length) });
        expect(r.memberCountWithout).toMatchObject({ graphError: true, statusCode: 400, code: 'Request_BadRequest' });
      },
    },
    {
      name: "PageIterator over /drives/{id}/root/children (a site's library)",
      group: 'driveChildren',
      check(result) {
        const { site } = result as unknown as DriveChildrenResult;
        const driveId = tenant.sites[0]?.driveIds[0] ?? '';
        const expected = childrenOf(driveId, rootOf(driveId));
        expect(site.items.map((i) => [i.id, i.name])).toEqual(expected.map((i) => [i.id, i.name]));
        for (const [n, i] of site.items.entries()) {
          const kind = expected[n]?.kind;
          expect(Boolean(i.folder), i.name).toBe(kind === 'folder');
          expect(Boolean(i.file), i.name).toBe(kind === 'file');
        }
        expect(site.requests).toHaveLength(Math.ceil(expected.length / 2));
        expect(site.requests.length).toBeGreaterThan(1);
      },
    },
    {
      name: "PageIterator over /users/{id}/drive/root/children and a folder's children with $top",
      group: 'driveChildren',
      check(result) {
        const { user, folder } = result as unknown as DriveChildrenResult;
        const driveId = user0().driveId;
        const expected = childrenOf(driveId, rootOf(driveId));
        expect(user.items.map((i) => i.id)).toEqual(expected.map((i) => i.id));
        expect(user.items.map((i) => i.size)).toEqual(
          expected.map((i) => (i.kind === 'file' ? i.versions[i.versions.length - 1]?.size : expect.any(Number))),
        );
        expect(user.requests).toHaveLength(Math.ceil(expected.length / 2));
        const inFolder = childrenOf(driveId, `${driveId}-d0`);
        expect(folder.items.map((i) => i.id)).toEqual(inFolder.map((i) => i.id));
        expect(folder.requests).toHaveLength(inFolder.length);
        for (const next of folder.requests.slice(1)) expect(next).toContain('$top=1');
      },
    },
    {
      name: "a file's /content: 302 to its download URL, followed by the Graph client's RedirectHandler, read with getStream",
      group: 'driveChildren',
      check(result) {
        const { content } = result as unknown as DriveChildrenResult;
        const item = drive(user0().driveId).items.get(content.id);
        const latest = item?.versions[item.versions.length - 1] ?? expect.unreachable('a version');
        const bytes = versionBytes(TENANT, latest);
        expect(content.size).toBe(bytes.length);
        expect(content.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        expect(content.hops).toEqual([
          { path: 'v1.0', status: 302 },
          { path: 'download', status: 200 },
        ]);
      },
    },
    {
      name: "drive delta: PageIterator's full round returns every live item and ends in a deltaLink",
      group: 'driveDelta',
      check(result) {
        const { full } = result as unknown as DriveDeltaResult;
        expect(new Set(full.ids)).toEqual(new Set(notes.drive.liveBefore));
        expect(full.ids).toHaveLength(notes.drive.liveBefore.length);
        expect(full.requests).toHaveLength(Math.ceil(notes.drive.liveBefore.length / 2));
        expect(full.deltaLink.startsWith(`${sim.graphBaseUrl}/drives/${user0().driveId}/root/delta?token=`)).toBe(true);
      },
    },
    {
      name: 'drive delta after a change (evolve, an upload and a replace through Graph): only the changed items',
      group: 'driveDelta',
      check(result) {
        const { next, uploaded, replaced } = result as unknown as DriveDeltaResult;
        const changed = [...drive(user0().driveId).items.values()].filter((i) => i.changed > notes.drive.before);
        const ids = next.items.map((i) => i.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(ids)).toEqual(new Set(changed.map((i) => i.id)));
        expect(ids).toContain(uploaded.id);
        expect(replaced.id).toBe(notes.drive.replaceId);
        expect(ids).toContain(replaced.id);
        expect(next.items.find((i) => i.id === uploaded.id)).toMatchObject({
          name: 'scenario-upload.txt',
          size: uploaded.size,
          file: { mimeType: 'text/plain' },
        });
        const deleted = changed.filter((i) => i.deleted);
        const created = changed.filter((i) => i.id !== uploaded.id && !notes.drive.liveBefore.includes(i.id));
        expect(deleted.length, 'the change deletes a file of this drive').toBeGreaterThan(0);
        expect(created.length, 'the change adds a file to this drive').toBeGreaterThan(0);
        for (const d of deleted) expect(next.items.find((i) => i.id === d.id)).toMatchObject({ deleted: {} });
        expect(next.items.filter((i) => i.deleted).length).toBe(deleted.length);
        expect(next.deltaLink).toBeDefined();
      },
    },
    {
      name: 'drive delta: a tampered token throws GraphError 410 resyncRequired',
      group: 'driveDelta',
      check(result) {
        const { invalid } = result as unknown as DriveDeltaResult;
        expect(invalid).toMatchObject({
          graphError: true,
          statusCode: 410,
          code: 'resyncRequired',
          location: `${sim.graphBaseUrl}/drives/${user0().driveId}/root/delta`,
        });
      },
    },
    {
      name: 'drive delta: an expired token throws GraphError 410 resyncRequired',
      group: 'driveDelta',
      check(result) {
        const { expired } = result as unknown as DriveDeltaResult;
        expect(expired).toMatchObject({ graphError: true, statusCode: 410, code: 'resyncRequired' });
      },
    },
    {
      name: "mail: the well-known inbox and the mailbox's folders, paged",
      group: 'mail',
      check(result) {
        const { inbox, folders } = result as unknown as MailResult;
        const u = user0();
        const folder = inboxOf(u);
        const messages = [...u.messages.values()].filter((m) => m.folderId === folder.id);
        expect(inbox).toMatchObject({
          id: folder.id,
          displayName: 'Inbox',
          parentFolderId: u.rootFolderId,
          totalItemCount: messages.length - 1, // before the new mail
          childFolderCount: u.folders.filter((f) => f.parentId === folder.id).length,
        });
        const top = u.folders.filter((f) => f.parentId === null);
        expect(folders.items).toEqual(top.map((f) => ({ id: f.id, displayName: f.name })));
        expect(folders.requests).toHaveLength(Math.ceil(top.length / 2));
      },
    },
    {
      name: 'messages delta: a full round to a deltaLink, then only the new message',
      group: 'mail',
      check(result) {
        const { full, next } = result as unknown as MailResult;
        const u = user0();
        const inbox = inboxOf(u);
        const all = [...u.messages.values()].filter((m) => m.folderId === inbox.id);
        const old = all.filter((m) => m.changed <= notes.mail.before);
        const fresh = all.filter((m) => m.changed > notes.mail.before);
        expect(full.items.map((m) => m.id)).toEqual(old.map((m) => m.id));
        expect(full.items.map((m) => m.subject)).toEqual(old.map((m) => m.subject));
        expect(full.items.every((m) => m.parentFolderId === inbox.id)).toBe(true);
        expect(full.requests).toHaveLength(Math.ceil(old.length / 2));
        expect(full.deltaLink).toContain('$deltatoken=');
        expect(fresh).toHaveLength(1);
        expect(next.items.map((m) => [m.id, m.subject])).toEqual(fresh.map((m) => [m.id, m.subject]));
      },
    },
    {
      name: "a message's MIME by $value: get() gives text, as Graph answers text/plain; getStream() and TEXT too; Subject matches",
      group: 'mail',
      check(result) {
        const { mime, streamed, text } = result as unknown as MailResult;
        const u = user0();
        expect(mime.type).toBe('string');
        expect(subjectOf(mime.text)).toBe(u.messages.get(mime.id)?.subject);
        expect(subjectOf(streamed.text)).toBe(u.messages.get(streamed.id)?.subject);
        expect(mime.text).toMatch(/^MIME-Version: 1\.0$/m);
        expect(text).toBe(streamed.text);
      },
    },
    {
      name: 'messages delta: an expired token throws GraphError 410 syncStateNotFound',
      group: 'mail',
      check(result) {
        const { expired } = result as unknown as MailResult;
        expect(expired).toMatchObject({ graphError: true, statusCode: 410, code: 'syncStateNotFound' });
      },
    },
    {
      name: 'teams: /groups filtered to teams (lambda on resourceProvisioningOptions), each /teams/{id} and its channels',
      group: 'teams',
      check(result) {
        const { groups, teams } = result as unknown as TeamsResult;
        const expected = groupsOf(tenant).filter((g) => g.team);
        expect(groups.items).toEqual(expected.map((g) => ({ id: g.id, displayName: g.displayName })));
        expect(groups.requests).toHaveLength(Math.ceil(expected.length / 2));
        expect(teams.map((t) => t.team)).toEqual(tenant.teams.map((t) => ({ id: t.id, displayName: t.name })));
        expect(teams.map((t) => t.channels.map((c) => [c.id, c.displayName]))).toEqual(
          tenant.teams.map((t) => t.channels.map((c) => [c.id, c.name])),
        );
      },
    },
    {
      name: "teams: a channel's messages (paged) and a message's replies",
      group: 'teams',
      check(result) {
        const r = result as unknown as TeamsResult;
        const channel = tenant.teams[0]?.channels[0] ?? expect.unreachable('a channel');
        const top = channel.messages.filter((m) => m.replyTo === null);
        expect(r.messages.items.map((m) => [m.id, m.from, m.body, m.replyToId])).toEqual(
          top.map((m) => [m.id, m.from, `<p>${m.body}</p>`, null]),
        );
        expect(r.messages.items.every((m) => m.channelIdentity?.channelId === channel.id)).toBe(true);
        expect(r.messages.requests).toHaveLength(Math.ceil(top.length / 2));
        const replies = channel.messages.filter((m) => m.replyTo === top[0]?.id);
        expect(replies.length).toBeGreaterThan(0);
        expect(r.replies.items.map((m) => [m.id, m.replyToId, m.from])).toEqual(
          replies.map((m) => [m.id, m.replyTo, m.from]),
        );
      },
    },
    {
      name: "chats: a user's chats (paged), each chat and its members",
      group: 'chats',
      check(result) {
        const r = result as unknown as ChatsResult;
        const u = user0();
        const expected = tenant.chats.filter((c) => c.memberIds.includes(u.id));
        expect(r.ids).toEqual(expected.map((c) => c.id));
        expect(r.requests).toHaveLength(Math.max(1, Math.ceil(expected.length / 2)));
        expect(r.chats.map((c) => c.chat)).toEqual(
          expected.map((c) => ({ id: c.id, chatType: c.chatType, topic: c.topic, tenantId: TENANT })),
        );
        expect(r.chats.map((c) => c.members.map((m) => m.userId))).toEqual(expected.map((c) => c.memberIds));
        for (const c of r.chats) {
          for (const m of c.members) {
            expect(m['@odata.type']).toBe('#microsoft.graph.aadUserConversationMember');
            expect(m.displayName).toBe(tenant.users.find((x) => x.id === m.userId)?.displayName);
          }
        }
      },
    },
    {
      name: "chats: every chat's messages, paged",
      group: 'chats',
      check(result) {
        const r = result as unknown as ChatsResult;
        const expected = tenant.chats.filter((c) => c.memberIds.includes(user0().id));
        expect(r.chats.map((c) => c.messages.map((m) => [m.id, m.from, m.body]))).toEqual(
          expected.map((c) => c.messages.map((m) => [m.id, m.from, `<p>${m.body}</p>`])),
        );
        expect(r.chats.map((c) => c.messageRequests)).toEqual(expected.map((c) => Math.ceil(c.messages.length / 2)));
      },
    },
    {
      name: '429 with Retry-After: 1, set through /_simulator/throttle: the default RetryHandler waits, retries and the call succeeds',
      group: 'throttle',
      check(result) {
        const run = (result as unknown as ThrottleResult).runs['429'];
        expectRetried(run, 429);
      },
    },
    {
      name: '503 with Retry-After: 1: the default RetryHandler retries it too; the simulator counted both refusals',
      group: 'throttle',
      check(result) {
        const r = result as unknown as ThrottleResult;
        expectRetried(r.runs['503'], 503);
        expect(sim.state.stats.throttled - notes.throttledBefore).toBe(2);
        expect(r.off).toEqual({ status: 200, setting: { every: 0, status: 429, retryAfter: 0 } });
        expect(sim.state.throttle.every).toBe(0);
      },
    },
    {
      name: "JSON batching with the Graph client's BatchRequestContent: user reads and group member counts in one round trip, read back by BatchResponseContent",
      group: 'batch',
      check(result) {
        const { reads } = result as unknown as BatchResult;
        expect(reads.trips).toEqual([{ method: 'POST', path: '/v1.0/$batch', status: 200, at: expect.any(Number) }]);
        const users = tenant.users.slice(0, 5);
        const groups = groupsOf(tenant);
        expect(reads.order).toEqual([...users.map((_u, n) => `user-${n}`), ...groups.map((_g, n) => `count-${n}`)]);
        for (const [n, u] of users.entries()) {
          expect(reads.read[`user-${n}`]).toMatchObject({
            status: 200,
            type: expect.stringMatching(/^application\/json/),
            body: { id: u.id, userPrincipalName: u.upn, displayName: u.displayName },
          });
        }
        for (const [n, g] of groups.entries()) {
          expect(reads.read[`count-${n}`]).toMatchObject({
            status: 200,
            type: 'text/plain',
            body: String(g.members.length),
          });
        }
      },
    },
    {
      name: 'JSON batching with dependsOn: requests after one that succeeded run; after one that failed (404) they answer 424',
      group: 'batch',
      check(result) {
        const { afterSuccess, afterFailure } = result as unknown as BatchResult;
        const users = tenant.users.slice(0, 5);
        expect(afterSuccess.read.organization).toMatchObject({ status: 200, body: { value: [{ id: TENANT }] } });
        expect(users.map((_u, n) => afterSuccess.read[`user-${n}`]?.status)).toEqual(users.map(() => 200));
        expect(afterFailure.read.missing).toMatchObject({
          status: 404,
          body: { error: { code: 'Request_ResourceNotFound' } },
        });
        for (const [n] of users.entries()) {
          expect(afterFailure.read[`user-${n}`]).toMatchObject({
            status: 424,
            type: expect.stringMatching(/^application\/json/),
            body: { error: { code: 'FailedDependency' } },
          });
        }
        expect([afterSuccess.trips.length, afterFailure.trips.length]).toEqual([1, 1]);
      },
    },
    {
      name: 'a request throttled inside a batch answers 429 with its own Retry-After while the others succeed; the caller waits and sends just it again',
      group: 'batch',
      check(result) {
        const { throttle } = result as unknown as BatchResult;
        const users = tenant.users.slice(0, 5);
        expect(throttle.set).toMatchObject({ status: 200, setting: { every: 3, status: 429, retryAfter: 1 } });
        // Every third request on /users/… of five in the first batch: the third and the sixth (retried) are refused.
        expect(throttle.rounds.map((r) => r.statuses)).toEqual([
          { 'user-0': 200, 'user-1': 200, 'user-2': 429, 'user-3': 200, 'user-4': 200 },
          { 'user-2': 429 },
          { 'user-2': 200 },
        ]);
        expect(throttle.rounds.map((r) => r.retryAfter)).toEqual([['1'], ['1'], []]);
        expect(throttle.rounds.map((r) => r.trips.length)).toEqual([1, 1, 1]);
        for (const n of [1, 2]) {
          const waited = (throttle.rounds[n]?.trips[0]?.at ?? 0) - (throttle.rounds[n - 1]?.trips[0]?.at ?? 0);
          expect(waited).toBeGreaterThanOrEqual(950);
        }
        expect(throttle.users).toEqual(Object.fromEntries(users.map((u, n) => [`user-${n}`, u.id])));
        expect(throttle.off).toEqual({ status: 200, setting: { every: 0, status: 429, retryAfter: 0 } });
      },
    },
    {
      name: "every JSON answer the clients read matched Graph v1.0's published metadata",
      group: 'all',
      check() {
        const v = sim.state.validation ?? expect.unreachable('validation on');
        expect(v.answers).toBeGreaterThan(50);
        expect(v.mismatches).toEqual([]);
      },
    },
  ];

  function expectRetried(run: ThrottleRun, status: number) {
    const site = tenant.sites[0] ?? expect.unreachable('a site');
    expect(run.set).toMatchObject({ status: 200, setting: { every: 2, status, retryAfter: 1 } });
    expect(run.answers).toEqual([
      { id: site.id, displayName: site.name, webUrl: site.webUrl },
      { id: site.id, displayName: site.name, webUrl: site.webUrl },
    ]);
    expect(run.attempts.map((a) => [a.status, a.retryAttempt])).toEqual([
      [200, undefined],
      [status, undefined],
      [200, '1'],
    ]);
    expect(run.attempts[1]?.retryAfter).toBe('1');
    const waited = (run.attempts[2]?.at ?? 0) - (run.attempts[1]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(950);
  }

  it('pass every scenario', { timeout: 60_000 }, async () => {
    const u = user0();
    const userDrive = u.driveId;
    const groups: Record<string, { args: Json; actions?: Record<string, Action> }> = {
      token: { args: {} },
      directory: { args: { domain: tenant.domain } },
      driveChildren: {
        args: { siteDriveId: tenant.sites[0]?.driveIds[0], userId: u.id, folderId: `${userDrive}-d0` },
      },
      driveDelta: {
        args: { driveId: userDrive },
        actions: {
          'change-drive': () => {
            const d = drive(userDrive);
            notes.drive.before = tenant.clock;
            notes.drive.liveBefore = [...d.items.values()].filter((i) => !i.deleted).map((i) => i.id);
            // A file per drive, and edits and deletions across the tenant, as colleagues make them.
            evolve(tenant, { newFiles: tenant.drives.size, editedFiles: 12, deletedFiles: 24 });
            const untouched = childrenOf(userDrive, rootOf(userDrive)).find(
              (i) => i.kind === 'file' && i.changed <= notes.drive.before,
            );
            notes.drive.replaceId = untouched?.id ?? '';
            return { replaceName: untouched?.name };
          },
          'expire-delta-tokens': () => {
            expireDeltaTokens(tenant);
            return undefined;
          },
        },
      },
      mail: {
        args: { userId: u.id },
        actions: {
          'new-mail': () => {
            notes.mail.before = tenant.clock;
            evolve(tenant, { newMessages: tenant.users.filter((x) => x.hasMailbox).length });
            return undefined;
          },
          'expire-delta-tokens': () => {
            expireDeltaTokens(tenant);
            return undefined;
          },
        },
      },
      teams: { args: {} },
      chats: { args: { userId: u.id } },
      throttle: { args: { siteId: tenant.sites[0]?.id } },
      batch: {
        args: {
          userIds: tenant.users.slice(0, 5).map((x) => x.id),
          groupIds: groupsOf(tenant).map((g) => g.id),
          missingGroupId: '00000000-0000-4000-8000-00000000dead',
        },
      },
    };
    notes.throttledBefore = sim.state.stats.throttled;

    /** Runs a scenario's check, recording whether it passed. */
    const judge = async (scenario: Scenario, result: Json | Error | undefined) => {
      try {
        if (result instanceof Error) throw result;
        if (!result) throw new Error(`no group ${scenario.group}`);
        await scenario.check(result);
        outcome.push({ name: scenario.name, passed: true });
      } catch (error) {
        outcome.push({ name: scenario.name, passed: false, detail: (error as Error).message });
      }
    };
    // One group after another, each checked before the next changes the tenant or its throttling.
    for (const [group, { args, actions }] of Object.entries(groups)) {
      const result = await runGroup(group, args, actions).catch((e: Error) => e);
      for (const scenario of scenarios.filter((s) => s.group === group)) await judge(scenario, result);
    }
    for (const scenario of scenarios.filter((s) => s.group === 'all')) await judge(scenario, {});
    const passed = outcome.filter((o) => o.passed).length;
    const lines = outcome.map((o, n) => `  ${o.passed ? 'pass' : 'FAIL'} ${n + 1}. ${o.name}`);
    console.log(`Official-client scenarios: ${passed} of ${outcome.length} passed\n${lines.join('\n')}`);
    expect(outcome.filter((o) => !o.passed)).toEqual([]);
    expect(passed).toBe(scenarios.length);
  });
});
