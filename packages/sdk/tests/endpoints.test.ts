import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { buildQuery } from '../src/core/transport.js';
import { type AnyEndpoint, createClient, type Endpoint, endpoints, type PortalClient } from '../src/index.js';
import { createHandlers } from '../src/testing/index.js';
import { createAjv } from './helpers/ajv.js';
import { sample } from './helpers/sample.js';
import { ORIGIN, useMswServer } from './helpers/server.js';

const API_KEY = 'app-key-123';
const TOKEN = 'user-token-456';

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}
const seen = new Map<string, Seen>();

function pathArgs(endpoint: Endpoint): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [, name] of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
    if (!name) continue;
    const schema = endpoint.params?.properties?.[name];
    args[name] = schema?.enum ? String(schema.enum[0]) : `${name} 1/x`;
  }
  return args;
}

function expectedPath(endpoint: Endpoint, args: Record<string, string>): string {
  const base = endpoint.api === 'apollo' ? '/apollo-beta' : '/api';
  return base + endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(args[name] ?? ''));
}

function responseFor(endpoint: Endpoint): Response {
  const status = endpoint.successStatus ?? 200;
  switch (endpoint.responseKind) {
    case 'empty':
      return new HttpResponse(null, { status });
    case 'text':
      return new HttpResponse('Thank you for confirming your email.', {
        status,
        headers: { 'Content-Type': 'text/plain' },
      });
    case 'blob':
      return new HttpResponse(new Blob(['file-bytes']), {
        status,
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="${endpoint.resource}.zip"`,
        },
      });
    default:
      return HttpResponse.json(sample(endpoint.response ?? {}) as object, { status });
  }
}

function methodFor(client: PortalClient, endpoint: AnyEndpoint) {
  const [api, resource, name] = endpoint.id.split('.') as [string, string, string];
  const group = (client as unknown as Record<string, Record<string, Record<string, unknown>>>)[api]?.[resource];
  const method = group?.[name];
  if (typeof method !== 'function') throw new Error(`No client method for ${endpoint.id}`);
  return method as (args?: unknown, options?: unknown) => Promise<unknown>;
}

const resolvers = Object.fromEntries(
  endpoints.map((endpoint) => [
    endpoint.id,
    async ({ request }: { request: Request }) => {
      const type = request.headers.get('content-type') ?? '';
      let body: unknown;
      if (type.startsWith('multipart/form-data')) {
        const form = await request.formData();
        body = Object.fromEntries(
          [...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]),
        );
      } else {
        const text = await request.text();
        body = text ? JSON.parse(text) : undefined;
      }
      seen.set(endpoint.id, { method: request.method, url: new URL(request.url), headers: request.headers, body });
      return responseFor(endpoint);
    },
  ]),
);
useMswServer(...createHandlers({ origin: ORIGIN, resolvers }));

describe('every endpoint, called once through its typed method', () => {
  const client = createClient({ origin: ORIGIN, apiKey: API_KEY, token: TOKEN });

  it.each(endpoints.map((e) => [e.id, e] as const))('%s', async (_id, endpoint) => {
    const params = pathArgs(endpoint);
    const query = endpoint.query ? (sample(endpoint.query) as Record<string, string | number | boolean>) : undefined;
    const body = endpoint.body ? sample(endpoint.body) : undefined;
    const result = await methodFor(
      client,
      endpoint,
    )({ ...params, ...(query ? { query } : {}), ...(body ? { body } : {}) });

    const request = seen.get(endpoint.id);
    expect(request, 'the request reached its handler').toBeDefined();
    if (!request) return;
    expect(request.method).toBe(endpoint.method);
    expect(request.url.pathname).toBe(expectedPath(endpoint, params));
    expect(request.url.search).toBe(buildQuery(query));

    if (endpoint.bodyType === 'multipart') {
      const expected = Object.fromEntries(
        Object.entries(body as Record<string, unknown>).map(([k, v]) => [
          k,
          v instanceof Blob ? `file:${k}` : String(v),
        ]),
      );
      expect(request.body).toEqual(expected);
      expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data/);
    } else {
      expect(request.body).toEqual(body === undefined ? undefined : JSON.parse(JSON.stringify(body)));
      expect(request.headers.get('content-type')).toBe('application/json');
    }

    expect(request.headers.get('cache-control')).toBe('no-cache');
    expect(request.headers.get('x-content-type-options')).toBe('nosniff');
    expect(request.headers.get('accept')).toContain('application/json');
    switch (endpoint.auth) {
      case 'apiKey':
        expect(request.headers.get('x-api-key')).toBe(API_KEY);
        expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
        break;
      case 'token':
        expect(request.headers.get('x-api-key')).toBeNull();
        expect(request.headers.get('authorization')).toBe(TOKEN);
        break;
      case 'none':
        expect(request.headers.get('x-api-key')).toBeNull();
        expect(request.headers.get('authorization')).toBeNull();
        break;
    }

    switch (endpoint.responseKind) {
      case 'empty':
        expect(result).toBeUndefined();
        break;
      case 'text':
        expect(result).toBe('Thank you for confirming your email.');
        break;
      case 'blob': {
        const download = result as { fileName: string; blob: Blob };
        expect(download.fileName).toBe(`${endpoint.resource}.zip`);
        expect(await download.blob.text()).toBe('file-bytes');
        break;
      }
      default:
        expect(result).toEqual(JSON.parse(JSON.stringify(sample(endpoint.response ?? {}))));
    }
  });
});

describe('the schemas', () => {
  const ajv = createAjv();
  it.each(endpoints.map((e) => [e.id, e] as const))('%s compiles under strict ajv and accepts its sample', (_id, e) => {
    for (const schema of [e.params, e.query, e.bodyType === 'multipart' ? undefined : e.body, e.response]) {
      if (!schema) continue;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema)));
      const value = JSON.parse(JSON.stringify(sample(schema)));
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe('the dashboard family', () => {
  it('is one method with typed application and view', async () => {
    const client = createClient({ origin: ORIGIN, apiKey: API_KEY, token: TOKEN });
    for (const application of ['onedrive', 'sharepoint', 'teams'] as const) {
      for (const view of ['basic', 'size', 'details'] as const) {
        await client.apollo.dashboards.application({ tenantId: 't1', application, view });
        expect(seen.get('apollo.dashboards.application')?.url.pathname).toBe(
          `/apollo-beta/api/t1/dashboard/${application}/${view}`,
        );
      }
    }
  });
});
