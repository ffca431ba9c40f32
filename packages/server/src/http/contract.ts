import type { Readable } from 'node:stream';
import {
  type Access,
  type AnyEndpoint,
  type Api,
  type EndpointArgs,
  type EndpointId,
  type EndpointResult,
  endpoints,
  type JsonSchema,
} from '@compliance-portal/sdk';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Auth } from '../access/actor.js';
import { type ResolvedScope, resolveScope } from '../access/scope.js';
import type { AppContext } from '../context.js';
import { bearerChallenge, HttpError, notImplemented, unauthorized } from '../errors.js';

type EndpointOf<I extends EndpointId> = Extract<AnyEndpoint, { id: I }>;

export interface RequestContext {
  request: FastifyRequest;
  reply: FastifyReply;
  ip: string;
  /** The caller, on `signin` and `session` routes. */
  auth: Auth | null;
}
export interface SessionContext extends RequestContext {
  auth: Auth;
}

/**
 * A handler's arguments: as the SDK's, but path parameters come from the router as text (a client may
 * pass a number; the server always receives its string).
 */
type ServerArgs<E extends AnyEndpoint> = {
  [K in keyof EndpointArgs<E>]: [EndpointArgs<E>[K]] extends [string | number]
    ? string | number extends EndpointArgs<E>[K]
      ? string
      : EndpointArgs<E>[K]
    : EndpointArgs<E>[K];
};

/** A handler's answer: a download is sent as a stream, bytes or text; everything else as the SDK reads it. */
type ServerResult<E extends AnyEndpoint> = E['responseKind'] extends 'blob'
  ? Readable | Uint8Array | string
  : EndpointResult<E>;

/**
 * A handler's request context: on an endpoint of declared scope also the caller (`auth`, and `actor` as
 * services take it) and what the scope names, resolved and checked before the handler runs.
 */
type HandlerContext<E extends AnyEndpoint> = RequestContext &
  (E['scope'] extends undefined ? {} : { auth: Auth } & ResolvedScope<E['scope']>);

interface RouteDefinition<I extends EndpointId> {
  /** The handler validates the body itself, to answer with the identity contract's own error codes. */
  validateBody?: false;
  handler: (args: ServerArgs<EndpointOf<I>>, rc: HandlerContext<EndpointOf<I>>) => Promise<ServerResult<EndpointOf<I>>>;
}

/** A route definition as the registration loop calls it, its endpoint's types erased. */
interface AnyRouteDefinition {
  validateBody?: false;
  handler(args: unknown, rc: RequestContext): Promise<unknown>;
}

export type RouteTable = { [I in EndpointId]?: RouteDefinition<I> };

/** Declares a module's routes with their types checked against the catalogue. */
export function routes<T extends RouteTable>(table: T): T {
  return table;
}

/** The modules' route tables as one; an endpoint two modules implement is a mistake, refused here. */
export function mergeRouteTables(tables: readonly RouteTable[]): RouteTable {
  const merged: Record<string, unknown> = {};
  for (const table of tables) {
    for (const [id, definition] of Object.entries(table)) {
      if (Object.hasOwn(merged, id)) throw new Error(`two modules implement the endpoint ${id}`);
      merged[id] = definition;
    }
  }
  return merged as RouteTable;
}

/**
 * A copy of a catalogue schema for request validation. With type coercion on, Ajv would coerce a
 * null to "" in the first branch of `anyOf: [{type: 'string'}, {type: 'null'}]`; the null branch is
 * put first, so that null stays null.
 */
function plain<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    const anyOf = (value as { anyOf?: unknown } | null)?.anyOf;
    if (!Array.isArray(anyOf)) return value;
    const isNull = (s: unknown) => (s as { type?: unknown } | null)?.type === 'null';
    return { ...(value as object), anyOf: [...anyOf.filter(isNull), ...anyOf.filter((s) => !isNull(s))] };
  }) as T;
}

function pathParamsSchema(endpoint: AnyEndpoint) {
  const names = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  if (names.length === 0) return undefined;
  const given = (endpoint.params as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return {
    type: 'object',
    properties: Object.fromEntries(
      names.map((n) => [n, plain(given[n] ?? { type: 'string', minLength: 1, maxLength: 200 })]),
    ),
    required: names,
  };
}

/**
 * PostgreSQL refuses U+0000 in text, and an unpaired UTF-16 surrogate has no UTF-8 form: no string the
 * API accepts may hold either, in a path, a query or a body (keys included).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what is refused.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL or unpaired surrogate characters';

/** The JSON pointers (as validation errors name fields) of every string that cannot be stored. */
export function unstorableText(value: unknown, at: string, out: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) out.push(at);
  } else if (value && typeof value === 'object' && depth < 64) {
    for (const [key, item] of Object.entries(value)) {
      const path = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (UNSTORABLE.test(key)) out.push(path);
      unstorableText(item, path, out, depth + 1);
    }
  }
  return out;
}

/**
 * A validated body with only the members its schema names, as ASP.NET's model binding drops unknown
 * JSON members: nothing undocumented is stored, or echoed back in an answer. A union keeps the first
 * branch whose required members the value has, with their constants (`kind`).
 */
export function documentedOnly(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value))
    return schema.items ? value.map((item) => documentedOnly(schema.items as JsonSchema, item)) : value;
  if (!value || typeof value !== 'object') return value;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const record = value as Record<string, unknown>;
    const fits = (branch: JsonSchema) =>
      (branch.type === 'object' || branch.properties !== undefined) &&
      (branch.required ?? []).every((key) => Object.hasOwn(record, key)) &&
      Object.entries(branch.properties ?? {}).every(
        ([key, member]) => member.const === undefined || record[key] === member.const,
      );
    const branch = branches.find(fits);
    return branch ? documentedOnly(branch, value) : value;
  }
  if (!schema.properties || schema.additionalProperties !== undefined) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(schema.properties)) {
    if (Object.hasOwn(value, key)) out[key] = documentedOnly(member, (value as Record<string, unknown>)[key]);
  }
  return out;
}

export const RANGE_ORDER_MESSAGE = 'must not be before from';

/**
 * The fields (as validation errors name them) of a date range given backwards: a query or body whose
 * `to` is before its `from`. Such a range finds nothing; it is refused rather than answered empty, so a
 * caller learns its mistake (the web app shows "Must be greater or less than another field's value.").
 * Ranges inside members (a saved search in its case) are checked too.
 */
function reversedRanges(value: unknown, at: string, out: string[] = [], depth = 0): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 8) return out;
  const record = value as Record<string, unknown>;
  const { from, to } = record;
  if (typeof from === 'string' && typeof to === 'string') {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (Number.isFinite(start) && Number.isFinite(end) && start > end) out.push(`${at}/to`);
  }
  // A range inside a member too: a saved eDiscovery case holds its search.
  for (const [key, member] of Object.entries(record))
    if (member && typeof member === 'object') reversedRanges(member, `${at}/${key}`, out, depth + 1);
  return out;
}

function ajvFor(coerceTypes: 'array' | false): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, removeAdditional: false, useDefaults: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/**
 * Request validation: paths and queries arrive as text and are coerced to their schema's types (a lone
 * value to a one-item list); bodies are JSON and must have their types as they are.
 */
export function setContractValidation(app: FastifyInstance) {
  const textual = ajvFor('array');
  const json = ajvFor(false);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? json : textual).compile(schema as FastifySchema & object),
  );
}

function readToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return header.replace(/^Bearer\s+/i, '').trim() || undefined;
}

function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The paths each API's endpoints are served under: apollo's two stages and legacy. */
const API_PREFIXES = { apollo: ['/apollo-beta', '/apollo'], legacy: ['/api'] } as const satisfies Record<
  Api,
  readonly string[]
>;

/**
 * The API whose prefix a path is under, for a request no endpoint took (an unknown path, a URL the
 * router could not read): its refusal is written in that API's shape. Routed requests know their
 * endpoint (see `endpointOf`).
 */
export function apiUnderPath(url: string): Api | undefined {
  const path = url.split('?')[0] ?? '';
  const found = (Object.entries(API_PREFIXES) as [Api, readonly string[]][]).find(([, prefixes]) =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)),
  );
  return found?.[0];
}

/** The caller of each request, as its route's first hook resolved it (see `registerContract`). */
const callers = new WeakMap<FastifyRequest, Auth>();

/**
 * The caller a token names, or null: a session's token, or on `signin` endpoints also the short-lived
 * token of a password sign-in waiting for its second factor. Given by the application (identity keeps
 * the sessions), so that src/http imports no module.
 */
export type CallerResolver = (token: string, access: Exclude<Access, 'public'>) => Promise<Auth | null>;

/**
 * Registers every catalogue endpoint: apollo under /apollo-beta and /apollo, legacy under /api, with
 * the catalogue's schemas as request validation. Endpoints no module implements answer 501.
 */
export function registerContract(
  app: FastifyInstance,
  ctx: AppContext,
  table: RouteTable,
  resolveCaller: CallerResolver,
) {
  for (const endpoint of endpoints) {
    // The catalogue entry and its definition share `endpoint.id`: their types match, which TypeScript cannot see here.
    const definition = table[endpoint.id] as AnyRouteDefinition | undefined;
    const access = endpoint.access;
    const prefixes = API_PREFIXES[endpoint.api];
    const url = endpoint.path.replace(/\{([^}]+)\}/g, ':$1');
    const params = pathParamsSchema(endpoint);
    const schema = {
      ...(params ? { params } : {}),
      ...(endpoint.query ? { querystring: plain(endpoint.query) } : {}),
      ...(endpoint.body && endpoint.bodyType !== 'multipart' && definition?.validateBody !== false
        ? { body: plain(endpoint.body) }
        : {}),
    };

    /**
     * Who calls, settled before anything of the request is read: the application key on apollo, the
     * user's token where the endpoint needs one. It runs as the route's first hook (onRequest, before
     * the body is parsed and validated), so an anonymous or wrong-key caller gets 401, never a list of
     * the fields it got wrong; public endpoints go on to validate.
     */
    const authenticate = async (request: FastifyRequest) => {
      // An apollo endpoint of auth mode `none` (a link opened from a mail) cannot send the key.
      if (endpoint.api === 'apollo' && endpoint.auth !== 'none') {
        const key = request.headers['x-api-key'];
        if (typeof key !== 'string' || !safeEqual(key, ctx.config.apiKey)) {
          throw unauthorized('Unauthorized', 'A valid application API key is required.');
        }
      }
      if (access === 'public') return;
      const token = readToken(request);
      const auth = token ? await resolveCaller(token, access) : null;
      if (!auth) throw endpoint.api === 'apollo' ? bearerChallenge() : new HttpError(401, 'Unauthorized');
      callers.set(request, auth);
    };

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = callers.get(request) ?? null;
      if (!definition) throw notImplemented(`${endpoint.summary}: not available yet on this server`);
      const args = {
        ...(request.params as Record<string, unknown>),
        ...(endpoint.query ? { query: request.query } : {}),
        ...(endpoint.body
          ? {
              body:
                endpoint.bodyType === 'multipart' || definition.validateBody === false
                  ? request.body
                  : documentedOnly(endpoint.body as JsonSchema, request.body),
            }
          : {}),
      };
      const rc: RequestContext = { request, reply, ip: request.ip, auth };
      // The declared scope, resolved once for every handler: after authentication and validation (so a
      // stranger gets 401 and a malformed request 400 first), before anything of the handler runs.
      const scoped = endpoint.scope
        ? await resolveScope(
            ctx,
            endpoint.scope,
            { user: session(rc).auth.user, ip: request.ip },
            {
              params: request.params,
              query: request.query,
              body: args.body,
            },
          )
        : {};
      const result = await definition.handler(args, { ...rc, ...scoped });
      if (reply.sent) return reply;
      reply.code(endpoint.successStatus ?? 200);
      if (endpoint.responseKind === 'empty') return reply.send();
      if (endpoint.responseKind === 'text') return reply.type('text/plain; charset=utf-8').send(result);
      return reply.send(result);
    };

    for (const prefix of prefixes) {
      app.route({
        method: endpoint.method,
        url: `${prefix}${url}`,
        schema,
        onRequest: authenticate,
        preValidation: async (request) => {
          const bad = [
            ...unstorableText(request.params, 'params'),
            ...unstorableText(request.query, 'querystring'),
            ...(endpoint.bodyType === 'multipart' ? [] : unstorableText(request.body, 'body')),
          ];
          if (bad.length > 0) {
            throw new HttpError(400, 'Invalid request', {
              errors: Object.fromEntries(bad.map((field) => [field, [UNSTORABLE_TEXT_MESSAGE]])),
            });
          }
        },
        // After validation: a range's ends are valid date-times; in order too?
        preHandler: async (request) => {
          const reversed = [
            ...reversedRanges(request.query, 'querystring'),
            ...(endpoint.bodyType === 'multipart' ? [] : reversedRanges(request.body, 'body')),
          ];
          if (reversed.length > 0) {
            throw new HttpError(400, 'Invalid request', {
              errors: Object.fromEntries(reversed.map((field) => [field, [RANGE_ORDER_MESSAGE]])),
            });
          }
        },
        config: {
          endpoint: endpoint.id,
          api: endpoint.api,
          ...(endpoint.rateLimited ? { rateLimit: { max: ctx.config.authRateLimit, timeWindow: 60_000 } } : {}),
        },
        handler,
      });
    }
  }
}

/** Narrows a request context on a `session` route. */
export function session(rc: RequestContext): SessionContext {
  if (!rc.auth) throw new HttpError(401, 'Unauthorized');
  return rc as SessionContext;
}
