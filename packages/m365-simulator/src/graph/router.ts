/**
 * Graph paths as a table: each resource module lists its routes (method and path pattern, `:name`
 * for one segment), and a request goes to the first that matches.
 */
import type { SimTenant } from '../model.js';
import type { Paging, SimRequest, SimResponse } from './odata.js';

/** An upload session a client writes fragments into. */
export interface UploadSession {
  driveId: string;
  parentId: string;
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
}

/** One route, or the same handler under several patterns. */
export function route(
  method: string,
  patterns: string | string[],
  handle: GraphRoute['handle'],
  options: { context?: string } = {},
): GraphRoute[] {
  return (Array.isArray(patterns) ? patterns : [patterns]).map((pattern) => ({
    method,
    pattern: pattern.split('/').filter(Boolean),
    handle,
    ...(options.context ? { context: options.context } : {}),
  }));
}

export function matchRoute(
  routes: readonly GraphRoute[],
  method: string,
  segments: readonly string[],
): { route: GraphRoute; params: Record<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method || candidate.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = candidate.pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = segment;
        return true;
      }
      return part === segment;
    });
    if (matches) return { route: candidate, params };
  }
  return undefined;
}
