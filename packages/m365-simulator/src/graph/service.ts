/**
 * Graph v1.0's dispatch: a request below /v1.0 goes to the first route that matches; its answer gets
 * what every Graph answer has: `@odata.context` (`{simulator}/v1.0/$metadata#users`, on the
 * simulator's own base so that the link resolves: `GET /v1.0/$metadata` answers the published CSDL),
 * `request-id` and `client-request-id` headers (the client's echoed, else a new GUID, in error bodies
 * too), and `$select`. With validation on, every JSON answer is checked against Graph's metadata.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GRAPH_METADATA_PATH } from '../metadata/check.js';
import { createValidator, type ValidationState, validationWanted } from '../metadata/validation.js';
import type { SimTenant } from '../model.js';
import { drivePathRule, type GraphAccess, permissionRefusal, ROUTE_PERMISSIONS } from '../permissions.js';
import { calendarRoutes } from './calendars.js';
import { contactRoutes } from './contacts.js';
import { directoryRoutes, userOf } from './directory.js';
import { download, drivePathCall, driveRoutes } from './drives.js';
import { listRoutes } from './lists.js';
import { mailRoutes } from './mail.js';
import { graphError, type SimRequest, type SimResponse } from './odata.js';
import { pageRoutes } from './pages.js';
import { expandText, parseExpand, QueryError, selectProperties } from './query.js';
import { type GraphContext, type GraphRoute, matchRoute } from './router.js';
import { teamsRoutes } from './teams.js';
import { todoRoutes } from './todo.js';

export const ROUTES: readonly GraphRoute[] = [
  ...directoryRoutes,
  ...teamsRoutes,
  ...mailRoutes,
  ...calendarRoutes,
  ...contactRoutes,
  ...todoRoutes,
  ...driveRoutes,
  ...listRoutes,
  ...pageRoutes,
];

/** The simulator's default page size: small, so that even a demo tenant's lists page. */
export const DEFAULT_PAGE_SIZE = 5;

export interface GraphServiceOptions {
  /** Check every JSON answer against Graph's metadata (default: M365_SIMULATOR_VALIDATE=1). */
  validate?: boolean;
  /** The tenants, for pre-authenticated download links (which carry no token). */
  tenant?: (tenantId: string) => SimTenant | undefined;
}

export interface GraphService {
  /**
   * A request below /v1.0 on behalf of a tenant (its token already checked), by an app with its
   * application permissions (`roles`) or by a signed-in user with their delegated ones (`scp`): a
   * route none of whose documented permissions the token holds answers Graph's 403. `/me…` is the
   * signed-in user's `/users/{id}…`.
   */
  graph(request: SimRequest, tenant: SimTenant, access: GraphAccess): Promise<SimResponse>;
  /** `/download/{link}`: a pre-authenticated content link; `segments` follow `download`. */
  download(request: SimRequest, segments: string[]): SimResponse;
  /** The figures of validation; null when it is off. */
  validation: ValidationState | null;
}

const quote = (key: string) => `('${key.replace(/'/g, "''")}')`;

/** The OData context path of a route's answer: `users('…')/drive`, `drives('…')/items`… */
function contextPath(pattern: readonly string[], params: Record<string, string>): string {
  let out = '';
  for (const part of pattern) {
    if (part.startsWith(':')) out += quote(params[part.slice(1)] ?? '');
    else out += `${out ? '/' : ''}${part}`;
  }
  return out;
}

/**
 * `@odata.context` for an answer: an entity set or navigation for a list, `…/$entity` for one entity
 * (the key of the last segment left out, as OData writes it), `(a,b)` after it with `$select`.
 */
function contextOf(path: string, json: Record<string, unknown>, select: string | null): string {
  if (path.startsWith('Collection(') || path.startsWith('microsoft.graph.')) return path;
  const list = Array.isArray(json.value);
  const base = list ? path : path.replace(/\('(?:[^']|'')*'\)$/, '');
  const selected = select
    ? `(${select
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .join(',')})`
    : '';
  return `${base}${selected}${list ? '' : '/$entity'}`;
}

/**
 * A request whose last segment called a function with parentheses (`…/delta()`, `…/delta(token='x')`)
 * as Graph reads it: the bare name, the arguments in the query; so its next and delta links, built from
 * the request, take Graph's usual form (`…/delta?token=…`).
 */
function asBareFunction(request: SimRequest, name: string, args: Record<string, string>): SimRequest {
  const query = new URLSearchParams(request.query);
  for (const [parameter, value] of Object.entries(args)) query.set(parameter, value);
  return { ...request, path: request.path.replace(/\/[^/]*$/, `/${name}`), query };
}

/** The navigation properties a request's `$expand` names (its routes refuse one they cannot expand). */
function expandedNames(query: URLSearchParams): string[] {
  const text = expandText(query);
  if (!text) return [];
  try {
    return parseExpand(text).map((e) => e.name);
  } catch (error) {
    if (error instanceof QueryError) return [];
    throw error;
  }
}

export function createGraphService(context: GraphContext, options: GraphServiceOptions = {}): GraphService {
  const validator = validationWanted(options.validate) ? createValidator() : undefined;
  let metadata: Buffer | undefined;

  /** `/users/{u}/drive/…` and `/sites/{s}/drive/…` are the drive's own paths (`/drives/{d}/…`). */
  function drivePath(path: string, tenant: SimTenant): string {
    const m = /^\/(users|sites)\/([^/]+)\/drive(\/.+)$/.exec(path);
    if (!m) return path;
    const key = decodeURIComponent(m[2] ?? '');
    const driveId =
      m[1] === 'users'
        ? userOf(tenant, key)?.driveId
        : tenant.sites.find((s) => s.id === key && !s.deleted)?.driveIds[0];
    return driveId ? `/drives/${encodeURIComponent(driveId)}${m[3]}` : path;
  }

  /**
   * A drive path with its path-addressing colons readable: the Kiota-based SDKs put an item's path in
   * the item id (`items/root:/a/b.txt:`) and their URI templates encode it (`root%3A%2Fa%2Fb.txt%3A`),
   * which Graph reads alike. Drive and item ids have no colon, so in a drive path only these do.
   */
  const addressedByPath = (path: string) => (path.startsWith('/drives/') ? path.replace(/%3A/gi, ':') : path);

  async function route(
    request: SimRequest,
    tenant: SimTenant,
    access: GraphAccess,
  ): Promise<{ response: SimResponse; context?: string; route?: string }> {
    let below = request.path.replace(/^\/v1\.0/, '');
    if (/^\/me(?:\/|$)/.test(below)) {
      // As Graph: /me names the signed-in user, whom an app-only token has not.
      if (access.kind === 'application') {
        return {
          response: graphError(400, 'BadRequest', '/me request is only valid with delegated authentication flow.'),
        };
      }
      below = `/users/${encodeURIComponent(access.userId)}${below.slice(3)}`;
    }
    const path = addressedByPath(drivePath(below, tenant));
    const signedIn = access.kind === 'delegated' ? tenant.users.find((u) => u.id === access.userId) : undefined;
    /** Whether a path's user or drive is the signed-in user's own (what User.Read, Mail.Read, Files.Read reach). */
    const owns = (params: Record<string, string>) =>
      signedIn !== undefined &&
      ((params.user !== undefined && userOf(tenant, params.user)?.id === signedIn.id) ||
        (params.drive !== undefined && params.drive === signedIn.driveId));
    if (path === '/$metadata' && request.method === 'GET') {
      metadata ??= readFileSync(GRAPH_METADATA_PATH);
      return { response: { status: 200, headers: { 'content-type': 'application/xml' }, bytes: metadata } };
    }
    // A path-addressed item (`/drives/{id}/root:/a/b:…`), as drivePathCall recognises it.
    if (path.startsWith('/drives/') && path.includes(':')) {
      const drive = decodeURIComponent(path.slice('/drives/'.length).split(/[/:]/)[0] ?? '');
      const refusal = permissionRefusal(drivePathRule(request.method), access, owns({ drive }));
      if (refusal) return { response: refusal };
    }
    const byPath = drivePathCall(request, tenant, path, context);
    if (byPath) {
      const { context: at, ...response } = byPath;
      return { response, ...(at ? { context: at } : {}) };
    }
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const matched = matchRoute(ROUTES, request.method, segments);
    if (!matched) {
      return { response: graphError(400, 'BadRequest', `Resource not found for the segment '${segments[0] ?? ''}'.`) };
    }
    const name = `${request.method} ${matched.route.pattern.join('/')}`;
    const rule = ROUTE_PERMISSIONS[name];
    if (!rule) throw new Error(`the route ${name} has no permissions (ROUTE_PERMISSIONS)`);
    const refusal = permissionRefusal(rule, access, owns(matched.params));
    if (refusal) return { response: refusal, route: name };
    const call = matched.functionArgs
      ? asBareFunction(request, matched.route.pattern[matched.route.pattern.length - 1] ?? '', matched.functionArgs)
      : request;
    const response = await matched.route.handle({
      request: call,
      tenant,
      path,
      segments,
      params: matched.params,
      context,
      access,
    });
    return {
      response,
      context: matched.route.context ?? contextPath(matched.route.pattern, matched.params),
      route: name,
    };
  }

  /** The request's ids on the answer: headers always, and the error body's innerError. */
  function stamp(request: SimRequest, response: SimResponse): SimResponse {
    const requestId = randomUUID();
    const clientRequestId = request.headers['client-request-id'] || requestId;
    const headers = { ...response.headers, 'request-id': requestId, 'client-request-id': clientRequestId };
    const json = response.json as { error?: { innerError?: Record<string, unknown> } } | undefined;
    if (json?.error?.innerError) {
      json.error.innerError['request-id'] = requestId;
      json.error.innerError['client-request-id'] = clientRequestId;
    }
    return { ...response, headers };
  }

  return {
    validation: validator?.state ?? null,
    async graph(request, tenant, access) {
      const { response, context: at, route: name } = await route(request, tenant, access);
      let answer = response;
      if (answer.status < 300 && answer.json !== undefined && at) {
        const json = answer.json as Record<string, unknown>;
        const select = request.method === 'GET' ? request.query.get('$select') : null;
        const expanded = expandedNames(request.query);
        const body = select
          ? Array.isArray(json.value)
            ? { ...json, value: json.value.map((row) => selectProperties(row, select, expanded)) }
            : (selectProperties(json, select, expanded) as Record<string, unknown>)
          : json;
        answer = {
          ...answer,
          json: { '@odata.context': `${context.baseUrl()}/v1.0/$metadata#${contextOf(at, body, select)}`, ...body },
        };
      }
      answer = stamp(request, answer);
      if (validator && answer.json !== undefined) {
        validator.record({
          method: request.method,
          path: request.path.replace(/^\/v1\.0/, ''),
          ...(name ? { route: name } : {}),
          status: answer.status,
          json: answer.json,
        });
      }
      return answer;
    },
    download(request, segments) {
      return download(request, segments, context, options.tenant ?? (() => undefined));
    },
  };
}
