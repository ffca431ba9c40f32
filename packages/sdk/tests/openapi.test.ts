import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../src/index.js';
import { buildOpenApi } from '../src/openapi.js';

const checkedIn = JSON.parse(readFileSync(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8'));

describe('OpenAPI document', () => {
  const document = buildOpenApi();

  it('is checked in and current (run `pnpm --filter @compliance-portal/sdk openapi` after a contract change)', () => {
    expect(checkedIn).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per catalogue endpoint, named by its id', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(ids.sort()).toEqual(endpoints.map((e) => e.id).sort());
  });

  it('has one server, the origin, and full paths: apollo under /apollo-beta, legacy under /api', () => {
    // Generators such as openapi-typescript with openapi-fetch ignore path-level servers: a client given
    // the portal's origin must find every operation by its path alone.
    expect(document.servers).toEqual([{ url: '/', description: expect.stringContaining("portal's origin") }]);
    const byPath = new Map<string, string>();
    for (const [path, item] of Object.entries(document.paths)) {
      expect(
        Object.keys(item).every((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)),
        path,
      ).toBe(true);
      for (const op of Object.values(item)) byPath.set((op as { operationId: string }).operationId, path);
    }
    for (const endpoint of endpoints) {
      const base = endpoint.api === 'apollo' ? '/apollo-beta' : '/api';
      expect(byPath.get(endpoint.id), endpoint.id).toBe(`${base}${endpoint.path}`);
    }
    expect(document.paths['/apollo-beta/login']?.post).toBeDefined();
    expect(document.paths['/api/auth/signin']?.post).toBeDefined();
    // The staging deployment's base path, said once rather than every path twice.
    const staging = 'serves the same apollo operations under /apollo instead of /apollo-beta';
    expect((document.info as { description: string }).description).toContain(staging);
    expect((document.servers as { description: string }[])[0]?.description).toContain(staging);
  });

  type Operation = {
    operationId: string;
    security: Record<string, string[]>[];
    responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
  };
  const operations = () => Object.values(document.paths).flatMap((item) => Object.values(item) as Operation[]);
  const byId = new Map(endpoints.map((e) => [e.id as string, e]));
  const components = document.components as { responses: Record<string, Operation['responses'][string]> };
  const response = (op: Operation, status: string) => {
    const found = op.responses[status];
    return found?.$ref ? components.responses[found.$ref.replace('#/components/responses/', '')] : found;
  };

  it('declares the security the server enforces: the key and the user token, the key alone only where no user is needed', () => {
    for (const op of operations()) {
      const endpoint = byId.get(op.operationId);
      const names = op.security.map((requirement) => Object.keys(requirement).sort().join('+'));
      if (endpoint?.auth === 'none') expect(names, op.operationId).toEqual([]);
      else if (endpoint?.api === 'legacy') expect(names, op.operationId).toEqual(['legacyToken']);
      else if (endpoint?.access === 'public') expect(names, op.operationId).toEqual(['apiKey']);
      else expect(names, op.operationId).toEqual(['apiKey+bearer']);
    }
    const login = operations().find((op) => op.operationId === 'apollo.auth.login');
    expect(login?.security).toEqual([{ apiKey: [] }]);
    const jobs = operations().find((op) => op.operationId === 'apollo.jobs.list');
    expect(jobs?.security).toEqual([{ apiKey: [], bearer: [] }]);
  });

  it('documents the media types downloads are sent with', () => {
    const types = (id: string) =>
      Object.keys(operations().find((op) => op.operationId === id)?.responses['200']?.content ?? {});
    expect(types('apollo.ediscovery.exportCase')).toEqual(['application/zip']);
    expect(types('legacy.email.fullRestoreDownload')).toEqual(['message/rfc822', 'application/zip']);
    expect(types('legacy.files.download')).toEqual(['application/pdf']);
    expect(types('legacy.mailboxes.downloadCsv')).toEqual(['text/csv']);
    expect(JSON.stringify(operations().map((op) => op.responses))).not.toContain('application/octet-stream');
  });

  it('documents refusals with their bodies: problem details on apollo, {message} on legacy', () => {
    for (const op of operations()) {
      const endpoint = byId.get(op.operationId);
      const refusals = Object.keys(op.responses).filter((status) => /^4/.test(status));
      expect(refusals.length, op.operationId).toBeGreaterThan(0);
      if (endpoint?.access === 'session')
        expect(refusals, op.operationId).toEqual(expect.arrayContaining(['401', '403', '404']));
      if (endpoint?.refusals?.[409]) expect(refusals, op.operationId).toContain('409');
      if (endpoint?.rateLimited) expect(refusals, op.operationId).toContain('429');
      for (const status of refusals) {
        const content = response(op, status)?.content ?? {};
        // The mailed confirmation link is refused with ASP.NET's bare 401.
        if (endpoint?.refusals?.emptyBody401 === 'empty' && status === '401') {
          expect(content).toEqual({});
          continue;
        }
        expect(Object.keys(content), `${op.operationId} ${status}`).toEqual([
          endpoint?.api === 'apollo' ? 'application/problem+json' : 'application/json',
        ]);
      }
    }
    const unauthorised = response(operations().find((op) => op.operationId === 'apollo.jobs.list') as Operation, '401');
    expect(JSON.stringify(unauthorised)).toContain('WWW-Authenticate');
  });

  it('documents the 401s as the server sends them: an empty body with a Bearer challenge where a token or refresh token is refused', () => {
    const unauthorised = (id: string) =>
      response(operations().find((op) => op.operationId === id) as Operation, '401') as {
        description: string;
        headers?: Record<string, { schema?: unknown }>;
        content?: Record<string, unknown>;
      };
    const challenge = { type: 'string', const: 'Bearer' };
    for (const op of operations()) {
      const endpoint = byId.get(op.operationId);
      const answer = unauthorised(op.operationId);
      const named = answer?.headers?.['WWW-Authenticate']?.schema;
      // Exactly where the server challenges: a user token missing or refused, a refresh token refused.
      const challenges =
        endpoint?.api === 'apollo' && (endpoint.access !== 'public' || endpoint.refusals?.emptyBody401 === 'challenge');
      expect(named, op.operationId).toEqual(challenges ? challenge : undefined);
    }
    // ASP.NET Identity's /refresh: TypedResults.Challenge(), an empty body; a wrong key is problem details.
    const refresh = unauthorised('apollo.auth.refresh');
    expect(refresh.description).toContain('empty body with WWW-Authenticate: Bearer');
    expect(Object.keys(refresh.content ?? {})).toEqual(['application/problem+json']);
    // /confirmEmail: TypedResults.Unauthorized(), nothing but the status.
    const confirm = unauthorised('apollo.auth.confirmEmail');
    expect(confirm.content).toBeUndefined();
    expect(confirm.description).toContain('An empty body.');
    // /login refuses with problem details whose detail says why; no challenge.
    expect(unauthorised('apollo.auth.login').description).toContain('RequiresTwoFactor');
  });

  it("documents the body parser's refusals on every operation but a GET: JSON that does not parse, too large, another media type", () => {
    for (const op of operations()) {
      const endpoint = byId.get(op.operationId);
      const statuses = ['400', '413', '415'].filter((status) => op.responses[status] !== undefined);
      expect(statuses, op.operationId).toEqual(
        endpoint?.method === 'GET' ? statuses.filter((s) => s === '400') : ['400', '413', '415'],
      );
    }
    const upload = operations().find((op) => op.operationId === 'legacy.files.upload') as Operation;
    expect(JSON.stringify(response(upload, '415'))).toContain('multipart/form-data');
  });

  it('closes every object of an answer: no member the document does not name', () => {
    const open: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (!schema || typeof schema !== 'object') return;
      const node = schema as Record<string, unknown>;
      if (node.properties && node.additionalProperties === undefined) open.push(at);
      for (const [key, value] of Object.entries(node)) {
        if (!Array.isArray(value)) walk(value, `${at}/${key}`);
        else for (const [i, item] of value.entries()) walk(item, `${at}/${key}/${i}`);
      }
    };
    for (const op of operations()) {
      for (const [status, answer] of Object.entries(op.responses)) walk(answer.content, `${op.operationId} ${status}`);
    }
    walk((document.components as { schemas: unknown }).schemas, 'components');
    expect(open).toEqual([]);
  });

  it('describes every tag and names its licence', () => {
    for (const tag of document.tags as { name: string; description?: string }[]) {
      expect(tag.description?.length, tag.name).toBeGreaterThan(20);
    }
    expect((document.info as { license?: unknown }).license).toBeDefined();
  });

  it('an invalid document fails the validator', async () => {
    const broken = JSON.parse(JSON.stringify(document));
    broken.paths['/apollo-beta/api/Tenants'].get.responses = 'nope';
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });
});
