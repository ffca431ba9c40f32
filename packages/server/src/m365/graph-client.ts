/**
 * GraphApi over HTTP. Plain HTTP rather than @microsoft/microsoft-graph-client: jobs stream binary
 * content and upload sessions, and need one retry policy (Retry-After, bounded exponential back-off
 * with jitter) and one per-tenant concurrency bound for every call, JSON or binary, against
 * graph.microsoft.com or the simulator's base URL alike. Tokens come from MSAL (token.ts).
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import type {
  AadUserConversationMember,
  Calendar,
  Channel,
  Chat,
  ChatMessage,
  ChecklistItem,
  ColumnDefinition,
  Contact,
  ContactFolder,
  ContentType,
  Deleted,
  Drive,
  DriveItem,
  DriveItemVersion,
  Event,
  FileAttachment,
  Group,
  List,
  ListItem,
  ListItemVersion,
  MailFolder,
  Message,
  Organization,
  Permission,
  Site,
  SitePage,
  TodoTask,
  TodoTaskList,
  User,
} from '@microsoft/microsoft-graph-types';
import { type Dispatcher, request as httpRequest } from 'undici';
import {
  type ConflictBehavior,
  type DeltaPages,
  type GraphApi,
  GraphError,
  INVALID_GRAPH_ID,
  type TenantGraphConnection,
} from './graph-api.js';
import { tokenRoles } from './permissions.js';
import { createTokenSource, type TokenSource } from './token.js';

/** What the client reads of an HTTP answer (a fetch Response has all of it). */
interface HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** 'manual': a redirect is answered as it is; otherwise it is followed. */
  redirect?: 'manual';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/**
 * One request with undici's request API on the global dispatcher (the one trust.ts configures):
 * global fetch goes through the same connections but costs several times the CPU per request (its
 * web streams and headers objects), which a backup of many small items pays for every one. A
 * redirect is followed as fetch follows it: the Authorization header goes to the same origin only.
 */
async function undiciTransport(url: string, init: HttpRequest): Promise<HttpAnswer> {
  let target = url;
  let { method, body } = init;
  const headers = { ...init.headers };
  for (let redirects = 0; ; redirects++) {
    const answer = await httpRequest(target, { method: method as Dispatcher.HttpMethod, headers, body: body ?? null });
    const location = answer.headers.location;
    const next = Array.isArray(location) ? location[0] : location;
    if (init.redirect !== 'manual' && REDIRECTS.has(answer.statusCode) && next && redirects < MAX_REDIRECTS) {
      await answer.body.dump();
      const to = new URL(next, target);
      if (to.origin !== new URL(target).origin) {
        for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
      }
      if (
        answer.statusCode === 303 ||
        ((answer.statusCode === 301 || answer.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      target = to.href;
      continue;
    }
    const header = (name: string) => {
      const value = answer.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    };
    return {
      status: answer.statusCode,
      ok: answer.statusCode >= 200 && answer.statusCode < 300,
      statusText: STATUS_CODES[answer.statusCode] ?? '',
      headers: { get: header, has: (name) => header(name) !== null },
      text: () => answer.body.text(),
      arrayBuffer: () => answer.body.arrayBuffer(),
    };
  }
}

let viaFetch: typeof fetch | undefined;

/**
 * A test seam: every client of this process sends its requests through `fetchImpl` (a test wraps
 * fetch to watch or change the traffic, as a proxy in the path would); `undefined` goes back to the
 * default transport.
 */
export function sendGraphRequestsThrough(fetchImpl: typeof fetch | undefined): void {
  viaFetch = fetchImpl;
}

function send(url: string, init: HttpRequest): Promise<HttpAnswer> {
  if (!viaFetch) return undiciTransport(url, init);
  return viaFetch(url, {
    method: init.method,
    headers: init.headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.redirect ? { redirect: init.redirect } : {}),
  });
}

export interface GraphClientOptions {
  /** Requests in flight at once for this tenant. */
  maxConcurrency?: number;
  /** Retries of a throttled or failed request before it fails. */
  maxRetries?: number;
  /** Upper bound of one wait between retries. */
  maxRetryDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (info: { url: string; status: number; attempt: number; delayMs: number }) => void;
  tokens?: TokenSource;
}

/** Simple uploads take up to 4 MiB; larger files go through an upload session in 5 MiB fragments. */
const SIMPLE_UPLOAD_LIMIT = 4 * 1024 * 1024;
const FRAGMENT = 5 * 1024 * 1024;

/**
 * A series master's properties: those Graph gives by default that a series is kept by, and
 * `cancelledOccurrences`, which Graph gives only when selected (and then only what is selected).
 */
const SERIES_MASTER_SELECT = [
  'id',
  'iCalUId',
  'type',
  'subject',
  'body',
  'start',
  'end',
  'originalStartTimeZone',
  'originalEndTimeZone',
  'isAllDay',
  'location',
  'locations',
  'organizer',
  'attendees',
  'recurrence',
  'showAs',
  'sensitivity',
  'importance',
  'categories',
  'isCancelled',
  'isOrganizer',
  'hasAttachments',
  // A series goes back with its reminder: the restore writes what the archive read.
  'isReminderOn',
  'reminderMinutesBeforeStart',
  'createdDateTime',
  'lastModifiedDateTime',
  'cancelledOccurrences',
].join(',');

/** What a read answers, or null for Graph's 404 (the item is not there). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof GraphError && error.status === 404) return null;
    throw error;
  }
}

/** An instant as a calendar view's window takes it: UTC, to the second. */
const graphInstant = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** The most requests Graph takes in one JSON batch. */
const BATCH_LIMIT = 20;

/** Sees each JSON answer the engine reads (method, absolute URL, parsed body) and hands back what the engine gets. */
export type GraphReadObserver = (method: string, url: string, body: unknown) => unknown;
let readObserver: GraphReadObserver | undefined;

/**
 * A test seam: every client of this process passes its JSON answers through `observer` (a test
 * wraps them in recording proxies to learn which Graph paths and properties the engine reads).
 * `undefined` removes it.
 */
export function observeGraphReads(observer: GraphReadObserver | undefined): void {
  readObserver = observer;
}

/** A retry of a throttled or failed request: its status (0: the network failed) and the wait before the next try. */
export interface GraphRetry {
  url: string;
  status: number;
  attempt: number;
  delayMs: number;
}

/** Hears the retries of the Graph requests made in its work (a job's run), whichever client makes them. */
export interface GraphRetryListener {
  /** A request waits `delayMs` before it tries again. */
  retrying(retry: GraphRetry): void;
  /** A request that waited got its answer, or gave up. */
  settled(): void;
}

const retryListeners = new AsyncLocalStorage<GraphRetryListener>();

/**
 * Runs `work` with `listener` hearing the retries of every Graph request it makes, through any
 * client (clients are shared by a tenant's runs, so a run cannot be told apart by its client).
 */
export function listenToGraphRetries<T>(listener: GraphRetryListener, work: () => Promise<T>): Promise<T> {
  return retryListeners.run(listener, work);
}

/** What a request sends beside its method and URL. */
interface GraphRequestInit {
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** false: without the bearer token (pre-authenticated links). */
  auth?: boolean;
  /** 'manual': a redirect is answered as it is. */
  redirect?: 'manual';
}

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Graph's refusal as a GraphError: its status, code and message, Retry-After, the request ids Graph
 * answered with (for support) and, for a 403, the roles of the token refused (its diagnosis).
 */
async function errorOf(response: HttpAnswer, url: string, bearer: string | undefined): Promise<GraphError> {
  const text = await response.text().catch(() => '');
  let code = `http${response.status}`;
  let message = text.slice(0, 300) || response.statusText;
  let date: string | undefined;
  try {
    const body = JSON.parse(text) as {
      error?: { code?: string; message?: string; innerError?: { date?: string } } | string;
      error_description?: string;
    };
    if (typeof body.error === 'object') {
      code = body.error.code ?? code;
      message = body.error.message ?? message;
      date = typeof body.error.innerError?.date === 'string' ? body.error.innerError.date : undefined;
    } else if (typeof body.error === 'string') {
      code = body.error;
      message = body.error_description ?? message;
    }
  } catch {
    // not JSON
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const requestId = response.headers.get('request-id') ?? undefined;
  const clientRequestId = response.headers.get('client-request-id') ?? undefined;
  const roles = response.status === 403 && bearer ? tokenRoles(bearer) : undefined;
  return new GraphError(
    response.status,
    code,
    message,
    Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter : undefined,
    {
      host: new URL(url).host,
      said: message,
      ...(requestId ? { requestId } : {}),
      ...(clientRequestId ? { clientRequestId } : {}),
      ...(date ? { timestamp: date } : {}),
      ...(roles ? { roles } : {}),
    },
  );
}

/** One answer of a JSON batch, as its request alone would have been answered. */
interface BatchedAnswer {
  id?: unknown;
  status?: unknown;
  headers?: unknown;
  body?: unknown;
}

/**
 * An answer inside a batch read as an HTTP answer, so that it is judged as the same request alone
 * (errorOf, JSON): its headers by any case, its body as OData's JSON batch format writes it (JSON
 * for a JSON type, a string for text, base64url for other bytes).
 */
function batchedAnswer(inner: BatchedAnswer): HttpAnswer {
  const status = typeof inner.status === 'number' ? inner.status : 502;
  const given = typeof inner.headers === 'object' && inner.headers !== null ? inner.headers : {};
  const headers = new Map(Object.entries(given).map(([name, value]) => [name.toLowerCase(), String(value)]));
  const type = headers.get('content-type') ?? '';
  const { body } = inner;
  let bytes: Buffer;
  if (body === undefined || body === null) bytes = Buffer.alloc(0);
  else if (typeof body !== 'string' || /json/i.test(type)) bytes = Buffer.from(JSON.stringify(body));
  else if (/^text\/|[/+]xml\b|charset=/i.test(type)) bytes = Buffer.from(body, 'utf8');
  else bytes = Buffer.from(body, 'base64');
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText: STATUS_CODES[status] ?? '',
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null, has: (name) => headers.has(name.toLowerCase()) },
    text: async () => bytes.toString('utf8'),
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}

export function createGraphApi(connection: TenantGraphConnection, options: GraphClientOptions = {}): GraphApi {
  const base = connection.graphBaseUrl.replace(/\/$/, '');
  const tokens = options.tokens ?? createTokenSource(connection);
  const limit = new Semaphore(options.maxConcurrency ?? 4);
  const maxRetries = options.maxRetries ?? 5;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  /**
   * One request with retries; `url` is absolute (next and delta links) or relative to the base. The
   * listener of the work it is made in (a run) hears each retry, and once that the request is settled,
   * however it ends.
   */
  async function request(method: string, url: string, init: GraphRequestInit = {}): Promise<HttpAnswer> {
    const listener = retryListeners.getStore();
    let retried = false;
    try {
      return await attempts(method, url, init, (retry) => {
        retried = true;
        listener?.retrying(retry);
      });
    } finally {
      if (retried) listener?.settled();
    }
  }

  async function attempts(
    method: string,
    url: string,
    init: GraphRequestInit,
    retrying: (retry: GraphRetry) => void,
  ): Promise<HttpAnswer> {
    const target = url.startsWith('http') ? url : `${base}${url}`;
    for (let attempt = 0; ; attempt++) {
      let response: HttpAnswer | undefined;
      let failure: unknown;
      // A refused app registration is permanent: it is not retried.
      const bearer = init.auth === false ? undefined : await tokens.token();
      const auth: Record<string, string> = bearer ? { Authorization: `Bearer ${bearer}` } : {};
      try {
        response = await limit.run(() =>
          send(target, {
            method,
            headers: { ...auth, ...init.headers },
            ...(init.body !== undefined ? { body: init.body } : {}),
            ...(init.redirect ? { redirect: init.redirect } : {}),
          }),
        );
      } catch (error) {
        failure = error;
      }
      if (response?.ok) return response;
      if (init.redirect && response && REDIRECTS.has(response.status) && response.headers.has('location')) {
        return response;
      }
      const retryable = failure !== undefined || (response !== undefined && RETRY_STATUSES.has(response.status));
      if (!retryable || attempt >= maxRetries) {
        if (response) throw await errorOf(response, target, bearer);
        const host = new URL(target).host;
        // fetch (the test seam) says "fetch failed" and keeps the network's words as its cause.
        const said =
          failure instanceof Error
            ? failure.cause instanceof Error
              ? failure.cause.message
              : failure.message
            : String(failure);
        throw new GraphError(
          503,
          'networkError',
          `Microsoft Graph could not be reached at ${host}: ${said}`,
          undefined,
          { host, said },
          { cause: failure },
        );
      }
      const retryAfter = Number(response?.headers.get('retry-after'));
      await response?.arrayBuffer().catch(() => undefined);
      const backoff = Math.min(maxDelay, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
      const delayMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(maxDelay, retryAfter * 1000) : backoff;
      const retry = { url: target, status: response?.status ?? 0, attempt: attempt + 1, delayMs };
      options.onRetry?.(retry);
      retrying(retry);
      await sleep(delayMs);
    }
  }

  /**
   * GETs (relative to the base) in JSON batches of up to 20, one round trip per batch instead of one
   * per request, the batches in flight under the same bound as any request. Each answer is the
   * request's own, in the order asked. A request throttled or failed inside a batch (429, 502 to
   * 504) is sent again, with the others that were and without those answered, in a new batch after
   * the longest Retry-After (else the back-off), up to maxRetries; the batch itself is retried as any
   * request. The run's listener hears those retries as it hears a request's.
   */
  async function batchGet(
    reads: readonly { url: string; headers?: Record<string, string> }[],
  ): Promise<{ answer: HttpAnswer; url: string }[]> {
    const answers: { answer: HttpAnswer; url: string }[] = [];
    const chunks: number[][] = [];
    for (let start = 0; start < reads.length; start += BATCH_LIMIT) {
      chunks.push(reads.slice(start, start + BATCH_LIMIT).map((_read, n) => start + n));
    }
    const listener = retryListeners.getStore();
    let retried = false;
    try {
      await Promise.all(
        chunks.map(async (chunk) => {
          let pending = chunk;
          for (let attempt = 0; ; attempt++) {
            const requests = pending.map((i) => ({
              id: String(i),
              method: 'GET',
              url: reads[i]?.url ?? '',
              ...(reads[i]?.headers ? { headers: reads[i]?.headers } : {}),
            }));
            const response = await request('POST', '/$batch', {
              body: JSON.stringify({ requests }),
              headers: { 'Content-Type': 'application/json' },
            });
            const parsed = JSON.parse(await response.text()) as { responses?: BatchedAnswer[] };
            const byId = new Map((parsed.responses ?? []).map((r) => [String(r.id), r]));
            const again: number[] = [];
            for (const i of pending) {
              const inner = byId.get(String(i));
              if (!inner) {
                throw new GraphError(
                  502,
                  'invalidAnswer',
                  'Microsoft Graph answered a batch without the answer to one of its requests.',
                );
              }
              const answer = batchedAnswer(inner);
              answers[i] = { answer, url: `${base}${reads[i]?.url ?? ''}` };
              if (RETRY_STATUSES.has(answer.status)) again.push(i);
            }
            if (again.length === 0 || attempt >= maxRetries) return;
            const waits = again.map((i) => Number(answers[i]?.answer.headers.get('retry-after') ?? Number.NaN));
            const backoff = Math.min(maxDelay, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
            const delayMs = waits.every((w) => Number.isFinite(w) && w >= 0)
              ? Math.min(maxDelay, Math.max(...waits) * 1000)
              : backoff;
            for (const i of again) {
              const retry = {
                url: answers[i]?.url ?? '',
                status: answers[i]?.answer.status ?? 0,
                attempt: attempt + 1,
                delayMs,
              };
              options.onRetry?.(retry);
              retried = true;
              listener?.retrying(retry);
            }
            await sleep(delayMs);
            pending = again;
          }
        }),
      );
    } finally {
      if (retried) listener?.settled();
    }
    return answers;
  }

  /** The JSON body of a successful answer, as the read observer (if any) hands it on. */
  const answer = async <T>(method: string, url: string, response: HttpAnswer): Promise<T> => {
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : {};
    return (readObserver ? readObserver(method, url.startsWith('http') ? url : `${base}${url}`, parsed) : parsed) as T;
  };
  const json = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await request(
      method,
      url,
      body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
    );
    return answer<T>(method, url, response);
  };
  /**
   * Content: Graph answers `/content` with 302 to a pre-authenticated download link (SharePoint's
   * host, short-lived). The redirect is followed here rather than by the transport, so that the bearer token
   * never goes to that link, whatever host it names.
   */
  const bytes = async (url: string) => {
    const first = await request('GET', url, { redirect: 'manual' });
    const location = REDIRECTS.has(first.status) ? first.headers.get('location') : null;
    if (!location) return new Uint8Array(await first.arrayBuffer());
    await first.arrayBuffer().catch(() => undefined);
    const link = new URL(location, url.startsWith('http') ? url : `${base}${url}`).href;
    return new Uint8Array(await (await request('GET', link, { auth: false })).arrayBuffer());
  };

  /**
   * Several lists read at once: the first page of each in JSON batches (batchGet), the further pages
   * of any that has them followed one by one. A list Graph refuses fails the call with its GraphError,
   * as reading it alone would.
   */
  async function batchedLists<T>(urls: readonly string[]): Promise<T[][]> {
    const answered = await batchGet(urls.map((url) => ({ url })));
    return Promise.all(
      answered.map(async ({ answer: first, url }) => {
        if (!first.ok) throw await errorOf(first, url, first.status === 403 ? await tokens.token() : undefined);
        const page = await answer<{ value?: T[]; '@odata.nextLink'?: string }>('GET', url, first);
        const items = [...(page.value ?? [])];
        if (page['@odata.nextLink']) for await (const item of list<T>(page['@odata.nextLink'])) items.push(item);
        return items;
      }),
    );
  }

  async function* list<T>(url: string): AsyncGenerator<T> {
    let next: string | undefined = url;
    while (next) {
      const body: { value?: T[]; '@odata.nextLink'?: string } = await json('GET', next);
      for (const item of body.value ?? []) yield item;
      next = body['@odata.nextLink'];
    }
  }

  /**
   * A delta query from `deltaLink`, or in full from `url`. When Graph refuses the stored link with
   * 410 Gone (resyncRequired, resyncChangesApplyDifferences for drives; syncStateNotFound or
   * syncStateInvalid for mail: the token expired, or the service lost its state), the link is
   * forgotten and the resource read again in full from `url`, once; `resynced()` says so. Pages
   * yielded before the refusal come again: callers store items idempotently.
   */
  function deltaPages<T>(url: string, deltaLink?: string): DeltaPages<T> {
    let link: string | undefined;
    let resynced = false;
    return {
      deltaLink: () => link,
      resynced: () => resynced,
      async *[Symbol.asyncIterator]() {
        let next: string | undefined = deltaLink ?? url;
        while (next) {
          let body: { value?: T[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };
          try {
            body = await json('GET', next);
          } catch (error) {
            if (!(error instanceof GraphError && error.status === 410) || resynced || deltaLink === undefined)
              throw error;
            resynced = true;
            link = undefined;
            next = url;
            continue;
          }
          yield body.value ?? [];
          next = body['@odata.nextLink'];
          if (body['@odata.deltaLink']) link = body['@odata.deltaLink'];
        }
      },
    };
  }

  // "." and ".." survive encodeURIComponent and would walk up the Graph path (`/teams/../users`).
  const enc = (id: string) => {
    if (id === '.' || id === '..') {
      throw new GraphError(400, INVALID_GRAPH_ID, `"${id}" is not an id Microsoft Graph can take.`);
    }
    return encodeURIComponent(id);
  };
  const pathEnc = (path: string) => path.split('/').filter(Boolean).map(enc).join('/');

  return {
    organization: async () =>
      (await json<{ value?: Organization[] }>('GET', '/organization?$select=id,displayName,verifiedDomains'))
        .value?.[0],
    users: () => list<User>('/users?$select=id,userPrincipalName,displayName,mail'),
    userDrive: (userId) => json<Drive>('GET', `/users/${enc(userId)}/drive`),
    sites: () => list<Site>('/sites?search=*'),
    siteDrives: (siteId) => list<Drive>(`/sites/${enc(siteId)}/drives`),
    driveDelta: (driveId, link) => deltaPages<DriveItem>(`/drives/${enc(driveId)}/root/delta`, link),
    children: (driveId, itemId) => list<DriveItem>(`/drives/${enc(driveId)}/items/${enc(itemId)}/children`),
    item: (driveId, itemId) => json<DriveItem>('GET', `/drives/${enc(driveId)}/items/${enc(itemId)}`),
    async itemByPath(driveId, path) {
      try {
        return await json<DriveItem>('GET', `/drives/${enc(driveId)}/root:/${pathEnc(path)}`);
      } catch (error) {
        if (error instanceof GraphError && error.status === 404) return null;
        throw error;
      }
    },
    itemVersions: (driveId, itemId) => list<DriveItemVersion>(`/drives/${enc(driveId)}/items/${enc(itemId)}/versions`),
    itemContent: (driveId, itemId, versionId) =>
      bytes(`/drives/${enc(driveId)}/items/${enc(itemId)}${versionId ? `/versions/${enc(versionId)}` : ''}/content`),
    // Graph's largest page of directory objects (999; 100 without $top): one round trip for most tenants.
    groups: () =>
      list<Group>(
        '/groups?$select=id,displayName,mail,groupTypes,mailEnabled,securityEnabled,resourceProvisioningOptions&$top=999',
      ),
    groupMembers: (groupId) =>
      list<User>(`/groups/${enc(groupId)}/members/microsoft.graph.user?$select=id,displayName,userPrincipalName,mail`),
    // A count needs ConsistencyLevel: eventual (Graph refuses it otherwise) and answers plain text.
    async groupUserCounts(groupIds) {
      const ids = [...new Set(groupIds)];
      const reads = ids.map((id) => ({
        url: `/groups/${enc(id)}/members/microsoft.graph.user/$count`,
        headers: { ConsistencyLevel: 'eventual' },
      }));
      const answered = await batchGet(reads);
      const counts = new Map<string, number>();
      for (const [n, id] of ids.entries()) {
        const { answer, url } = answered[n] ?? { answer: batchedAnswer({}), url: `${base}${reads[n]?.url}` };
        // A refusal names the roles of the token refused, as one of a request alone does.
        if (!answer.ok) throw await errorOf(answer, url, answer.status === 403 ? await tokens.token() : undefined);
        const text = (await answer.text()).trim();
        const count = Number(text);
        if (!/^\d+$/.test(text) || !Number.isSafeInteger(count)) {
          throw new GraphError(
            502,
            'invalidAnswer',
            `Microsoft Graph answered a count that is not a number: "${text.slice(0, 40)}"`,
          );
        }
        counts.set(id, count);
      }
      return counts;
    },
    teams: () =>
      list<Group>(`/groups?$filter=${enc("resourceProvisioningOptions/Any(x:x eq 'Team')")}&$select=id,displayName`),
    groupRootSite: (groupId) => json<Site>('GET', `/groups/${enc(groupId)}/sites/root`),
    channels: (teamId) => list<Channel>(`/teams/${enc(teamId)}/channels`),
    async teamsChannels(teamIds) {
      const ids = [...new Set(teamIds)];
      const lists = await batchedLists<Channel>(ids.map((id) => `/teams/${enc(id)}/channels`));
      return new Map(ids.map((id, n) => [id, lists[n] ?? []]));
    },
    channelMessages: (teamId, channelId) =>
      list<ChatMessage>(`/teams/${enc(teamId)}/channels/${enc(channelId)}/messages`),
    messageReplies: (teamId, channelId, messageId) =>
      list<ChatMessage>(`/teams/${enc(teamId)}/channels/${enc(channelId)}/messages/${enc(messageId)}/replies`),
    // List chats takes $top (at most 50), $filter, $expand and $orderby only; $select is not supported.
    userChats: (userId) => list<Chat>(`/users/${enc(userId)}/chats?$top=50`),
    chatMembers: (chatId) => list<AadUserConversationMember>(`/chats/${enc(chatId)}/members`),
    chatMessages: (chatId) => list<ChatMessage>(`/chats/${enc(chatId)}/messages?$top=50`),
    async *mailFolders(userId) {
      const walk = async function* (url: string, parentPath: string): AsyncGenerator<MailFolder & { path: string }> {
        for await (const folder of list<MailFolder>(url)) {
          const path = parentPath ? `${parentPath}/${folder.displayName ?? ''}` : (folder.displayName ?? '');
          yield { ...folder, path };
          if ((folder.childFolderCount ?? 0) > 0) {
            yield* walk(`/users/${enc(userId)}/mailFolders/${enc(folder.id ?? '')}/childFolders`, path);
          }
        }
      };
      yield* walk(`/users/${enc(userId)}/mailFolders`, '');
    },
    messagesDelta: (userId, folderId, link) =>
      deltaPages<Message>(`/users/${enc(userId)}/mailFolders/${enc(folderId)}/messages/delta`, link),
    messageMime: (userId, messageId) => bytes(`/users/${enc(userId)}/messages/${enc(messageId)}/$value`),
    // Calendars, contacts and To Do of a mailbox: kept beside its mail by the Exchange archive.
    calendars: (userId) => list<Calendar>(`/users/${enc(userId)}/calendars`),
    calendarViewDelta: (userId, calendarId, window, link) =>
      deltaPages<Event>(
        `/users/${enc(userId)}/calendars/${enc(calendarId)}/calendarView/delta?startDateTime=${graphInstant(window.start)}&endDateTime=${graphInstant(window.end)}`,
        link,
      ),
    seriesMaster: (userId, eventId) =>
      json<Event>(
        'GET',
        `/users/${enc(userId)}/events/${enc(eventId)}?$select=${SERIES_MASTER_SELECT}&$expand=exceptionOccurrences`,
      ),
    eventAttachments: (userId, eventId) =>
      list<FileAttachment>(`/users/${enc(userId)}/events/${enc(eventId)}/attachments`),
    async *contactFolders(userId) {
      // A contact folder does not say how many child folders it has: each is asked for its own.
      const walk = async function* (url: string, parentPath: string): AsyncGenerator<ContactFolder & { path: string }> {
        for await (const folder of list<ContactFolder>(url)) {
          const path = parentPath ? `${parentPath}/${folder.displayName ?? ''}` : (folder.displayName ?? '');
          yield { ...folder, path };
          yield* walk(`/users/${enc(userId)}/contactFolders/${enc(folder.id ?? '')}/childFolders`, path);
        }
      };
      yield* walk(`/users/${enc(userId)}/contactFolders`, '');
    },
    contactsDelta: (userId, folderId, link) =>
      deltaPages<Contact>(`/users/${enc(userId)}/contactFolders/${enc(folderId)}/contacts/delta`, link),
    todoLists: (userId) => list<TodoTaskList>(`/users/${enc(userId)}/todo/lists`),
    tasksDelta: (userId, listId, link) =>
      deltaPages<TodoTask>(`/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/delta`, link),
    checklistItems: (userId, listId, taskId) =>
      list<ChecklistItem>(`/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/${enc(taskId)}/checklistItems`),
    // ——— Restore of calendars, contacts and To Do ———
    event: (userId, eventId) => orNull(json<Event>('GET', `/users/${enc(userId)}/events/${enc(eventId)}`)),
    eventInstances: (userId, eventId, window) =>
      list<Event>(
        `/users/${enc(userId)}/events/${enc(eventId)}/instances?startDateTime=${graphInstant(window.start)}&endDateTime=${graphInstant(window.end)}`,
      ),
    createCalendar: (userId, name) => json<Calendar>('POST', `/users/${enc(userId)}/calendars`, { name }),
    createEvent: (userId, calendarId, event) =>
      json<Event>('POST', `/users/${enc(userId)}/calendars/${enc(calendarId)}/events`, event),
    updateEvent: (userId, eventId, changes) =>
      json<Event>('PATCH', `/users/${enc(userId)}/events/${enc(eventId)}`, changes),
    async deleteEvent(userId, eventId) {
      await (await request('DELETE', `/users/${enc(userId)}/events/${enc(eventId)}`)).arrayBuffer();
    },
    async addEventAttachment(userId, eventId, file) {
      await json('POST', `/users/${enc(userId)}/events/${enc(eventId)}/attachments`, {
        '@odata.type': '#microsoft.graph.fileAttachment',
        name: file.name,
        contentType: file.contentType,
        isInline: file.isInline,
        contentBytes: Buffer.from(file.content).toString('base64'),
      });
    },
    createContactFolder: (userId, name) =>
      json<ContactFolder>('POST', `/users/${enc(userId)}/contactFolders`, { displayName: name }),
    contact: (userId, contactId) => orNull(json<Contact>('GET', `/users/${enc(userId)}/contacts/${enc(contactId)}`)),
    createContact: (userId, folderId, contact) =>
      json<Contact>('POST', `/users/${enc(userId)}/contactFolders/${enc(folderId)}/contacts`, contact),
    updateContact: (userId, contactId, changes) =>
      json<Contact>('PATCH', `/users/${enc(userId)}/contacts/${enc(contactId)}`, changes),
    createTodoList: (userId, name) =>
      json<TodoTaskList>('POST', `/users/${enc(userId)}/todo/lists`, { displayName: name }),
    todoTask: (userId, listId, taskId) =>
      orNull(json<TodoTask>('GET', `/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/${enc(taskId)}`)),
    createTodoTask: (userId, listId, task) =>
      json<TodoTask>('POST', `/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks`, task),
    updateTodoTask: (userId, listId, taskId, changes) =>
      json<TodoTask>('PATCH', `/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/${enc(taskId)}`, changes),
    createChecklistItem: (userId, listId, taskId, item) =>
      json<ChecklistItem>(
        'POST',
        `/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/${enc(taskId)}/checklistItems`,
        item,
      ),
    async deleteChecklistItem(userId, listId, taskId, itemId) {
      const url = `/users/${enc(userId)}/todo/lists/${enc(listId)}/tasks/${enc(taskId)}/checklistItems/${enc(itemId)}`;
      await (await request('DELETE', url)).arrayBuffer();
    },
    // ——— end of the restore of calendars, contacts and To Do ———
    createMailFolder: (userId, parentId, name) =>
      json<MailFolder>(
        'POST',
        parentId
          ? `/users/${enc(userId)}/mailFolders/${enc(parentId)}/childFolders`
          : `/users/${enc(userId)}/mailFolders`,
        { displayName: name },
      ),
    async importMessage(userId, folderId, mime) {
      // Graph takes a MIME message as base64 text (POST …/messages with Content-Type: text/plain).
      const url = `/users/${enc(userId)}/mailFolders/${enc(folderId)}/messages`;
      const response = await request('POST', url, {
        body: Buffer.from(mime).toString('base64'),
        headers: { 'Content-Type': 'text/plain' },
      });
      return answer<Message>('POST', url, response);
    },
    async uploadContent(driveId, parentId, name, content, conflict: ConflictBehavior) {
      const target = `/drives/${enc(driveId)}/items/${enc(parentId)}:/${enc(name)}:`;
      if (content.length <= SIMPLE_UPLOAD_LIMIT) {
        const url = `${target}/content?@microsoft.graph.conflictBehavior=${conflict}`;
        const response = await request('PUT', url, {
          body: new Uint8Array(content),
          headers: { 'Content-Type': 'application/octet-stream' },
        });
        return answer<DriveItem>('PUT', url, response);
      }
      const session = await json<{ uploadUrl: string }>('POST', `${target}/createUploadSession`, {
        item: { '@microsoft.graph.conflictBehavior': conflict },
      });
      let item: DriveItem = {};
      for (let start = 0; start < content.length; start += FRAGMENT) {
        const end = Math.min(content.length, start + FRAGMENT);
        // The upload URL is pre-authorised: it must not carry the bearer token.
        const response = await request('PUT', session.uploadUrl, {
          auth: false,
          body: new Uint8Array(content.subarray(start, end)),
          headers: { 'Content-Range': `bytes ${start}-${end - 1}/${content.length}` },
        });
        item = await answer<DriveItem>('PUT', session.uploadUrl, response);
      }
      return item;
    },
    createFolder: (driveId, parentId, name, conflict) =>
      json<DriveItem>('POST', `/drives/${enc(driveId)}/items/${enc(parentId)}/children`, {
        name,
        folder: {},
        '@microsoft.graph.conflictBehavior': conflict,
      }),
    async restoreVersion(driveId, itemId, versionId) {
      await (
        await request('POST', `/drives/${enc(driveId)}/items/${enc(itemId)}/versions/${enc(versionId)}/restoreVersion`)
      ).arrayBuffer();
    },
    itemPermissions: (driveId, itemId) => list<Permission>(`/drives/${enc(driveId)}/items/${enc(itemId)}/permissions`),
    async grantPermission(driveId, itemId, grant) {
      await json('POST', `/drives/${enc(driveId)}/items/${enc(itemId)}/invite`, {
        recipients: grant.userIds.map((objectId) => ({ objectId })),
        roles: grant.roles,
        requireSignIn: true,
        sendInvitation: false,
      });
    },
    async deleteVersion(driveId, itemId, versionId) {
      await (
        await request('DELETE', `/drives/${enc(driveId)}/items/${enc(itemId)}/versions/${enc(versionId)}`)
      ).arrayBuffer();
    },
    async *siteLists(siteId) {
      for await (const each of list<List>(`/sites/${enc(siteId)}/lists`)) {
        if (each.list?.hidden || each.list?.template === 'documentLibrary' || each.system) continue;
        yield each;
      }
    },
    listColumns: (siteId, listId) => list<ColumnDefinition>(`/sites/${enc(siteId)}/lists/${enc(listId)}/columns`),
    listContentTypes: (siteId, listId) => list<ContentType>(`/sites/${enc(siteId)}/lists/${enc(listId)}/contentTypes`),
    listItemsDelta: (siteId, listId, link) =>
      deltaPages<ListItem & { deleted?: Deleted }>(
        `/sites/${enc(siteId)}/lists/${enc(listId)}/items/delta?$expand=fields`,
        link,
      ),
    listItemVersions: (siteId, listId, itemId) =>
      list<ListItemVersion>(`/sites/${enc(siteId)}/lists/${enc(listId)}/items/${enc(itemId)}/versions?$expand=fields`),
    sitePages: (siteId) => list<SitePage>(`/sites/${enc(siteId)}/pages/microsoft.graph.sitePage`),
    sitePage: (siteId, pageId) =>
      json<SitePage>('GET', `/sites/${enc(siteId)}/pages/${enc(pageId)}/microsoft.graph.sitePage?$expand=canvasLayout`),

    // The writes a restore of a site's lists, list items and pages makes.
    createList: (siteId, each) =>
      json<List>('POST', `/sites/${enc(siteId)}/lists`, {
        displayName: each.displayName,
        description: each.description,
        columns: each.columns,
        list: { template: each.template },
      }),
    async listItem(siteId, listId, itemId) {
      try {
        return await json<ListItem>('GET', `/sites/${enc(siteId)}/lists/${enc(listId)}/items/${enc(itemId)}`);
      } catch (error) {
        if (error instanceof GraphError && error.status === 404) return null;
        throw error;
      }
    },
    createListItem: (siteId, listId, fields) =>
      json<ListItem>('POST', `/sites/${enc(siteId)}/lists/${enc(listId)}/items`, { fields }),
    async updateListItemFields(siteId, listId, itemId, fields) {
      await json('PATCH', `/sites/${enc(siteId)}/lists/${enc(listId)}/items/${enc(itemId)}/fields`, fields);
    },
    createSitePage: (siteId, page) =>
      json<SitePage>('POST', `/sites/${enc(siteId)}/pages`, { '@odata.type': '#microsoft.graph.sitePage', ...page }),
    async publishSitePage(siteId, pageId) {
      await (
        await request('POST', `/sites/${enc(siteId)}/pages/${enc(pageId)}/microsoft.graph.sitePage/publish`)
      ).arrayBuffer();
    },
  };
}
