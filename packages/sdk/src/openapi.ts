/**
 * Builds the OpenAPI 3.1 document of both APIs from the endpoint catalogue. Apollo paths carry the
 * production and staging base paths as path-level servers; legacy paths the /api base.
 */
import { type AnyEndpoint, endpoints as catalogue } from './catalogue.js';
import type { Endpoint } from './core/endpoint.js';
import type { JsonSchema } from './core/schema.js';
import { apolloBasePaths, DEFAULT_API_KEY_HEADER, LEGACY_BASE_PATH } from './core/transport.js';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, unknown>>;
};

const problemDetails: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details; ValidationProblemDetails add errors.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};
const legacyError: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, errors: { type: 'object' } },
  required: ['message'],
};

/** Strips the builder's symbol marks and turns the schema into plain JSON. */
function plain(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

function parameters(endpoint: Endpoint): unknown[] {
  const out: unknown[] = [];
  const pathParams = endpoint.params?.properties ?? {};
  for (const [, name] of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
    if (!name) continue;
    out.push({ name, in: 'path', required: true, schema: plain(pathParams[name] ?? { type: 'string' }) });
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

function successResponse(endpoint: Endpoint): Record<string, unknown> {
  const status = String(endpoint.successStatus ?? 200);
  switch (endpoint.responseKind) {
    case 'empty':
      return { [status]: { description: 'Done; empty body.' } };
    case 'text':
      return { [status]: { description: 'Text.', content: { 'text/plain': { schema: { type: 'string' } } } } };
    case 'blob':
      return {
        [status]: {
          description: 'A file, named by Content-Disposition.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        },
      };
    default:
      return {
        [status]: {
          description: 'OK',
          content: { 'application/json': { schema: plain(endpoint.response ?? {}) } },
        },
      };
  }
}

function security(endpoint: Endpoint): unknown[] {
  if (endpoint.auth === 'none') return [];
  if (endpoint.auth === 'token') return [{ legacyToken: [] }];
  return [{ apiKey: [], bearer: [] }, { apiKey: [] }];
}

function operation(endpoint: Endpoint): Record<string, unknown> {
  const errorSchema = endpoint.api === 'apollo' ? problemDetails : legacyError;
  const errorType = endpoint.api === 'apollo' ? 'application/problem+json' : 'application/json';
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [`${endpoint.api}.${endpoint.resource}`],
    security: security(endpoint),
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
      default: { description: 'An error.', content: { [errorType]: { schema: errorSchema } } },
    },
  };
}

/** The OpenAPI 3.1 document for the given endpoints (default: the whole catalogue). */
export function buildOpenApi(endpoints: readonly (AnyEndpoint | Endpoint)[] = catalogue): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of endpoints) {
    const item = paths[endpoint.path] ?? {
      servers:
        endpoint.api === 'apollo'
          ? [
              { url: apolloBasePaths.production, description: 'apollo, production' },
              { url: apolloBasePaths.staging, description: 'apollo, staging' },
            ]
          : [{ url: LEGACY_BASE_PATH, description: 'legacy' }],
    };
    item[endpoint.method.toLowerCase()] = operation(endpoint);
    paths[endpoint.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance portal API',
      version: '1.0.0',
      description:
        'The apollo and legacy APIs of the compliance portal for Microsoft 365 backup, archive and data management.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/' }],
    tags: [...new Set(endpoints.map((e) => `${e.api}.${e.resource}`))].map((name) => ({ name })),
    paths,
    components: {
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
