/**
 * Builds the OpenAPI 3.1 document of both APIs from the endpoint catalogue: one server, the portal's
 * origin, and full paths (apollo's under its production base path /apollo-beta, legacy's under /api),
 * as generators that ignore path-level servers (openapi-typescript with openapi-fetch, hey-api) need.
 *
 * @module
 */
import { type AnyEndpoint, endpoints as catalogue } from './catalogue.js';
import { errorTexts } from './core/codes.js';
import type { Endpoint } from './core/endpoint.js';
import type { JsonSchema } from './core/schema.js';
import { apolloBasePaths, DEFAULT_API_KEY_HEADER, LEGACY_BASE_PATH } from './core/transport.js';
import { Microsoft365Failure } from './resources/apollo/configuration.js';

/** An OpenAPI 3.1 document, as {@link buildOpenApi} returns it (and as the package's openapi.json holds it). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, unknown>>;
};

const codes: JsonSchema = {
  type: 'string',
  enum: Object.keys(errorTexts),
  description: "The machine-readable code of a refusal a client acts on (see the SDK's errorTexts).",
};
const fieldErrors: JsonSchema = {
  type: 'object',
  description: 'Messages by field: a JSON pointer such as /body/email (or an identity error code on apollo).',
  additionalProperties: { type: 'array', items: { type: 'string' } },
};
// A reference with a description beside it, as OpenAPI 3.1 allows; the builder's type has no $ref.
const microsoft365Ref = {
  $ref: '#/components/schemas/Microsoft365Failure',
  description:
    "On a failure of Microsoft 365 behind the call (502): its cause, the same as code, and Microsoft's details.",
} as JsonSchema;
const problemDetails: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details; ValidationProblemDetails add errors.',
  properties: {
    type: { type: 'string', description: 'A link to the HTTP status of the refusal.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: fieldErrors,
    code: codes,
    message: { type: 'string', description: 'The refusal in words the user should read (403, 409, 502).' },
    microsoft365: microsoft365Ref,
    traceId: { type: 'string', description: 'The request id, as in the request-id header and the server log.' },
  },
  required: ['title', 'status', 'traceId'],
  additionalProperties: false,
};
const legacyError: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, code: codes, errors: fieldErrors, microsoft365: microsoft365Ref },
  required: ['message'],
  additionalProperties: false,
};

/** Strips the builder's symbol marks and turns the schema into plain JSON. */
function plain(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** An answer's schema with every object closed: the server sends no member it does not document. */
function closed(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const object = value as JsonSchema;
    const isObject = object.type === 'object' || (object.properties !== undefined && object.type === undefined);
    return isObject && object.additionalProperties === undefined && object.properties
      ? { ...object, additionalProperties: false }
      : value;
  }) as JsonSchema;
}

/** Each resource group as integrators meet it (the OpenAPI tags). */
const tagDescriptions: Readonly<Record<string, string>> = {
  'apollo.auth':
    "Accounts and sign-in: ASP.NET Core Identity's endpoints (register, login with an authenticator code, refresh, confirmation, password reset, two-factor settings).",
  'apollo.tenants': 'The Microsoft 365 tenants of an organisation: connect, change, remove, provision.',
  'apollo.jobs': "A tenant's backup, restore, archive and clean-up jobs: create, change, start, stop, remove.",
  'apollo.locations': "A tenant's storage locations, where backups and archives are kept.",
  'apollo.monitoring': 'Runs of jobs as they happen: status, progress, item failures.',
  'apollo.reporting': 'Finished runs as reports, with their items, to read and export.',
  'apollo.discovery': 'What a tenant holds: accounts, sites, teams and groups, and the children of a backed-up node.',
  'apollo.dashboards': "Figures of a tenant's backups and archives per workload.",
  'apollo.configuration': "A tenant's Microsoft 365 connection and the connection test.",
  'apollo.audit': 'The audit log of who did what, its export, and its verification against the hash chain.',
  'apollo.ediscovery': 'Search the mail archive, keep searches as cases and export them.',
  'apollo.dataManagement': 'SharePoint file versions: browse libraries, preview and run version clean-ups.',
  'apollo.archive': "Browse the archive: a mailbox's mail by folder, one item, Teams channels and chats threaded.",
  'apollo.support': 'Support requests to the service desk.',
  'legacy.auth': 'Portal sign-in: password, then an authenticator app (QR setup or a code) or a recovery code.',
  'legacy.workers': 'Organisations, partners and their clients, workers and backup figures.',
  'legacy.locations': 'Storage locations as the backup and archive workers see them.',
  'legacy.email': 'The mail archive: restore, download, figures and the archive worker.',
  'legacy.teams': 'Teams and chats in the archive: lists, filters and messages.',
  'legacy.jobs': 'Jobs as the portal runs them: start, stop, remove, restore downloads.',
  'legacy.files': "The organisation's documents (PDF): upload, list, download, remove.",
  'legacy.mailboxes': 'Archived mailboxes and their export.',
  'legacy.proxyRights': "Who may read whose mail archive, besides the mailbox's owner.",
  'legacy.user': 'Users of an organisation: invite, change, deactivate, remove.',
  'legacy.sessions': "The caller's own signed-in sessions, and signing one of them out.",
  'legacy.invitations': "An invitation link's page: who is invited, and accepting with a password.",
};

/** Path parameters that mean the same wherever they appear. */
const parameterDescriptions: Readonly<Record<string, string>> = {
  tenantId:
    'The Microsoft Entra tenant ID, a GUID: it never equals a literal segment such as Tenants, so /api/{tenantId}/... and /api/Tenants/... do not overlap.',
  jobId: 'A job id, as the job list gives it.',
  locationId: 'A storage location id.',
  taskId: 'A provisioning task id, as provision and deprovision answer.',
  workerIp: "The organisation's worker, as /client gives it.",
};

function parameters(endpoint: Endpoint): unknown[] {
  const out: unknown[] = [];
  const pathParams = endpoint.params?.properties ?? {};
  for (const [, name] of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
    if (!name) continue;
    const description = parameterDescriptions[name];
    out.push({
      name,
      in: 'path',
      required: true,
      ...(description ? { description } : {}),
      schema: plain(pathParams[name] ?? { type: 'string' }),
    });
  }
  const query = endpoint.query;
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    out.push({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema: plain(schema),
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    });
  }
  return out;
}

const requestIdHeader = { 'request-id': { $ref: '#/components/headers/RequestId' } };
const problemDetailsRef = { $ref: '#/components/schemas/ProblemDetails' };
const legacyErrorRef = { $ref: '#/components/schemas/LegacyError' };

function successResponse(endpoint: Endpoint): Record<string, unknown> {
  const status = String(endpoint.successStatus ?? 200);
  switch (endpoint.responseKind) {
    case 'empty':
      return { [status]: { description: 'Done; empty body.', headers: requestIdHeader } };
    case 'text':
      return {
        [status]: {
          description: 'Text.',
          headers: requestIdHeader,
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      };
    case 'blob': {
      const types = endpoint.contentTypes ?? ['application/octet-stream'];
      return {
        [status]: {
          description: `A file (${types.join(' or ')}), named by Content-Disposition.`,
          headers: { ...requestIdHeader, 'Content-Disposition': { schema: { type: 'string' } } },
          content: Object.fromEntries(
            types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
          ),
        },
      };
    }
    default:
      return {
        [status]: {
          description: 'OK',
          headers: requestIdHeader,
          content: { 'application/json': { schema: closed(plain(endpoint.response ?? {})) } },
        },
      };
  }
}

/** What the server enforces: the key alone on public apollo calls, the key and the user's token on the rest. */
function security(endpoint: Endpoint): unknown[] {
  if (endpoint.auth === 'none') return [];
  if (endpoint.auth === 'token') return [{ legacyToken: [] }];
  return endpoint.access === 'public' ? [{ apiKey: [] }] : [{ apiKey: [], bearer: [] }];
}

function hasPathParameters(endpoint: Endpoint): boolean {
  return endpoint.path.includes('{');
}

/** The refusals an operation may answer with, each with its real body. */
function errorResponses(endpoint: Endpoint): Record<string, unknown> {
  const apollo = endpoint.api === 'apollo';
  const refusal = (description: string, headers: Record<string, unknown> = {}) => ({
    description,
    headers: { ...requestIdHeader, ...headers },
    content: apollo
      ? { 'application/problem+json': { schema: problemDetailsRef } }
      : { 'application/json': { schema: legacyErrorRef } },
  });
  const out: Record<string, unknown> = {};
  const user = endpoint.access !== 'public';
  // The server reads the body of every request but a GET, whether the operation takes one or not: JSON
  // that does not parse, too much of it, or a media type it does not read is refused before anything else.
  const readsBody = endpoint.method !== 'GET';
  if (endpoint.params || endpoint.query || endpoint.body || hasPathParameters(endpoint) || readsBody) {
    out['400'] = refusal(
      'The request is invalid: field errors in errors, by JSON pointer (/body/email); or the body sent is not valid JSON.',
    );
  }
  const unauthorized = credentialsRefusal(endpoint, refusal);
  if (unauthorized) out['401'] = unauthorized;
  const forbidden = 'The caller may not do this, or not for this tenant or organisation.';
  const missing = 'What the request names does not exist, or the caller cannot see it.';
  if (user) out['403'] = refusal(endpoint.refusals?.[403] ? `${forbidden} ${endpoint.refusals[403]}` : forbidden);
  if (user || hasPathParameters(endpoint))
    out['404'] = refusal(endpoint.refusals?.[404] ? `${missing} ${endpoint.refusals[404]}` : missing);
  if (endpoint.refusals?.[409]) out['409'] = refusal(endpoint.refusals[409]);
  if (readsBody) out['413'] = refusal('The body is larger than the server accepts.');
  if (hasPathParameters(endpoint)) out['414'] = refusal('A path parameter is longer than the server accepts.');
  if (readsBody) {
    out['415'] = refusal(
      endpoint.body
        ? `The body is not ${endpoint.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json'}.`
        : 'A body of another media type than application/json (the operation takes none).',
    );
  }
  if (endpoint.rateLimited || endpoint.refusals?.[429]) {
    out['429'] = refusal(
      endpoint.refusals?.[429] ?? 'Too many requests from this address in a minute; wait and try again.',
      endpoint.rateLimited ? { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } : {},
    );
  }
  return out;
}

/** A challenge header, on the 401s that come with an empty body and `WWW-Authenticate: Bearer`. */
const bearerChallenge = (when: string) => ({
  'WWW-Authenticate': { description: `Bearer, ${when}.`, schema: { type: 'string', const: 'Bearer' } },
});

/**
 * The 401 of an operation, or none: no user token on apollo is ASP.NET's bearer challenge (an empty
 * body), a missing or wrong application key problem details; the identity endpoints' own credential
 * refusals come as ASP.NET answers them (`emptyBody401`); legacy refuses in its `{message}`.
 */
function credentialsRefusal(
  endpoint: Endpoint,
  refusal: (description: string, headers?: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> | undefined {
  const own = endpoint.refusals?.[401];
  const user = endpoint.access !== 'public';
  if (endpoint.api === 'legacy') {
    if (own) return refusal(own);
    if (!user) return undefined;
    return refusal(
      endpoint.access === 'signin'
        ? 'No valid sign-in token (of a password sign-in waiting for its second factor) or session.'
        : 'No valid session token.',
    );
  }
  // A link opened from a mail sends no application key: its refusal is the only 401.
  if (endpoint.auth === 'none') {
    if (!own) return undefined;
    return endpoint.refusals?.emptyBody401
      ? { description: `${own} An empty body.`, headers: requestIdHeader }
      : refusal(own);
  }
  const key = 'A missing or wrong application key: problem details.';
  if (user) {
    return refusal(
      `${own ? `${own} ` : ''}No valid user token: an empty body with WWW-Authenticate: Bearer. ${key}`,
      bearerChallenge('when the user token is missing or not valid (the body is then empty)'),
    );
  }
  if (!own) return refusal(key);
  if (endpoint.refusals?.emptyBody401 === 'challenge') {
    return refusal(
      `${own} Then an empty body with WWW-Authenticate: Bearer. ${key}`,
      bearerChallenge('when the credential the body carries is refused (the body is then empty)'),
    );
  }
  return refusal(`${own} ${key}`);
}

function operation(endpoint: Endpoint): Record<string, unknown> {
  const errorSchema = endpoint.api === 'apollo' ? problemDetailsRef : legacyErrorRef;
  const errorType = endpoint.api === 'apollo' ? 'application/problem+json' : 'application/json';
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [`${endpoint.api}.${endpoint.resource}`],
    security: security(endpoint),
    // What the server resolves before the handler: the tenant or worker a parameter names (refused with 404
    // when the caller may not act for it), or `caller`.
    ...(endpoint.scope ? { 'x-scope': endpoint.scope } : {}),
    parameters: parameters(endpoint),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: {
              [endpoint.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json']: {
                schema: plain(endpoint.body),
              },
            },
          },
        }
      : {}),
    responses: {
      ...successResponse(endpoint),
      ...errorResponses(endpoint),
      default: {
        description:
          'A failure of the server (500), of Microsoft 365 or the mail server behind it (502), or not available here (501).',
        content: { [errorType]: { schema: errorSchema } },
      },
    },
  };
}

/**
 * Error answers that several operations share move to components.responses (named by API and
 * status, `apollo-404`, then `apollo-401-2`...), and the operations refer to them.
 */
function shareResponses(paths: OpenApiDocument['paths']): Record<string, unknown> {
  const operations = Object.values(paths).flatMap((item) =>
    Object.values(item).map((op) => op as { tags: string[]; responses: Record<string, unknown> }),
  );
  const uses = new Map<string, number>();
  for (const op of operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (!/^[45]/.test(status)) continue;
      const key = JSON.stringify(response);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  const shared: Record<string, unknown> = {};
  for (const op of operations) {
    const api = op.tags[0]?.split('.')[0] ?? 'api';
    for (const [status, response] of Object.entries(op.responses)) {
      const key = JSON.stringify(response);
      if (!/^[45]/.test(status) || (uses.get(key) ?? 0) < 2) continue;
      let name = names.get(key);
      if (!name) {
        const base = `${api}-${status}`;
        name = base;
        for (let n = 2; shared[name] !== undefined; n++) name = `${base}-${n}`;
        names.set(key, name);
        shared[name] = response;
      }
      op.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return shared;
}

/** What the staging deployment serves, said once in the document instead of every path twice. */
const STAGING_NOTE = `The staging deployment serves the same apollo operations under ${apolloBasePaths.staging} instead of ${apolloBasePaths.production} (replace the prefix, for example in a client middleware); the legacy paths are the same in both.`;

/** An endpoint's path in the document: its template under its API's base path (production's, for apollo). */
function documentPath(endpoint: AnyEndpoint | Endpoint): string {
  return `${endpoint.api === 'apollo' ? apolloBasePaths.production : LEGACY_BASE_PATH}${endpoint.path}`;
}

/** The OpenAPI 3.1 document for the given endpoints (default: the whole catalogue). */
export function buildOpenApi(endpoints: readonly (AnyEndpoint | Endpoint)[] = catalogue): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of endpoints) {
    const path = documentPath(endpoint);
    const item = paths[path] ?? {};
    item[endpoint.method.toLowerCase()] = operation(endpoint);
    paths[path] = item;
  }
  const responses = shareResponses(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance portal API',
      version: '1.0.0',
      description: [
        'The apollo and legacy APIs of the compliance portal for Microsoft 365 backup, archive and data management.',
        '',
        `Every path is written in full from the portal's origin, the one server: apollo's under its production base path ${apolloBasePaths.production}, legacy's under ${LEGACY_BASE_PATH}. ${STAGING_NOTE}`,
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [
      {
        url: '/',
        description: `The portal's origin (a client's base URL, such as https://portal.example.com). ${STAGING_NOTE}`,
      },
    ],
    tags: [...new Set(endpoints.map((e) => `${e.api}.${e.resource}`))].map((name) => ({
      name,
      ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}),
    })),
    paths,
    components: {
      schemas: {
        ProblemDetails: problemDetails,
        LegacyError: legacyError,
        Microsoft365Failure: closed(plain(Microsoft365Failure)),
      },
      responses,
      headers: {
        RequestId: {
          description: 'A random id of this request, also in the server log (and the traceId of problem details).',
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: DEFAULT_API_KEY_HEADER,
          description: 'Identifies the application; never enough on its own to read or change data.',
        },
        bearer: { type: 'http', scheme: 'bearer', description: "The signed-in user's access token." },
        legacyToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: "The signed-in user's token, sent as it is.",
        },
      },
    },
  };
}
