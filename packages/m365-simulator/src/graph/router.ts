/**
 * Graph paths as a table: each resource module lists its routes (method and path pattern, `:name`
 * for one segment), and a request goes to the first that matches. A route whose last segment is a
 * bound function (`delta`) also matches OData's call form of it, `delta()` or `delta(token='…')`, which
 * the Kiota-based SDKs send and Graph answers as the bare name.
 */
import type { SimTenant } from '../model.js';
import type { GraphAccess } from '../permissions.js';
import type { Paging, SimRequest, SimResponse } from './odata.js';

/** An upload session a client writes fragments into. */
export interface UploadSession {
  driveId: string;
  /** The item the path starts from, the folders below it (made when the upload ends) and the file's name. */
  parentId: string;
  folders: string[];
  name: string;
  conflict: string;
  size: number;
  chunks: Buffer[];
  received: number;
}

/** What a route sees besides its request: the tenant of the token and the simulator's shared state. */
export interface GraphContext extends Paging {
  sessions: Map<string, UploadSession>;
  /** Signs pre-authenticated download links (random per simulator; set by the Graph service). */
  downloadKey?: Buffer;
}

export interface GraphCall {
  request: SimRequest;
  tenant: SimTenant;
  /** The path below /v1.0, e.g. /users/abc/drive. */
  path: string;
  /** The path's segments, decoded. */
  segments: string[];
  /** The values of the pattern's `:name` segments. */
  params: Record<string, string>;
  context: GraphContext;
  /**
   * Who calls, as the token says: an app by its roles, or a signed-in user (whom SharePoint records as an
   * item's author); a route may answer less to a lesser permission, as Graph does.
   */
  access: GraphAccess;
}

export interface GraphRoute {
  method: string;
  pattern: string[];
  handle(call: GraphCall): SimResponse | Promise<SimResponse>;
  /**
   * The answer's @odata.context after `$metadata#` when it is not the pattern's own (`users('…')/drive`),
   * e.g. `Collection(microsoft.graph.driveItem)` for a delta.
   */
  context?: string;
  /**
   * The last segment names a bound function taking these parameters: it matches the bare name and
   * the call form with parentheses, whose arguments the request then carries in its query.
   */
  functionParameters?: readonly string[];
}

/** What a route declares besides its handler. */
export interface RouteOptions {
  context?: string;
  functionParameters?: readonly string[];
}

/** One route, or the same handler under several patterns. */
export function route(
  method: string,
  patterns: string | string[],
  handle: GraphRoute['handle'],
  options: RouteOptions = {},
): GraphRoute[] {
  return (Array.isArray(patterns) ? patterns : [patterns]).map((pattern) => ({
    method,
    pattern: pattern.split('/').filter(Boolean),
    handle,
    ...(options.context ? { context: options.context } : {}),
    ...(options.functionParameters ? { functionParameters: options.functionParameters } : {}),
  }));
}

/**
 * A segment in OData's function call form: `name()`, `name(token='a''b')` (a string literal, quotes
 * doubled inside) or `name(token=abc)` (as OneDrive's documented delta links write it); undefined for
 * any other segment.
 */
function functionCall(segment: string): { name: string; args: Record<string, string> } | undefined {
  const m = /^([A-Za-z_][\w.]*)\((.*)\)$/s.exec(segment);
  if (!m) return undefined;
  const args: Record<string, string> = {};
  const text = m[2] ?? '';
  const argument = /\s*([A-Za-z_]\w*)\s*=\s*('(?:[^']|'')*'|[^,']*?)\s*(?:,|$)/y;
  while (argument.lastIndex < text.length) {
    const at = argument.lastIndex;
    const a = argument.exec(text);
    if (!a || argument.lastIndex === at) return undefined;
    const value = a[2] ?? '';
    args[a[1] ?? ''] = value.startsWith("'") ? value.slice(1, -1).replace(/''/g, "'") : value;
  }
  return { name: m[1] ?? '', args };
}

/** What a request matched: the route, its `:name` values, and a function's arguments if called with parentheses. */
interface RouteMatch {
  route: GraphRoute;
  params: Record<string, string>;
  /** Set when the last segment was a function in call form (`delta()`): its arguments, maybe none. */
  functionArgs?: Record<string, string>;
}

export function matchRoute(
  routes: readonly GraphRoute[],
  method: string,
  segments: readonly string[],
): RouteMatch | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method || candidate.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let functionArgs: Record<string, string> | undefined;
    const last = candidate.pattern.length - 1;
    const matches = candidate.pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = segment;
        return true;
      }
      if (part === segment) return true;
      const allowed = candidate.functionParameters;
      if (i !== last || !allowed) return false;
      const call = functionCall(segment);
      if (call?.name !== part || !Object.keys(call.args).every((name) => allowed.includes(name))) return false;
      functionArgs = call.args;
      return true;
    });
    if (matches) return { route: candidate, params, ...(functionArgs ? { functionArgs } : {}) };
  }
  return undefined;
}
