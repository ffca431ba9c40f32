/**
 * Authentication comes before validation: every endpoint that needs a user answers an anonymous
 * caller 401, whatever is wrong with its path, query or body, and never lists the fields it got
 * wrong; on apollo a wrong application key is refused the same way. Public endpoints still validate.
 */
import { type AnyEndpoint, endpoints } from '@compliance-portal/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API_KEY, sessionToken, useTestServer } from './helpers.js';

/** The variants of a request that schema validation would refuse, each with a field list. */
function invalidRequests(endpoint: AnyEndpoint): { label: string; url: string; payload: string; type: string }[] {
  const base = endpoint.api === 'apollo' ? '/apollo-beta' : '/api';
  const names = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const path = (bad: boolean) => endpoint.path.replace(/\{([^}]+)\}/g, () => (bad ? 'a%00b' : 'x'));
  const queryNames = Object.keys((endpoint.query as { properties?: object } | undefined)?.properties ?? {});
  // A JSON list where an object belongs, a form that is none, or a body that is not JSON at all.
  const body =
    endpoint.bodyType === 'multipart'
      ? { payload: 'not a form', type: 'multipart/form-data; boundary=x' }
      : endpoint.body
        ? { payload: '[1, 2, 3]', type: 'application/json' }
        : { payload: '{"not json', type: 'application/json' };
  const variants = [{ label: 'body', url: `${base}${path(false)}`, ...body }];
  if (names.length > 0) variants.push({ label: 'path', url: `${base}${path(true)}`, ...body });
  if (queryNames.length > 0) {
    const query = queryNames.map((name) => `${name}=a%00b`).join('&');
    variants.push({ label: 'query', url: `${base}${path(false)}?${query}&unknown=1`, ...body });
  }
  return variants;
}

describe('authentication before validation', () => {
  const server = useTestServer();
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });

  const send = (
    endpoint: AnyEndpoint,
    request: ReturnType<typeof invalidRequests>[number],
    headers: Record<string, string>,
  ) =>
    server.app.inject({
      method: endpoint.method,
      url: request.url,
      headers: { 'content-type': request.type, ...headers },
      // A GET carries no body; its path or query is what is wrong.
      ...(endpoint.method === 'GET' ? {} : { payload: request.payload }),
    });
  const fieldList = (response: LightMyRequestResponse) =>
    response.body ? (JSON.parse(response.body) as { errors?: unknown }).errors : undefined;

  it('answers every endpoint that needs a user 401 without a field list, to no token and to a wrong apollo key', async () => {
    const guarded = endpoints.filter((e) => e.access !== 'public');
    const wrong: string[] = [];
    let requests = 0;
    for (const endpoint of guarded) {
      for (const request of invalidRequests(endpoint)) {
        const callers: [string, Record<string, string>][] = [
          ['no token', endpoint.api === 'apollo' ? { 'x-api-key': API_KEY } : {}],
        ];
        if (endpoint.api === 'apollo') {
          callers.push(['a wrong key', { 'x-api-key': 'wrong-key', authorization: `Bearer ${token}` }]);
        } else callers.push(['a token that is none', { authorization: 'not-a-token' }]);
        for (const [who, headers] of callers) {
          requests++;
          const response = await send(endpoint, request, headers);
          const problem = `${endpoint.id} (${request.label} invalid, ${who}): ${response.statusCode} ${response.body.slice(0, 160)}`;
          if (response.statusCode !== 401 || fieldList(response) !== undefined) wrong.push(problem);
          // Apollo's bearer challenge for a missing user token, problem details for a wrong key.
          else if (endpoint.api === 'apollo' && who === 'no token' && response.headers['www-authenticate'] !== 'Bearer')
            wrong.push(`${problem}: no bearer challenge`);
        }
      }
    }
    console.log(`authentication before validation: ${guarded.length} endpoints, ${requests} requests`);
    expect(wrong).toEqual([]);
  });

  it('still validates the bodies of public endpoints', async () => {
    const signin = await server.request({ method: 'POST', url: '/api/auth/signin', body: { email: 'x' } });
    expect(signin.statusCode).toBe(400);
    expect(fieldList(signin)).toBeDefined();
    const login = await server.request({ method: 'POST', url: '/apollo-beta/login', body: { email: 1 } });
    expect(login.statusCode).toBe(400);
    expect(fieldList(login)).toBeDefined();
    // Apollo's public endpoints still need the application key, before their bodies are read.
    const keyless = await server.request({
      method: 'POST',
      url: '/apollo-beta/login',
      body: { email: 1 },
      apiKey: null,
    });
    expect(keyless.statusCode).toBe(401);
    expect(fieldList(keyless)).toBeUndefined();
  });
});
