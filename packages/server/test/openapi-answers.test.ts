/** The OpenAPI answer check itself: what it must refuse, so that its passes in sdk-live and the fuzz mean something. */
import { describe, expect, it } from 'vitest';
import { OpenApiAnswers } from './openapi-answers.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const tenant = {
  tenantId: '00000000-0000-4000-8000-000000000001',
  name: 'Contoso',
};

describe('checking answers against the OpenAPI document', () => {
  it('finds the operation by method and path, literal segments first', () => {
    const answers = new OpenApiAnswers();
    expect(answers.find('GET', '/apollo-beta/api/Tenants/abc')?.operationId).toBe('apollo.tenants.get');
    expect(answers.find('GET', '/apollo/api/abc/jobs')?.operationId).toBe('apollo.jobs.list');
    expect(answers.find('GET', '/api/auth/verify-user')?.operationId).toBe('legacy.auth.verifyUser');
    expect(answers.find('GET', '/elsewhere')).toBeUndefined();
  });

  it('refuses an undocumented status, member, media type, or a missing body; accepts a documented refusal', () => {
    const answers = new OpenApiAnswers();
    const problem = { title: 'Not Found', status: 404, detail: 'Tenant not found', traceId: 'x' };
    const base = { method: 'GET', path: '/apollo-beta/api/Tenants/abc' };
    const apolloJson = { 'content-type': 'application/problem+json; charset=utf-8' };
    answers.check({ ...base, status: 404, headers: apolloJson, body: json(problem) });
    answers.check({ ...base, status: 401, headers: { 'www-authenticate': 'Bearer' }, body: Buffer.alloc(0) });
    expect(answers.problems).toEqual([]);

    answers.check({ ...base, status: 418, headers: apolloJson, body: json(problem) });
    answers.check({ ...base, status: 404, headers: apolloJson, body: json({ ...problem, stack: 'at x' }) });
    answers.check({ ...base, status: 404, headers: { 'content-type': 'application/json' }, body: json(problem) });
    answers.check({ ...base, status: 404, headers: apolloJson, body: Buffer.alloc(0) });
    answers.check({ ...base, status: 200, headers: { 'content-type': 'application/json' }, body: json(tenant) });
    expect(answers.problems).toHaveLength(5);
    expect(answers.problems[0]).toContain('status not documented');
    expect(answers.problems[1]).toContain('must NOT have additional properties');
    expect(answers.problems[2]).toContain('content type application/json');
    expect(answers.problems[3]).toContain('empty body');
    expect(answers.problems[4]).toContain('must have required property');
  });

  it('takes an empty body with a Bearer challenge only where the document names the challenge', () => {
    const answers = new OpenApiAnswers();
    const challenge = { 'www-authenticate': 'Bearer' };
    const empty = Buffer.alloc(0);
    answers.check({ method: 'POST', path: '/apollo-beta/refresh', status: 401, headers: challenge, body: empty });
    answers.check({ method: 'GET', path: '/apollo/api/Tenants', status: 401, headers: challenge, body: empty });
    answers.check({ method: 'GET', path: '/apollo-beta/confirmEmail', status: 401, headers: {}, body: empty });
    expect(answers.problems).toEqual([]);

    // /login refuses with problem details only; a challenge of another scheme is not the one documented.
    answers.check({ method: 'POST', path: '/apollo-beta/login', status: 401, headers: challenge, body: empty });
    answers.check({ method: 'POST', path: '/apollo-beta/login', status: 401, headers: {}, body: empty });
    answers.check({
      method: 'GET',
      path: '/apollo-beta/api/Tenants',
      status: 401,
      headers: { 'www-authenticate': 'Basic' },
      body: empty,
    });
    expect(answers.problems).toHaveLength(4);
    expect(answers.problems[0]).toContain('a WWW-Authenticate challenge the document does not name');
    expect(answers.problems[1]).toContain('empty body');
    expect(answers.problems[2]).toContain('empty body');
    expect(answers.problems[3]).toContain('WWW-Authenticate Basic, documented Bearer');
  });
});
