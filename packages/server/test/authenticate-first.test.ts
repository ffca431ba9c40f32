/**
 * Authentication comes before validation: every endpoint that needs a user answers an anonymous
 * caller 401, whatever is wrong with its path, query or body (an empty object, a list, JSON that does
 * not parse, a media type the server does not read, no body), under every base path (apollo's
 * /apollo-beta and /apollo, legacy's /api), and never lists the fields it got wrong; on apollo a
 * missing or wrong application key is refused the same way, on the public endpoints too. Public
 * endpoints still validate. Every answer is also checked against the OpenAPI document.
 */
import { type AnyEndpoint, endpoints } from '@compliance-portal/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API_KEY, sessionToken, useTestServer } from './helpers.js';
import { OpenApiAnswers } from './openapi-answers.js';
import { answerOf, BASE_PATHS, type RefusedRequest, refusedRequests } from './refused-requests.js';

/** A caller without what the endpoint needs; `keyRight` when apollo's application key is the right one. */
interface Caller {
  who: string;
  headers: Record<string, string>;
  keyRight: boolean;
}

/** The callers an endpoint must refuse with 401 before reading anything else of the request. */
function strangers(endpoint: AnyEndpoint, token: string): Caller[] {
  if (endpoint.api === 'legacy') {
    // Legacy reads no application key: with it or without, no session is no session.
    return [
      { who: 'no token', headers: {}, keyRight: false },
      { who: 'a token that is none', headers: { authorization: 'not-a-token' }, keyRight: false },
      { who: 'the apollo key, no token', headers: { 'x-api-key': API_KEY }, keyRight: false },
    ];
  }
  const keyless: Caller[] = [
    { who: 'no key, no token', headers: {}, keyRight: false },
    { who: 'no key, a valid token', headers: { authorization: `Bearer ${token}` }, keyRight: false },
    {
      who: 'a wrong key, a valid token',
      headers: { 'x-api-key': 'wrong-key', authorization: `Bearer ${token}` },
      keyRight: false,
    },
  ];
  // A public apollo endpoint needs the key alone; with it, it goes on to validate.
  if (endpoint.access === 'public') return keyless;
  return [
    ...keyless,
    { who: 'the key, no token', headers: { 'x-api-key': API_KEY }, keyRight: true },
    {
      who: 'the key, a token that is none',
      headers: { 'x-api-key': API_KEY, authorization: 'Bearer not-a-token' },
      keyRight: true,
    },
  ];
}

describe('authentication before validation', () => {
  const server = useTestServer();
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });

  const send = (endpoint: AnyEndpoint, request: RefusedRequest, headers: Record<string, string>) =>
    server.app.inject({
      method: endpoint.method,
      url: request.url,
      headers: { ...(request.type ? { 'content-type': request.type } : {}), ...headers },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
  const fieldList = (response: LightMyRequestResponse) =>
    response.body ? (JSON.parse(response.body) as { errors?: unknown }).errors : undefined;

  it('answers every endpoint that needs a caller 401 without a field list, under every base path, to every stranger and body', async () => {
    // Apollo's public endpoints need the application key: they are callers' endpoints too, for the key.
    const guarded = endpoints.filter((e) => e.access !== 'public' || (e.api === 'apollo' && e.auth !== 'none'));
    const answers = new OpenApiAnswers();
    const wrong: string[] = [];
    const figures = { requests: 0, apollo: 0, legacy: 0, bases: new Set<string>() };
    for (const endpoint of guarded) {
      for (const base of BASE_PATHS[endpoint.api]) {
        figures.bases.add(base);
        for (const request of refusedRequests(endpoint, base)) {
          if (answers.find(endpoint.method, request.url)?.operationId !== endpoint.id)
            wrong.push(`${endpoint.id}: the document gives ${request.url} to another operation`);
          for (const caller of strangers(endpoint, token)) {
            figures.requests++;
            figures[endpoint.api]++;
            const response = await send(endpoint, request, caller.headers);
            answers.check(answerOf(endpoint, request, response));
            const problem = `${endpoint.id} ${request.url.slice(0, 80)} (${request.label}, ${caller.who}): ${response.statusCode} ${response.body.slice(0, 160)}`;
            if (response.statusCode !== 401 || fieldList(response) !== undefined) {
              wrong.push(problem);
              continue;
            }
            const challenge = response.headers['www-authenticate'];
            const type = String(response.headers['content-type'] ?? '');
            if (endpoint.api === 'legacy') {
              if (!type.startsWith('application/json')) wrong.push(`${problem}: not {message}`);
            } else if (caller.keyRight) {
              // The user's token missing or unknown: ASP.NET's bearer challenge, an empty body.
              if (challenge !== 'Bearer' || response.rawPayload.length > 0) wrong.push(`${problem}: no bare challenge`);
            } else if (!type.startsWith('application/problem+json') || challenge !== undefined) {
              // A missing or wrong application key: problem details, no challenge (no token would help).
              wrong.push(`${problem}: not problem details`);
            }
          }
        }
      }
    }
    console.log(
      `authentication before validation: ${guarded.length} endpoints (${guarded.filter((e) => e.access === 'public').length} public apollo ones for the key) under ${[...figures.bases].join(', ')}: ${figures.requests} requests (apollo ${figures.apollo}, legacy ${figures.legacy}), ${wrong.length} not refused first`,
    );
    console.log(answers.summary('anonymous callers'));
    expect(wrong).toEqual([]);
    expect(answers.problems).toEqual([]);
  });

  it('still validates the bodies of public endpoints', async () => {
    const signin = await server.request({ method: 'POST', url: '/api/auth/signin', body: { email: 'x' } });
    expect(signin.statusCode).toBe(400);
    expect(fieldList(signin)).toBeDefined();
    for (const base of BASE_PATHS.apollo) {
      const login = await server.request({ method: 'POST', url: `${base}/login`, body: { email: 1 } });
      expect(login.statusCode).toBe(400);
      expect(fieldList(login)).toBeDefined();
    }
  });
});
