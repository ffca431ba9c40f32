/**
 * Every refusal as the OpenAPI document describes it: each operation is called in the ways it must
 * refuse, under every base path (apollo's /apollo-beta and /apollo, legacy's /api), and each answer's
 * status, media type and body are checked against the document's response for that status (an empty
 * body only where the document says none, or a Bearer challenge it names). Anonymous callers are
 * authenticate-first.test.ts's; here the public endpoints get bodies, paths and queries they refuse and
 * well-formed requests with credentials that are wrong, and the signed-in caller gets bodies that
 * cannot be read and paths and queries that cannot be stored, refused before any handler runs.
 */
import { type AnyEndpoint, type EndpointId, endpoints } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API_KEY, DEMO_PASSWORD, sessionToken, useTestServer } from './helpers.js';
import { OpenApiAnswers } from './openapi-answers.js';
import { answerOf, BASE_PATHS, type RefusedRequest, refusedBodies, refusedRequests } from './refused-requests.js';

const NOBODY = 'nobody@nowhere.example';
const NEW_PASSWORD = 'Fresh-Passw0rd!1';

/** A well-formed request to a public endpoint that is refused for what it says, and how. */
interface WrongCredentials {
  label: string;
  /** The path after the base path, with its query. */
  path: string;
  body?: unknown;
  status: number;
  /** The answer's body: in the API's error shape, empty, or empty with `WWW-Authenticate: Bearer`. */
  answer: 'error' | 'empty' | 'challenge';
}

const WRONG_CREDENTIALS: Partial<Record<EndpointId, WrongCredentials[]>> = {
  'apollo.auth.login': [
    {
      label: 'an unknown account',
      path: '/login',
      body: { email: NOBODY, password: NEW_PASSWORD },
      status: 401,
      answer: 'error',
    },
    {
      label: 'cookies asked for',
      path: '/login?useCookies=true',
      body: { email: NOBODY, password: NEW_PASSWORD },
      status: 400,
      answer: 'error',
    },
  ],
  // ASP.NET Identity's TypedResults.Challenge(): 401, an empty body, WWW-Authenticate: Bearer.
  'apollo.auth.refresh': [
    {
      label: 'a refresh token that is none',
      path: '/refresh',
      body: { refreshToken: 'not-a-refresh-token' },
      status: 401,
      answer: 'challenge',
    },
  ],
  // ASP.NET Identity's TypedResults.Unauthorized(): 401 and nothing else.
  'apollo.auth.confirmEmail': [
    { label: 'an unknown user', path: '/confirmEmail?userId=nobody&code=AAAA', status: 401, answer: 'empty' },
  ],
  'apollo.auth.resetPassword': [
    {
      label: 'a wrong code',
      path: '/resetPassword',
      body: { email: NOBODY, resetCode: 'AAAA', newPassword: NEW_PASSWORD },
      status: 400,
      answer: 'error',
    },
  ],
  'apollo.auth.register': [
    {
      label: 'a taken address',
      path: '/register',
      body: { email: ADMIN, password: DEMO_PASSWORD },
      status: 400,
      answer: 'error',
    },
  ],
  'legacy.auth.signin': [
    {
      label: 'an unknown account',
      path: '/auth/signin',
      body: { email: NOBODY, password: NEW_PASSWORD },
      status: 401,
      answer: 'error',
    },
  ],
  'legacy.auth.resetPassword': [
    {
      label: 'a link that is none',
      path: '/auth/reset-password/not-a-token',
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      status: 400,
      answer: 'error',
    },
  ],
  'legacy.invitations.get': [
    { label: 'a link that is none', path: '/auth/invitations/not-a-token', status: 404, answer: 'error' },
  ],
  'legacy.invitations.accept': [
    {
      label: 'a link that is none',
      path: '/auth/invitations/not-a-token',
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      status: 404,
      answer: 'error',
    },
  ],
  'legacy.auth.confirmEmail': [
    {
      label: 'an unknown user',
      path: '/auth/confirm-email',
      body: { userId: 'nobody', code: 'AAAA' },
      status: 400,
      answer: 'error',
    },
  ],
  'legacy.auth.microsoftStart': [
    {
      label: 'an unknown account',
      path: '/auth/microsoft/start',
      body: { email: NOBODY },
      status: 400,
      answer: 'error',
    },
  ],
  'legacy.auth.microsoftComplete': [
    {
      label: 'a state never issued',
      path: '/auth/microsoft/complete',
      body: { code: 'x', state: 'never-issued' },
      status: 400,
      answer: 'error',
    },
  ],
};

describe('refusals as the OpenAPI document describes them', () => {
  const server = useTestServer();
  let token = '';
  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  const answers = new OpenApiAnswers();
  const byId = new Map<string, AnyEndpoint>(endpoints.map((e) => [e.id, e]));

  const send = (endpoint: AnyEndpoint, request: RefusedRequest, headers: Record<string, string>) =>
    server.app.inject({
      method: endpoint.method,
      url: request.url,
      headers: { ...(request.type ? { 'content-type': request.type } : {}), ...headers },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
  /** What a caller of the endpoint sends to be let in: the key on apollo, the token where a user is needed. */
  const credentials = (endpoint: AnyEndpoint): Record<string, string> => ({
    ...(endpoint.api === 'apollo' && endpoint.auth !== 'none' ? { 'x-api-key': API_KEY } : {}),
    ...(endpoint.access === 'public' ? {} : { authorization: endpoint.api === 'apollo' ? `Bearer ${token}` : token }),
  });

  it('refuses what the public endpoints cannot take as documented, under every base path', async () => {
    const before = answers.problems.length;
    const fivexx: string[] = [];
    let requests = 0;
    for (const endpoint of endpoints.filter((e) => e.access === 'public')) {
      for (const base of BASE_PATHS[endpoint.api]) {
        for (const request of refusedRequests(endpoint, base, refusedBodies(endpoint, { tooLarge: true }))) {
          requests++;
          const response = await send(endpoint, request, credentials(endpoint));
          answers.check(answerOf(endpoint, request, response));
          if (response.statusCode >= 500) fivexx.push(`${endpoint.id} ${request.label}: ${response.statusCode}`);
        }
      }
    }
    console.log(
      `public endpoints, refused requests: ${requests}; answers off the document ${answers.problems.length - before}`,
    );
    expect(fivexx).toEqual([]);
    expect(answers.problems.slice(before)).toEqual([]);
  });

  it('refuses wrong credentials on the public endpoints with the status and body the document gives', async () => {
    const before = answers.problems.length;
    const wrong: string[] = [];
    let requests = 0;
    for (const [id, cases] of Object.entries(WRONG_CREDENTIALS)) {
      const endpoint = byId.get(id);
      if (!endpoint) throw new Error(`no endpoint ${id}`);
      for (const base of BASE_PATHS[endpoint.api]) {
        for (const wanted of cases ?? []) {
          requests++;
          const request: RefusedRequest = {
            label: wanted.label,
            url: `${base}${wanted.path}`,
            ...(wanted.body !== undefined ? { payload: JSON.stringify(wanted.body), type: 'application/json' } : {}),
          };
          const response = await send(endpoint, request, credentials(endpoint));
          answers.check(answerOf(endpoint, request, response));
          const challenge = response.headers['www-authenticate'];
          const empty = response.rawPayload.length === 0;
          const shape =
            wanted.answer === 'error'
              ? !empty && challenge === undefined
              : empty && (wanted.answer === 'challenge' ? challenge === 'Bearer' : challenge === undefined);
          if (response.statusCode !== wanted.status || !shape) {
            wrong.push(
              `${id} ${request.url} (${wanted.label}): ${response.statusCode} ${String(challenge)} ${response.body.slice(0, 160)}`,
            );
          }
        }
      }
    }
    console.log(
      `public endpoints, wrong credentials: ${requests} requests; answers off the document ${answers.problems.length - before}`,
    );
    expect(wrong).toEqual([]);
    expect(answers.problems.slice(before)).toEqual([]);
  });

  it('refuses what a signed-in caller sends that cannot be read or stored, before any handler, as documented', async () => {
    const before = answers.problems.length;
    const wrong: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    for (const endpoint of endpoints.filter((e) => e.access !== 'public')) {
      for (const base of BASE_PATHS[endpoint.api]) {
        // Only what is refused before a handler: the signed-in caller's session must outlive the run.
        const bodies = refusedBodies(endpoint, { parsedOnly: true, tooLarge: true });
        for (const request of refusedRequests(endpoint, base, bodies)) {
          requests++;
          const response = await send(endpoint, request, credentials(endpoint));
          answers.check(answerOf(endpoint, request, response));
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const expected = request.type === 'application/xml' ? 415 : request.label === 'too large' ? 413 : 400;
          if (response.statusCode !== expected)
            wrong.push(
              `${endpoint.id} ${request.url.slice(0, 80)} (${request.label}): ${response.statusCode}, not ${expected}`,
            );
        }
      }
    }
    console.log(
      `signed-in caller, unreadable bodies and unstorable paths and queries: ${requests} requests (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}); answers off the document ${answers.problems.length - before}`,
    );
    expect(wrong).toEqual([]);
    expect(answers.problems.slice(before)).toEqual([]);
  });
});
