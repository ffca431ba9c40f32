/**
 * Microsoft's own clients, as published, against the simulator in the scenarios an integrator runs:
 * MSAL's client credentials and token cache; the Graph client's PageIterator over users, drive
 * children, drive and message delta (across changes, and the 410s of tampered and expired tokens), mail
 * folders and MIME, teams, channels, chats; its default RetryHandler against 429 and 503 with
 * Retry-After; query options with ConsistencyLevel; `$search` on messages, uploads by path into
 * folders and GET by path; a user's sign-in by authorization code, MSAL's silent token from its cache and by the
 * refresh token (forced, and once expired), and the Graph client on /me with the delegated token; a
 * site's list items with `$expand=fields` through PageIterator, their versions, list item delta across a
 * change and its 410, a restore's list writes, pages with their canvas, one created and published; JSON batching with BatchRequestContent and
 * BatchResponseContent (dependsOn, and requests throttled inside a batch retried by the caller after
 * their Retry-After). The Kiota-based Graph SDK (@microsoft/msgraph-sdk): message and drive delta
 * as it calls them (`delta()`) across changes, `$search`, an upload by path. Each scenario group runs in a process of its own
 * (test/fixtures/official-clients.mjs) that trusts the simulator's CA by NODE_EXTRA_CA_CERTS alone;
 * each scenario is a named check of what the clients read against the simulated tenant. Python's msal
 * (Debian's python3-msal) signs in and refreshes too, where it is installed.
 */
import { execFile, execFileSync, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evolve,
  groupsOf,
  type RunningSimulator,
  type SimListItemVersion,
  type SimMessage,
  type SimTenant,
  startSimulator,
  versionBytes,
} from '../src/index.js';
import { expireDeltaTokens } from '../src/model.js';
import { CLIENT, SECRET, SIGN_IN_APP, TENANT, trusting } from './helpers.js';

const script = fileURLToPath(new URL('./fixtures/official-clients.mjs', import.meta.url));
const pythonScript = fileURLToPath(new URL('./fixtures/official-clients-msal.py', import.meta.url));
/** The password the simulated users sign in with on the simulator's sign-in page. */
const USER_PASSWORD = 'Integrator-Passw0rd!';
const SIGN_IN_REDIRECT = SIGN_IN_APP.redirectUris[0] ?? '';

/**
 * A Python whose `msal` imports (Debian's python3-msal installs it for the system's Python, which
 * a pyenv `python3` on the PATH does not see), or why there is none.
 */
function pythonWithMsal(): { python: string } | { reason: string } {
  const tried: string[] = [];
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(python, ['-c', 'import msal, requests'], { stdio: 'pipe' });
      return { python };
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
      tried.push(`${python}: ${stderr.split('\n').pop()}`);
    }
  }
  return { reason: `no Python with msal and requests (${tried.join('; ')}); Debian's python3-msal provides them` };
}

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

interface KiotaMessage {
  id: string;
  subject: string;
  parentFolderId: string;
  sentDateTime: string;
}
interface KiotaMailResult {
  full: { items: KiotaMessage[]; deltaLink: string; requests: string[] };
  next: { items: KiotaMessage[]; deltaLink: string; requests: string[] };
  searched: { items: KiotaMessage[]; requests: string[] };
  inInbox: { items: KiotaMessage[] };
  refused: { statusCode?: number; code?: string; message?: string; resolved?: unknown };
}
interface KiotaItem {
  id: string;
  name: string;
  size?: number;
  parentId?: string;
  deleted: boolean;
  folder: boolean;
}
interface KiotaDriveResult {
  full: { ids: string[]; deltaLink: string; requests: string[] };
  uploaded: KiotaItem;
  replaced: KiotaItem;
  read: KiotaItem;
  uploadPaths: { method: string; path: string; status: number }[];
  next: { items: KiotaItem[]; deltaLink: string; requests: string[] };
}
interface PathItem {
  id: string;
  name: string;
  size: number;
  parentReference: { id: string; path: string; driveId: string };
}
interface SearchAndPathsResult {
  searched: { items: { id: string; parentFolderId: string; sentDateTime: string }[]; requests: string[] };
  inInbox: { items: { id: string; parentFolderId: string; sentDateTime: string }[] };
  refused: Failure;
  created: PathItem;
  replaced: PathItem;
  statuses: number[];
  children: PathItem[];
  childrenByPath: PathItem[];
  byPath: PathItem;
  content: string;
}
interface MsalTokenSummary {
  accessToken: string;
  fromCache: boolean;
  scopes: string[];
  tokenType: string;
  idTokenClaims: Json;
}
interface GrantCounts {
  grants: Record<'client_credentials' | 'authorization_code' | 'refresh_token', number>;
  posts: number;
}
interface DelegatedResult {
  signedIn: MsalTokenSummary & { homeAccountId: string };
  cached: MsalTokenSummary;
  forced: MsalTokenSummary;
  expired: MsalTokenSummary;
  counts: Record<'before' | 'afterCached' | 'afterForced' | 'afterExpired', GrantCounts>;
  me: { id: string; userPrincipalName: string; displayName: string };
  messages: { items: { id: string; subject: string }[]; requests: string[] };
  otherUser: Failure;
  appMe: Failure;
}
interface PythonRefreshResult {
  signedIn: { scope: string; oid: string; hasRefreshToken: boolean; accessToken: string };
  accounts: string[];
  cached: { accessToken: string };
  forced: { accessToken: string; scope: string; hasRefreshToken: boolean };
  me: { id: string; userPrincipalName: string };
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
    kiotaMail: { before: 0 },
    kiotaDrive: { before: 0, liveBefore: [] as string[] },
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
      // A web app users sign in to, for the delegated scenarios.
      signInApps: [SIGN_IN_APP],
      userPassword: USER_PASSWORD,
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
  const user1 = () => tenant.users[1] ?? expect.unreachable('a second user');
  /** Whether a message has the word in from (address or name), subject or body: Outlook's free-text search. */
  const mentions = (m: SimMessage, word: string) => {
    const sender = tenant.users.find((u) => u.upn === m.from)?.displayName ?? '';
    return [m.from, sender, m.subject, m.body].some((text) =>
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .includes(word),
    );
  };
  const newestSentFirst = (rows: { sentDateTime: string }[]) =>
    rows.every((r, i) => i === 0 || (rows[i - 1]?.sentDateTime ?? '') >= r.sentDateTime);
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
      name: 'Kiota SDK: messages.delta.get() sends …/messages/delta(), and its PageIterator reads every inbox message across pages to a deltaLink',
      group: 'kiotaMail',
      check(result) {
        const { full } = result as unknown as KiotaMailResult;
        const u = user1();
        const inbox = inboxOf(u);
        const old = [...u.messages.values()].filter(
          (m) => m.folderId === inbox.id && m.changed <= notes.kiotaMail.before,
        );
        expect(old.length).toBeGreaterThan(2);
        expect(full.items.map((m) => [m.id, m.subject, m.parentFolderId])).toEqual(
          old.map((m) => [m.id, m.subject, inbox.id]),
        );
        expect(full.requests).toHaveLength(Math.ceil(old.length / 2));
        expect(new URL(full.requests[0] ?? '').pathname).toBe(`/v1.0/users/${u.id}/mailFolders/inbox/messages/delta()`);
        for (const next of full.requests.slice(1)) expect(next).toContain('$skiptoken=');
        expect(full.deltaLink).toContain('/messages/delta?$deltatoken=');
      },
    },
    {
      name: 'Kiota SDK: delta.withUrl(deltaLink) after new mail gives only the new message',
      group: 'kiotaMail',
      check(result) {
        const { next } = result as unknown as KiotaMailResult;
        const u = user1();
        const inbox = inboxOf(u);
        const fresh = [...u.messages.values()].filter(
          (m) => m.folderId === inbox.id && m.changed > notes.kiotaMail.before,
        );
        expect(fresh).toHaveLength(1);
        expect(next.items.map((m) => [m.id, m.subject])).toEqual(fresh.map((m) => [m.id, m.subject]));
        expect(next.requests).toHaveLength(1);
        expect(next.deltaLink).toContain('$deltatoken=');
      },
    },
    {
      name: 'Kiota SDK: messages.get with $search="invoice" and $top=2, paged by its PageIterator: the messages with the word in from, subject or body, newest sent first; in a folder, its own only',
      group: 'kiotaMail',
      check(result) {
        const { searched, inInbox } = result as unknown as KiotaMailResult;
        const u = user1();
        const expected = [...u.messages.values()].filter((m) => mentions(m, 'invoice'));
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(u.messages.size);
        expect(new Set(searched.items.map((m) => m.id))).toEqual(new Set(expected.map((m) => m.id)));
        expect(searched.items).toHaveLength(expected.length);
        expect(newestSentFirst(searched.items)).toBe(true);
        expect(searched.requests).toHaveLength(Math.ceil(expected.length / 2));
        for (const request of searched.requests) expect(decodeURIComponent(request)).toContain('$search="invoice"');
        const inbox = inboxOf(u);
        expect(new Set(inInbox.items.map((m) => m.id))).toEqual(
          new Set(expected.filter((m) => m.folderId === inbox.id).map((m) => m.id)),
        );
      },
    },
    {
      name: 'Kiota SDK: $search beside $orderby throws ODataError 400 SearchWithOrderBy',
      group: 'kiotaMail',
      check(result) {
        const { refused } = result as unknown as KiotaMailResult;
        expect(refused).toEqual({
          statusCode: 400,
          code: 'SearchWithOrderBy',
          message: "The query parameter '$orderBy' is not supported with '$search'.",
        });
      },
    },
    {
      name: "Kiota SDK: items.byDriveItemId('root').delta.get() (the drives package's request builder) sends items/root/delta() and reads every live item across pages to a deltaLink",
      group: 'kiotaDrive',
      check(result) {
        const { full } = result as unknown as KiotaDriveResult;
        const driveId = user1().driveId;
        expect(new Set(full.ids)).toEqual(new Set(notes.kiotaDrive.liveBefore));
        expect(full.ids).toHaveLength(notes.kiotaDrive.liveBefore.length);
        expect(full.requests).toHaveLength(Math.ceil(notes.kiotaDrive.liveBefore.length / 2));
        expect(new URL(full.requests[0] ?? '').pathname).toBe(`/v1.0/drives/${driveId}/items/root/delta()`);
        expect(full.deltaLink.startsWith(`${sim.graphBaseUrl}/drives/${driveId}/items/root/delta?token=`)).toBe(true);
      },
    },
    {
      name: "Kiota SDK: content.put() by path (items.byDriveItemId('root:/Kiota Reports/2026/summary.txt:'), encoded by its URI template) makes the folders and the file in them, a second put replaces it (same id), get() by the path finds it",
      group: 'kiotaDrive',
      check(result) {
        const r = result as unknown as KiotaDriveResult;
        const d = drive(user1().driveId);
        const named = (parentId: string, name: string) =>
          [...d.items.values()].find((i) => i.parentId === parentId && i.name === name && !i.deleted);
        const reports = named(rootOf(d.id), 'Kiota Reports');
        const year = named(reports?.id ?? '', '2026');
        const file = named(year?.id ?? '', 'summary.txt');
        expect([reports?.kind, year?.kind, file?.kind]).toEqual(['folder', 'folder', 'file']);
        expect([r.uploaded.id, r.replaced.id, r.read.id]).toEqual([file?.id, file?.id, file?.id]);
        expect(r.uploaded).toMatchObject({ name: 'summary.txt', parentId: year?.id, folder: false });
        expect(r.uploadPaths).toEqual([
          {
            method: 'PUT',
            path: `/v1.0/drives/${d.id}/items/root%3A%2FKiota%20Reports%2F2026%2Fsummary.txt%3A/content`,
            status: 201,
          },
          {
            method: 'PUT',
            path: `/v1.0/drives/${d.id}/items/root%3A%2FKiota%20Reports%2F2026%2Fsummary.txt%3A/content`,
            status: 200,
          },
        ]);
        const latest = file?.versions[file.versions.length - 1] ?? expect.unreachable('a version');
        expect(file?.versions).toHaveLength(2);
        expect(Buffer.from(versionBytes(TENANT, latest)).toString('utf8')).toBe(
          'second summary, replacing the first\n',
        );
        expect(r.replaced.size).toBe(latest.size);
      },
    },
    {
      name: "Kiota SDK: delta.withUrl(deltaLink) after the change (colleagues' edits, the upload by path) gives only the changed items, the new file in its new folder",
      group: 'kiotaDrive',
      check(result) {
        const { next, replaced } = result as unknown as KiotaDriveResult;
        const d = drive(user1().driveId);
        const changed = [...d.items.values()].filter((i) => i.changed > notes.kiotaDrive.before);
        const ids = next.items.map((i) => i.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(ids)).toEqual(new Set(changed.map((i) => i.id)));
        expect(changed.length).toBeGreaterThan(3);
        const file = d.items.get(replaced.id) ?? expect.unreachable('the uploaded file');
        expect(next.items.find((i) => i.id === file.id)).toMatchObject({
          name: 'summary.txt',
          parentId: file.parentId,
        });
        const folders = next.items.filter((i) => i.folder).map((i) => i.name);
        expect(folders).toEqual(expect.arrayContaining(['Kiota Reports', '2026']));
        expect(next.items.filter((i) => i.deleted).length).toBe(changed.filter((i) => i.deleted).length);
      },
    },
    {
      name: "Graph client: $search on messages (.search('\"invoice\"').top(2)) paged by PageIterator without ConsistencyLevel, newest sent first; a bare term on the inbox's messages keeps to the inbox",
      group: 'searchAndPaths',
      check(result) {
        const { searched, inInbox } = result as unknown as SearchAndPathsResult;
        const u = user0();
        const expected = [...u.messages.values()].filter((m) => mentions(m, 'invoice'));
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(u.messages.size);
        expect(new Set(searched.items.map((m) => m.id))).toEqual(new Set(expected.map((m) => m.id)));
        expect(searched.items).toHaveLength(expected.length);
        expect(newestSentFirst(searched.items)).toBe(true);
        expect(searched.requests).toHaveLength(Math.ceil(expected.length / 2));
        const inbox = inboxOf(u);
        expect(new Set(inInbox.items.map((m) => m.id))).toEqual(
          new Set(expected.filter((m) => m.folderId === inbox.id).map((m) => m.id)),
        );
        expect(inInbox.items.every((m) => m.parentFolderId === inbox.id)).toBe(true);
      },
    },
    {
      name: 'Graph client: $search beside $filter throws GraphError 400 SearchWithFilter',
      group: 'searchAndPaths',
      check(result) {
        const { refused } = result as unknown as SearchAndPathsResult;
        expect(refused).toMatchObject({
          graphError: true,
          statusCode: 400,
          code: 'SearchWithFilter',
          message: "The query parameter '$filter' is not supported with '$search'.",
        });
      },
    },
    {
      name: "Graph client: upload by path into a folder (root:/Scenario Folder/Sub/notes.txt:/content): 201 then 200 with the same id, parentReference the folder made for it; the folder's children, by id and by path, list it",
      group: 'searchAndPaths',
      check(result) {
        const r = result as unknown as SearchAndPathsResult;
        const d = drive(user0().driveId);
        const named = (parentId: string, name: string) =>
          [...d.items.values()].find((i) => i.parentId === parentId && i.name === name && !i.deleted);
        const top = named(rootOf(d.id), 'Scenario Folder');
        const sub = named(top?.id ?? '', 'Sub');
        const file = named(sub?.id ?? '', 'notes.txt');
        expect([top?.kind, sub?.kind, file?.kind]).toEqual(['folder', 'folder', 'file']);
        expect(named(rootOf(d.id), 'Scenario Folder/Sub/notes.txt')).toBeUndefined();
        expect(r.statuses).toEqual([201, 200]);
        expect(r.created).toMatchObject({ id: file?.id, name: 'notes.txt', size: 'first notes\n'.length });
        expect(r.replaced).toMatchObject({ id: file?.id, size: 'second notes, replacing the first\n'.length });
        expect(r.created.parentReference).toMatchObject({
          id: sub?.id,
          driveId: d.id,
          path: `/drives/${d.id}/root:/Scenario Folder/Sub`,
        });
        const listed = childrenOf(d.id, sub?.id ?? '');
        expect(r.children.map((i) => [i.id, i.name])).toEqual(listed.map((i) => [i.id, i.name]));
        expect(r.childrenByPath.map((i) => i.id)).toEqual(listed.map((i) => i.id));
        expect(r.children.map((i) => i.id)).toContain(file?.id);
      },
    },
    {
      name: 'Graph client: GET by path (root:/Scenario Folder/Sub/notes.txt) finds the item; its :/content gives the replaced text',
      group: 'searchAndPaths',
      check(result) {
        const r = result as unknown as SearchAndPathsResult;
        expect(r.byPath.id).toBe(r.created.id);
        expect(r.byPath.parentReference.id).toBe(r.created.parentReference.id);
        const file = drive(user0().driveId).items.get(r.created.id);
        const latest = file?.versions[file.versions.length - 1] ?? expect.unreachable('a version');
        expect(r.content).toBe(Buffer.from(versionBytes(TENANT, latest)).toString('utf8'));
        expect(r.content).toBe('second notes, replacing the first\n');
      },
    },
    {
      name: "MSAL authorization code sign-in through the simulator's sign-in page: Entra ID's short scopes, the user's ID token, a delegated Graph token with scp and no roles",
      group: 'delegated',
      async check(result) {
        const { signedIn } = result as unknown as DelegatedResult;
        const u = user0();
        expect(signedIn.scopes).toEqual(['User.Read', 'Mail.Read', 'openid', 'profile']);
        expect(signedIn.fromCache).toBe(false);
        expect(signedIn.idTokenClaims).toMatchObject({ oid: u.id, tid: TENANT, preferred_username: u.upn });
        expect(signedIn.homeAccountId).toBe(`${u.id}.${TENANT}`);
        const answer = await fetch(`${sim.authorityHost}/${TENANT}/discovery/v2.0/keys`, {
          dispatcher: trusting(sim.caCertificate),
        } as RequestInit);
        const { payload } = await jwtVerify(
          signedIn.accessToken,
          createLocalJWKSet((await answer.json()) as JSONWebKeySet),
          { audience: 'https://graph.microsoft.com', issuer: `https://sts.windows.net/${TENANT}/` },
        );
        expect(payload).toMatchObject({ idtyp: 'user', oid: u.id, scp: 'User.Read Mail.Read openid profile' });
        expect(payload).not.toHaveProperty('roles');
      },
    },
    {
      name: 'acquireTokenSilent answers from MSAL’s cache without a token request; with forceRefresh: true it redeems the refresh token (a refresh_token grant) for a new token',
      group: 'delegated',
      check(result) {
        const { signedIn, cached, forced, counts } = result as unknown as DelegatedResult;
        expect(cached).toMatchObject({ fromCache: true, accessToken: signedIn.accessToken });
        expect(counts.afterCached).toEqual(counts.before);
        expect(forced.fromCache).toBe(false);
        expect(forced.accessToken).not.toBe(signedIn.accessToken);
        expect(forced.scopes).toEqual(['User.Read', 'Mail.Read', 'openid', 'profile']);
        expect(counts.afterForced.posts - counts.before.posts).toBe(1);
        expect(counts.afterForced.grants).toEqual({
          ...counts.before.grants,
          refresh_token: counts.before.grants.refresh_token + 1,
        });
      },
    },
    {
      name: 'acquireTokenSilent once the cached access token has expired: the refresh token again (a refresh_token grant), no new sign-in',
      group: 'delegated',
      check(result) {
        const { forced, expired, counts } = result as unknown as DelegatedResult;
        expect(expired.fromCache).toBe(false);
        expect(expired.accessToken).not.toBe(forced.accessToken);
        expect(expired.idTokenClaims).toMatchObject({ oid: user0().id });
        expect(counts.afterExpired.posts - counts.afterForced.posts).toBe(1);
        expect(counts.afterExpired.grants).toEqual({
          ...counts.afterForced.grants,
          refresh_token: counts.afterForced.grants.refresh_token + 1,
        });
      },
    },
    {
      name: 'the Graph client with the delegated token: /me is the signed-in user, /me/messages through PageIterator is their mailbox, paged at /me',
      group: 'delegated',
      check(result) {
        const { me, messages } = result as unknown as DelegatedResult;
        const u = user0();
        expect(me).toEqual({ id: u.id, userPrincipalName: u.upn, displayName: u.displayName });
        const mailbox = [...u.messages.values()];
        expect(messages.items).toEqual(mailbox.map((m) => ({ id: m.id, subject: m.subject })));
        expect(messages.requests).toHaveLength(Math.ceil(mailbox.length / 2));
        for (const url of messages.requests) expect(url.startsWith(`${sim.graphBaseUrl}/me/messages`), url).toBe(true);
      },
    },
    {
      name: "a delegated token without User.ReadBasic.All: another user is Graph's 403 Authorization_RequestDenied; /me with an app-only token is Graph's 400 BadRequest",
      group: 'delegated',
      check(result) {
        const { otherUser, appMe } = result as unknown as DelegatedResult;
        expect(otherUser).toMatchObject({ graphError: true, statusCode: 403, code: 'Authorization_RequestDenied' });
        expect(appMe).toMatchObject({
          graphError: true,
          statusCode: 400,
          code: 'BadRequest',
          message: '/me request is only valid with delegated authentication flow.',
        });
      },
    },
    ...sharePointScenarios(),
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

  /** SharePoint lists and pages: what the test did to the site while a group ran. */
  const sharePointNotes = {
    before: 0,
    liveBefore: [] as string[],
    /** Each item's versions when the group read them, before the change. */
    versionsBefore: new Map<string, SimListItemVersion[]>(),
  };
  const sharePointSite = () => tenant.sites[0] ?? expect.unreachable('a site');
  const issueTracker = () =>
    sharePointSite().lists.find((l) => l.name === 'IssueTracker') ?? expect.unreachable('an issue tracker');

  /** The SharePoint groups' arguments and what they ask of the tenant (a change, expired tokens). */
  function sharePointGroups(): Record<string, { args: Json; actions?: Record<string, Action> }> {
    return {
      sharePointLists: {
        args: { siteId: sharePointSite().id, listId: issueTracker().id },
        actions: {
          'change-list': () => {
            sharePointNotes.before = tenant.clock;
            const live = [...issueTracker().items.values()].filter((i) => !i.deleted);
            sharePointNotes.liveBefore = live.map((i) => i.id);
            sharePointNotes.versionsBefore = new Map(live.map((i) => [i.id, structuredClone(i.versions)]));
            evolve(tenant, { newListItems: 6, editedListItems: 4, deletedListItems: 2 });
            return undefined;
          },
          'expire-delta-tokens': () => {
            expireDeltaTokens(tenant);
            return undefined;
          },
        },
      },
      sharePointPages: { args: { siteId: sharePointSite().id } },
    };
  }

  /** The SharePoint scenarios: what the Graph client read of lists and pages, against the model. */
  function sharePointScenarios(): Scenario[] {
    type ListItem = { id: string; deleted?: { state: string }; fields?: Json };
    interface ListsResult {
      lists: { id: string; displayName: string; list: { template: string } }[];
      items: Listing<ListItem>;
      selected: Listing<ListItem>;
      versions: { id: string; items: { id: string; lastModifiedDateTime: string; fields: Json }[] };
      full: { ids: string[]; deltaLink: string; requests: string[] };
      next: { items: ListItem[]; deltaLink: string };
      expired: Failure;
      created: { id: string; displayName: string; list: { template: string } };
      item: ListItem;
      updated: Json;
    }
    interface Canvas {
      horizontalSections: { layout: string; columns: { width: number; webparts: Json[] }[] }[];
    }
    interface PagesResult {
      listed: Listing<{ id: string; name: string; title: string; '@odata.type': string }>;
      page: { id: string; name: string; title: string; canvasLayout: Canvas };
      canvas: Canvas;
      created: { id: string; name: string; publishingState: Json };
      published: unknown;
      publishStatus: number[];
      read: { id: string; publishingState: Json; canvasLayout: Canvas };
    }
    /** An item's versions and column values as they were when the group read them. */
    const versionsRead = (id: string) => sharePointNotes.versionsBefore.get(id) ?? expect.unreachable(`item ${id}`);
    const latestValues = (id: string) => versionsRead(id).at(-1)?.values ?? {};
    /** A canvas as its text: each section's layout and each web part's type and content, in order. */
    const canvasText = (canvas: Canvas) =>
      canvas.horizontalSections.map((s) => ({
        layout: s.layout,
        columns: s.columns.map((c) => ({
          width: c.width,
          webparts: c.webparts.map((w) => [w.innerHtml ?? w.webPartType, (w.data as Json | undefined)?.title]),
        })),
      }));
    return [
      {
        name: "PageIterator over a list's items with $expand=fields: every item with its column values, over pages of two",
        group: 'sharePointLists',
        check(result) {
          const { lists, items } = result as unknown as ListsResult;
          expect(lists.map((l) => l.list.template)).toEqual([
            'documentLibrary',
            'issueTracking',
            'genericList',
            'genericList',
          ]);
          const live = sharePointNotes.liveBefore;
          expect(items.items.map((i) => i.id)).toEqual(live);
          for (const item of items.items) expect(item.fields, item.id).toMatchObject(latestValues(item.id));
          expect(items.requests).toHaveLength(Math.ceil(live.length / 2));
          for (const next of items.requests.slice(1)) expect(decodeURIComponent(next)).toContain('$expand=fields');
        },
      },
      {
        name: "the request builder's expand('fields($select=Title,Status)') with top(3): only those columns, paged by three",
        group: 'sharePointLists',
        check(result) {
          const { selected } = result as unknown as ListsResult;
          expect(selected.items.map((i) => i.id)).toEqual(sharePointNotes.liveBefore);
          for (const item of selected.items) {
            const values = latestValues(item.id);
            expect(item.fields).toEqual({
              '@odata.etag': expect.any(String),
              Title: values.Title,
              Status: values.Status,
            });
          }
          expect(selected.requests).toHaveLength(Math.ceil(sharePointNotes.liveBefore.length / 3));
        },
      },
      {
        name: "a list item's versions with $expand=fields: newest first, each with its column values",
        group: 'sharePointLists',
        check(result) {
          const { versions } = result as unknown as ListsResult;
          const stored = [...versionsRead(versions.id)].reverse();
          expect(versions.items.map((v) => v.id)).toEqual(stored.map((v) => v.id));
          for (const [n, version] of versions.items.entries()) {
            expect(version.lastModifiedDateTime).toBe(stored[n]?.modified);
            expect(version.fields).toMatchObject({ ...stored[n]?.values, _UIVersionString: stored[n]?.id });
          }
        },
      },
      {
        name: 'list item delta: a full round ends in a deltaLink; after a change, only the added, edited and deleted items',
        group: 'sharePointLists',
        check(result) {
          const { full, next } = result as unknown as ListsResult;
          expect(new Set(full.ids)).toEqual(new Set(sharePointNotes.liveBefore));
          expect(full.deltaLink).toMatch(/\/items\/delta\?(.*&)?token=/);
          const changed = [...issueTracker().items.values()].filter(
            (i) => i.changed > sharePointNotes.before && i.changed <= sharePointNotes.before + 1,
          );
          expect(new Set(next.items.map((i) => i.id))).toEqual(new Set(changed.map((i) => i.id)));
          for (const row of next.items) {
            const source = issueTracker().items.get(row.id) ?? expect.unreachable('an item');
            if (source.deleted) expect(row.deleted).toEqual({ state: 'deleted' });
            else expect(row.fields).toMatchObject(source.versions[source.versions.length - 1]?.values ?? {});
          }
          expect(next.items.some((i) => i.deleted)).toBe(true);
          expect(next.items.some((i) => !sharePointNotes.liveBefore.includes(i.id))).toBe(true);
        },
      },
      {
        name: 'list item delta: an expired token throws GraphError 410 resyncRequired, with where to start again',
        group: 'sharePointLists',
        check(result) {
          const { expired } = result as unknown as ListsResult;
          expect(expired).toMatchObject({ graphError: true, statusCode: 410, code: 'resyncRequired' });
          expect(expired.location).toMatch(/\/items\/delta$/);
        },
      },
      {
        name: "a restore's writes through the Graph client: a list with its columns, an item, its fields updated",
        group: 'sharePointLists',
        check(result) {
          const { created, item, updated } = result as unknown as ListsResult;
          expect(created).toMatchObject({
            displayName: 'Restored by the Graph client',
            list: { template: 'genericList' },
          });
          const list = sharePointSite().lists.find((l) => l.id === created.id) ?? expect.unreachable('the new list');
          expect(list.columns.map((c) => c.name).slice(0, 3)).toEqual(['Title', 'Status', 'DueDate']);
          expect(item.fields).toMatchObject({ Status: 'Active', _UIVersionString: '1.0' });
          expect(updated).toMatchObject({ Status: 'Closed', _UIVersionString: '2.0', Title: item.fields?.Title });
          expect(list.items.get(item.id)?.versions.map((v) => v.values.Status)).toEqual(['Active', 'Closed']);
        },
      },
      {
        name: 'PageIterator over /pages/microsoft.graph.sitePage: every page, sorted by name',
        group: 'sharePointPages',
        check(result) {
          const { listed } = result as unknown as PagesResult;
          const names = sharePointSite()
            .pages.filter((p) => p.name !== 'Restored-by-client.aspx')
            .map((p) => p.name)
            .sort((a, b) => a.localeCompare(b));
          expect(listed.items.map((p) => p.name)).toEqual(names);
          for (const p of listed.items) expect(p['@odata.type']).toBe('#microsoft.graph.sitePage');
          expect(listed.requests).toHaveLength(Math.ceil(names.length / 2));
        },
      },
      {
        name: 'a page with $expand=canvasLayout: its sections, columns and web parts as the model holds them',
        group: 'sharePointPages',
        check(result) {
          const { page } = result as unknown as PagesResult;
          const source = sharePointSite().pages.find((p) => p.id === page.id) ?? expect.unreachable('the page');
          expect(page).toMatchObject({ name: 'Home.aspx', title: source.title });
          expect(canvasText(page.canvasLayout)).toEqual(
            source.sections.map((s) => ({
              layout: s.layout,
              columns: s.columns.map((c) => ({
                width: c.width,
                webparts: c.webparts.map((w) =>
                  w.kind === 'text' ? [w.innerHtml, undefined] : [w.webPartType, w.data.title],
                ),
              })),
            })),
          );
        },
      },
      {
        name: 'a page created with its canvas (201, checked out) and published (204): read back published, the same canvas',
        group: 'sharePointPages',
        check(result) {
          const r = result as unknown as PagesResult;
          expect(r.created).toMatchObject({
            name: 'Restored-by-client.aspx',
            publishingState: { level: 'checkout', versionId: '0.1' },
          });
          expect(r.publishStatus).toEqual([204]);
          expect(r.read.publishingState).toEqual({ level: 'published', versionId: '1.0' });
          expect(canvasText(r.read.canvasLayout)).toEqual(canvasText(r.canvas));
        },
      },
    ];
  }

  scenarios.push(...mailboxItemScenarios());

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

  it('pass every scenario', { timeout: 120_000 }, async () => {
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
      kiotaMail: {
        args: { userId: user1().id },
        actions: {
          'new-mail': () => {
            notes.kiotaMail.before = tenant.clock;
            evolve(tenant, { newMessages: tenant.users.filter((x) => x.hasMailbox).length });
            return undefined;
          },
        },
      },
      kiotaDrive: {
        args: { driveId: user1().driveId },
        actions: {
          'change-drive': () => {
            const d = drive(user1().driveId);
            notes.kiotaDrive.before = tenant.clock;
            notes.kiotaDrive.liveBefore = [...d.items.values()].filter((i) => !i.deleted).map((i) => i.id);
            evolve(tenant, { newFiles: tenant.drives.size, editedFiles: 12, deletedFiles: 24 });
            return undefined;
          },
        },
      },
      searchAndPaths: { args: { userId: u.id } },
      delegated: {
        args: {
          app: {
            clientId: SIGN_IN_APP.clientId,
            clientSecret: SIGN_IN_APP.clientSecret,
            redirectUri: SIGN_IN_REDIRECT,
          },
          login: u.upn,
          password: USER_PASSWORD,
          otherUserId: tenant.users[1]?.id,
        },
        actions: { grants: () => ({ ...sim.state.grants }) },
      },
      ...sharePointGroups(),
      batch: {
        args: {
          userIds: tenant.users.slice(0, 5).map((x) => x.id),
          groupIds: groupsOf(tenant).map((g) => g.id),
          missingGroupId: '00000000-0000-4000-8000-00000000dead',
        },
      },
    };
    Object.assign(groups, mailboxItemGroups());
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

  /** What the mailbox-item groups changed, for their scenarios to compare against. */
  const mailboxNotes = {
    /** The calendar view the Graph client read, before any change. */
    viewIds: [] as string[],
    /** The change number of the test's change to events; the last one before its changes to contacts and tasks. */
    events: 0,
    contacts: 0,
    tasks: 0,
    /** The restored event's start when the test changed the events (a colleague may move it after). */
    restoredStart: '',
    /** The live contacts of the Contacts folder and tasks of the Tasks list when the test changed them. */
    contactIds: [] as string[],
    taskIds: [] as string[],
  };
  const WINDOW = { startDateTime: '2026-08-25T00:00:00Z', endDateTime: '2026-11-01T00:00:00Z' };
  /** When the test's changes happen: new events then fall inside the window. */
  const CHANGED_AT = '2026-09-20T10:00:00Z';
  const mailboxes = () => tenant.users.filter((x) => x.hasMailbox).length;

  /** The calendars, contacts and To Do groups: their arguments and the changes they ask the test to make. */
  function mailboxItemGroups(): Record<string, { args: Json; actions?: Record<string, Action> }> {
    const u = user0();
    return {
      calendarEvents: { args: { userId: u.id, window: WINDOW } },
      eventDelta: {
        args: { userId: u.id, window: WINDOW },
        actions: {
          'change-events': () => {
            mailboxNotes.restoredStart =
              [...u.events.values()].find((e) => e.transactionId === 'scenario-restore-1')?.start ?? '';
            // Colleagues' changes across the tenant: new meetings, moved ones, deleted ones.
            mailboxNotes.events = evolve(tenant, {
              newEvents: mailboxes(),
              editedEvents: 40,
              deletedEvents: 10,
              at: CHANGED_AT,
            });
            return undefined;
          },
          'expire-delta-tokens': () => {
            expireDeltaTokens(tenant);
            return undefined;
          },
        },
      },
      contactsDelta: {
        args: { userId: u.id },
        actions: {
          'change-contacts': () => {
            const folder = u.contactFolders.find((f) => f.isDefault);
            mailboxNotes.contactIds = [...u.contacts.values()]
              .filter((c) => c.folderId === folder?.id && !c.deleted)
              .map((c) => c.id);
            mailboxNotes.contacts = tenant.clock;
            // As for the tasks below: changed again until this folder holds an edit and a deletion.
            const changedHere = () =>
              [...u.contacts.values()].filter((c) => c.folderId === folder?.id && c.changed > mailboxNotes.contacts);
            for (let round = 0; round < 10; round++) {
              evolve(tenant, { newContacts: mailboxes(), editedContacts: 20, deletedContacts: 20, at: CHANGED_AT });
              const here = changedHere();
              if (here.some((c) => c.deleted) && here.some((c) => !c.deleted)) break;
            }
            return undefined;
          },
        },
      },
      todoTasks: {
        args: { userId: u.id },
        actions: {
          'change-tasks': () => {
            const list = u.taskLists.find((l) => l.wellknownListName === 'defaultList');
            mailboxNotes.taskIds = [...u.tasks.values()]
              .filter((t) => t.listId === list?.id && !t.deleted)
              .map((t) => t.id);
            mailboxNotes.tasks = tenant.clock;
            // Edits and deletions fall on tasks drawn across every mailbox (seeded by the change number, so
            // by every group that changed the tenant before): changed again until this list holds both.
            const changedHere = () =>
              [...u.tasks.values()].filter((t) => t.listId === list?.id && t.changed > mailboxNotes.tasks);
            for (let round = 0; round < 10; round++) {
              evolve(tenant, { newTasks: mailboxes(), editedTasks: 20, deletedTasks: 15, at: CHANGED_AT });
              const here = changedHere();
              if (here.some((t) => t.deleted) && here.some((t) => !t.deleted && t.status === 'completed')) break;
            }
            return undefined;
          },
        },
      },
      kiotaMailboxItems: {
        args: {
          userId: u.id,
          listId: u.taskLists.find((l) => l.wellknownListName === 'defaultList')?.id,
          window: WINDOW,
        },
      },
    };
  }

  /** The scenarios of the calendars, contacts and To Do groups. */
  function mailboxItemScenarios(): Scenario[] {
    type EventRow = { id: string; type?: string; subject?: string; seriesMasterId?: string; '@removed'?: Json };
    const defaultCalendar = () => user0().calendars.find((c) => c.isDefault) ?? expect.unreachable('a calendar');
    const liveEvents = () =>
      [...user0().events.values()].filter((e) => e.calendarId === defaultCalendar().id && !e.deleted);
    const series = () => liveEvents().find((e) => e.recurrence) ?? expect.unreachable('a series');
    const inWindow = (e: { start: string; end: string }) =>
      Date.parse(e.start) < Date.parse(WINDOW.endDateTime) && Date.parse(e.end) > Date.parse(WINDOW.startDateTime);
    /** What a delta round after a change holds: the rows of the items changed, whoever changed them. */
    const changedIds = (...groups: string[][]) => [...new Set(groups.flat())].sort();
    return [
      {
        name: 'calendar events: PageIterator over /users/{id}/events reads the single events and series masters, never occurrences',
        group: 'calendarEvents',
        check(result) {
          const { events } = result as { events: { items: EventRow[]; requests: string[] } };
          const expected = liveEvents().sort(
            (a, b) => Date.parse(a.start) - Date.parse(b.start) || a.id.localeCompare(b.id),
          );
          expect(events.items.map((e) => e.id)).toEqual(expected.map((e) => e.id));
          expect(new Set(events.items.map((e) => e.type))).toEqual(new Set(['singleInstance', 'seriesMaster']));
          expect(events.requests).toHaveLength(Math.ceil(expected.length / 2));
        },
      },
      {
        name: 'calendarView: PageIterator over a window expands the series (an exception, the cancelled occurrence left out); its 429s retried by the RetryHandler',
        group: 'calendarEvents',
        check(result) {
          const { view, attempts, throttled, off } = result as {
            view: { items: EventRow[] };
            attempts: { status: number; retryAttempt?: string }[];
            throttled: number;
            off: number;
          };
          mailboxNotes.viewIds = view.items.map((e) => e.id);
          const master = series();
          const occurrences = view.items.filter((e) => e.seriesMasterId === master.id);
          expect(occurrences.map((e) => e.type)).toEqual([
            'occurrence',
            'occurrence',
            'exception',
            'occurrence',
            'occurrence',
          ]);
          expect(occurrences.map((e) => e.id)).not.toContain(`${master.id}_20261005`);
          const singles = view.items.filter((e) => e.type === 'singleInstance').map((e) => e.id);
          expect(singles.sort()).toEqual(
            liveEvents()
              .filter((e) => !e.recurrence && inWindow(e))
              .map((e) => e.id)
              .sort(),
          );
          // Every third calendarView request refused with 429 and retried once: the pages all answered.
          expect([throttled, off]).toEqual([200, 200]);
          expect(attempts.filter((a) => a.status === 200)).toHaveLength(Math.ceil(view.items.length / 2));
          expect(attempts.filter((a) => a.status === 429).length).toBeGreaterThan(0);
          attempts.forEach((a, i) => {
            if (a.status === 429) expect(attempts[i + 1]).toEqual({ status: 200, retryAttempt: '1' });
          });
        },
      },
      {
        name: "an event's file attachment: contentBytes in the list, the same bytes by $value through getStream()",
        group: 'calendarEvents',
        check(result) {
          const { attachment, bytes } = result as {
            attachment: { eventId: string; name: string; contentBytes: string };
            bytes: string;
          };
          const held = user0().events.get(attachment.eventId)?.attachments[0] ?? expect.unreachable('an attachment');
          expect(attachment.name).toBe(held.name);
          expect(attachment.contentBytes).toBe(Buffer.from(held.content).toString('base64'));
          expect(bytes).toBe(attachment.contentBytes);
        },
      },
      {
        name: 'calendarView delta: a full round as the calendar view lists it, its deltaLink without the window (the tokens carry it)',
        group: 'eventDelta',
        check(result) {
          const { full } = result as { full: { ids: string[]; deltaLink: string; requests: string[] } };
          expect(full.ids).toEqual(mailboxNotes.viewIds);
          expect(full.ids.length).toBeGreaterThan(0);
          expect(full.deltaLink).toMatch(/\/calendarView\/delta\?\$deltatoken=[^&]+$/);
          expect(full.requests.slice(1).every((r) => /\?\$skiptoken=[^&]+$/.test(r))).toBe(true);
        },
      },
      {
        name: 'an event written back through the client, once per transactionId, in the time zone it was given',
        group: 'eventDelta',
        check(result) {
          const { restored, again } = result as { restored: Json & { id: string }; again: { id: string } };
          expect(again.id).toBe(restored.id);
          expect(restored).toMatchObject({
            subject: 'Restored by the scenario',
            originalStartTimeZone: 'W. Europe Standard Time',
            start: { dateTime: '2026-09-16T14:00:00.0000000', timeZone: 'W. Europe Standard Time' },
          });
          // 14:00 in Berlin's summer time is 12:00 UTC.
          expect(mailboxNotes.restoredStart).toBe('2026-09-16T12:00:00.000Z');
        },
      },
      {
        name: 'calendarView delta across a change: the restored event, the new and moved ones, the deleted ones @removed',
        group: 'eventDelta',
        check(result) {
          const { next, restored } = result as { next: { items: EventRow[] }; restored: { id: string } };
          const changed = [...user0().events.values()].filter(
            (e) => e.calendarId === defaultCalendar().id && e.changed === mailboxNotes.events,
          );
          const ids = next.items.map((e) => e.id);
          expect(ids).toContain(restored.id);
          for (const event of changed.filter((e) => !e.recurrence)) {
            const row = next.items.find((r) => r.id === event.id);
            if (event.deleted || !inWindow(event)) expect(row?.['@removed'], event.id).toEqual({ reason: 'deleted' });
            else expect(row?.subject, event.id).toBe(event.subject);
          }
          expect(
            changed.some((e) => e.deleted),
            'a deleted event',
          ).toBe(true);
          expect(
            changed.some((e) => !e.deleted && e.subject.endsWith('(moved)')),
            'a moved event',
          ).toBe(true);
          expect(
            changed.some((e) => Date.parse(e.created) === Date.parse(CHANGED_AT)),
            'a new event',
          ).toBe(true);
          // Nothing else: each row is one of those events or an occurrence of a changed series.
          const known = new Set([restored.id, ...changed.map((e) => e.id)]);
          expect(ids.every((id) => known.has(id) || known.has(id.replace(/_\d{8}$/, '')))).toBe(true);
        },
      },
      {
        name: 'calendarView delta: an expired token throws GraphError 410 syncStateNotFound',
        group: 'eventDelta',
        check(result) {
          const { expired } = result as { expired: Failure };
          expect(expired).toMatchObject({ graphError: true, statusCode: 410, code: 'syncStateNotFound' });
        },
      },
      {
        name: 'contacts: the contact folders paged, the Contacts folder read by delta to a deltaLink',
        group: 'contactsDelta',
        check(result) {
          const { folders, full, created } = result as {
            folders: { items: { id: string; displayName: string }[] };
            full: { items: { id: string }[]; deltaLink: string; requests: string[] };
            created: { id: string };
          };
          const u = user0();
          expect(folders.items).toEqual(
            u.contactFolders.filter((f) => f.parentId === null).map((f) => ({ id: f.id, displayName: f.name })),
          );
          // The folder as it was before the client added a contact and the test changed it.
          expect(full.items.map((c) => c.id).sort()).toEqual(
            mailboxNotes.contactIds.filter((id) => id !== created.id).sort(),
          );
          expect(full.items.length).toBeGreaterThan(0);
          expect(full.requests).toHaveLength(Math.ceil(full.items.length / 2));
          expect(full.deltaLink).toContain('/contacts/delta?$deltatoken=');
        },
      },
      {
        name: 'contacts delta across a change: the contact the client created, the new and edited ones, the deleted ones @removed',
        group: 'contactsDelta',
        check(result) {
          const { next, created, folderId } = result as {
            next: { items: { id: string; displayName?: string; '@removed'?: Json }[] };
            created: { id: string; displayName: string; parentFolderId: string };
            folderId: string;
          };
          expect(created).toMatchObject({ displayName: 'Pavel Bansky', parentFolderId: folderId });
          const changed = [...user0().contacts.values()].filter(
            (c) => c.folderId === folderId && c.changed > mailboxNotes.contacts,
          );
          expect(next.items.map((c) => c.id).sort()).toEqual(
            changedIds(
              [created.id],
              changed.map((c) => c.id),
            ),
          );
          for (const contact of changed) {
            const row = next.items.find((r) => r.id === contact.id);
            if (contact.deleted) expect(row?.['@removed']).toEqual({ reason: 'deleted' });
            else expect(row?.displayName).toBe(contact.properties.displayName);
          }
          expect(changed.some((c) => c.deleted)).toBe(true);
          expect(changed.some((c) => !c.deleted)).toBe(true);
        },
      },
      {
        name: 'To Do: the lists (Tasks as defaultList) and the default list’s tasks with their checklist items and linked resources, paged',
        group: 'todoTasks',
        check(result) {
          const { lists, tasks, created } = result as {
            lists: { items: { id: string; displayName: string; wellknownListName: string }[] };
            tasks: {
              items: { id: string; checklistItems: unknown[]; linkedResources: unknown[] }[];
              requests: string[];
            };
            created: { id: string };
          };
          const u = user0();
          expect(lists.items).toEqual(
            u.taskLists
              .filter((l) => !l.deleted)
              .map((l) => ({ id: l.id, displayName: l.name, wellknownListName: l.wellknownListName })),
          );
          expect(lists.items[0]).toMatchObject({ displayName: 'Tasks', wellknownListName: 'defaultList' });
          // The list as it was before the client added a task and the test changed it.
          expect(tasks.items.map((t) => t.id).sort()).toEqual(
            mailboxNotes.taskIds.filter((id) => id !== created.id).sort(),
          );
          expect(tasks.requests).toHaveLength(Math.ceil(tasks.items.length / 2));
          for (const task of tasks.items) {
            const model = u.tasks.get(task.id) ?? expect.unreachable('held');
            expect(task.checklistItems).toHaveLength(model.checklistItems.length);
            expect(task.linkedResources).toHaveLength(model.linkedResources.length);
          }
          expect(tasks.items.some((t) => t.checklistItems.length > 0)).toBe(true);
        },
      },
      {
        name: 'To Do tasks delta across a change: the task the client created, the completed and new ones, the deleted ones @removed',
        group: 'todoTasks',
        check(result) {
          const { next, created, listId } = result as {
            next: { items: { id: string; status?: string; '@removed'?: Json }[] };
            created: { id: string; title: string; checklistItems: Json[]; linkedResources: Json[] };
            listId: string;
          };
          expect(created).toMatchObject({
            title: 'Written by the scenario',
            checklistItems: [{ displayName: 'First step', isChecked: false }],
            linkedResources: [{ webUrl: 'http://microsoft.com', applicationName: 'Microsoft' }],
          });
          const changed = [...user0().tasks.values()].filter(
            (t) => t.listId === listId && t.changed > mailboxNotes.tasks,
          );
          expect(next.items.map((t) => t.id).sort()).toEqual(
            changedIds(
              [created.id],
              changed.map((t) => t.id),
            ),
          );
          for (const task of changed) {
            const row = next.items.find((r) => r.id === task.id);
            if (task.deleted) expect(row?.['@removed']).toEqual({ reason: 'deleted' });
            else expect(row?.status).toBe(task.status);
          }
          expect(changed.some((t) => t.deleted)).toBe(true);
          expect(changed.some((t) => !t.deleted && t.status === 'completed')).toBe(true);
        },
      },
      {
        name: 'Kiota SDK: calendarView delta() with its window and To Do tasks delta() read to their deltaLinks as the model holds them',
        group: 'kiotaMailboxItems',
        check(result) {
          const { events, tasks, paths, viewIds } = result as {
            events: { items: { id: string }[]; deltaLink: string };
            tasks: { items: { id: string }[]; deltaLink: string };
            paths: string[];
            viewIds: string[];
          };
          expect(events.items.map((e) => e.id)).toEqual(viewIds);
          expect(events.items.length).toBeGreaterThan(0);
          expect(events.deltaLink).toContain('/calendarView/delta?$deltatoken=');
          const list =
            user0().taskLists.find((l) => l.wellknownListName === 'defaultList') ?? expect.unreachable('Tasks');
          const live = [...user0().tasks.values()].filter((t) => t.listId === list.id && !t.deleted);
          expect(tasks.items.map((t) => t.id).sort()).toEqual(live.map((t) => t.id).sort());
          expect(tasks.deltaLink).toContain('/tasks/delta?$deltatoken=');
          // As Kiota's URI templates write it: the function called with parentheses, the window in the query.
          expect(paths[0]).toMatch(
            /^GET \/v1\.0\/users\/[^/]+\/calendarView\/delta\(\)\?endDateTime=.+&startDateTime=/,
          );
          expect(paths.some((p) => /\/tasks\/delta\(\)$/.test(p))).toBe(true);
        },
      },
    ];
  }

  const python = pythonWithMsal();
  if ('reason' in python) console.log(`Python msal refresh check skipped: ${python.reason}`);

  it.skipIf('reason' in python)(
    "Python's msal: authorization code sign-in, acquire_token_silent from its cache, force_refresh by the refresh token",
    { timeout: 60_000 },
    async () => {
      const interpreter = 'python' in python ? python.python : '';
      const u = tenant.users[2] ?? expect.unreachable('a third user');
      const before = { ...sim.state.grants };
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          interpreter,
          [
            pythonScript,
            JSON.stringify({
              origin: sim.url,
              tenantId: TENANT,
              clientId: SIGN_IN_APP.clientId,
              clientSecret: SIGN_IN_APP.clientSecret,
              redirectUri: SIGN_IN_REDIRECT,
              login: u.upn,
              password: USER_PASSWORD,
            }),
          ],
          // requests trusts the simulator's CA through REQUESTS_CA_BUNDLE alone.
          { env: { ...process.env, REQUESTS_CA_BUNDLE: sim.caCertificatePath }, timeout: 45_000 },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        );
      });
      const r = JSON.parse(output) as PythonRefreshResult;
      // msal asks its scopes in an order of its own; the answer names them as asked.
      const granted = (scope: string) => scope.split(' ').sort();
      expect(r.signedIn).toMatchObject({ oid: u.id, hasRefreshToken: true });
      expect(granted(r.signedIn.scope)).toEqual(['Mail.Read', 'User.Read', 'openid', 'profile']);
      expect(r.accounts).toEqual([u.upn]);
      expect(r.cached.accessToken).toBe(r.signedIn.accessToken);
      expect(r.forced.accessToken).not.toBe(r.signedIn.accessToken);
      expect(r.forced.hasRefreshToken).toBe(true);
      expect(granted(r.forced.scope)).toEqual(['Mail.Read', 'User.Read', 'openid', 'profile']);
      expect(r.me).toEqual({ id: u.id, userPrincipalName: u.upn });
      expect(sim.state.grants).toEqual({
        ...before,
        authorization_code: before.authorization_code + 1,
        refresh_token: before.refresh_token + 1,
      });
      console.log(
        "Python msal (Debian's python3-msal): sign-in, silent from cache, forced refresh by the refresh token: passed",
      );
    },
  );
});
