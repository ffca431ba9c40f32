/**
 * Throttling from outside the process: M365_SIMULATOR_THROTTLE at start and the control endpoint
 * /_simulator/throttle (with the control key), answering Graph's error body with 429 or 503 and
 * Retry-After on any path, or only on the paths asked for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseThrottle, type RunningSimulator, startSimulator } from '../src/index.js';
import { accessToken, TENANT } from './helpers.js';

const tenants = [{ tenantId: TENANT, size: { users: 3, sites: 1, teams: 1 } }];

describe('throttling set by M365_SIMULATOR_THROTTLE', () => {
  afterEach(() => {
    delete process.env.M365_SIMULATOR_THROTTLE;
  });

  it('refuses every n-th request on the paths it names with its status and Retry-After', async () => {
    process.env.M365_SIMULATOR_THROTTLE = 'every=2,status=503,retryAfter=7,paths=^/v1.0/users';
    const sim = await startSimulator({ tenants });
    try {
      expect(sim.state.throttle).toEqual({ every: 2, status: 503, retryAfter: 7, paths: '^/v1.0/users' });
      const token = await accessToken(sim);
      const get = (path: string) =>
        fetch(`${sim.graphBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await get('/users'));
      expect(answers.map((a) => a.status)).toEqual([200, 503, 200, 503]);
      expect(answers[1]?.headers.get('retry-after')).toBe('7');
      expect(await answers[1]?.json()).toMatchObject({
        error: { code: 'serviceNotAvailable', message: expect.any(String) },
      });
      // Other paths are left alone.
      for (let i = 0; i < 4; i++) expect((await get('/groups')).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('is read as name=value pairs and refused when wrong', () => {
    expect(parseThrottle('every=5,status=429,retryAfter=2')).toEqual({ every: 5, status: 429, retryAfter: 2 });
    expect(parseThrottle('every=3,paths=^/v1.0/(users|groups){1,2}')).toEqual({
      every: 3,
      status: 429,
      retryAfter: 0,
      paths: '^/v1.0/(users|groups){1,2}',
    });
    expect(parseThrottle('')).toBeUndefined();
    expect(() => parseThrottle('every=2,status=500')).toThrow(/M365_SIMULATOR_THROTTLE: status must be 429 or 503/);
    expect(() => parseThrottle('often')).toThrow(/name=value/);
    expect(() => parseThrottle('every=2,paths=(')).toThrow(/M365_SIMULATOR_THROTTLE/);
  });
});

describe('the control endpoint', () => {
  let sim: RunningSimulator;
  let token = '';
  beforeAll(async () => {
    sim = await startSimulator({ tenants });
    token = await accessToken(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
  const control = (method: string, body?: unknown, key: string | null = sim.controlKey) =>
    fetch(`${sim.url}/_simulator/throttle`, {
      method,
      headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-simulator-control': key } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const get = (path: string) => fetch(`${sim.graphBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('refuses a request without the control key, or with another', async () => {
    const without = await control('POST', { every: 1, status: 429 }, null);
    expect(without.status).toBe(403);
    expect((await control('GET', undefined, 'not-the-key')).status).toBe(403);
    expect((await get('/users')).status).toBe(200);
  });

  it('makes every path answer 429, then 503, with Retry-After, and turns it off again', async () => {
    const set = await control('POST', { every: 1, status: 429, retryAfter: 3 });
    expect(set.status).toBe(200);
    expect(await (await control('GET')).json()).toEqual({ every: 1, status: 429, retryAfter: 3 });
    const users = (await (
      await fetch(`${sim.graphBaseUrl}/users`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as unknown;
    expect(users).toMatchObject({ error: { code: 'TooManyRequests' } });
    const model = sim.state.tenant(TENANT);
    const drive = [...model.drives.values()][0];
    for (const path of [
      '/users',
      `/drives/${drive?.id}/items/root/children`,
      '/groups',
      `/teams/${model.teams[0]?.id}/channels`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('3');
    }

    await control('POST', { every: 2, status: 503, retryAfter: 1 });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const answer = await get(`/drives/${drive?.id}/items/root/children`);
      statuses.push(answer.status);
      if (answer.status === 503) expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(statuses).toEqual([200, 503, 200, 503]);

    expect(await (await control('POST', { every: 0 })).json()).toEqual({ every: 0, status: 429, retryAfter: 0 });
    for (let i = 0; i < 3; i++) expect((await get('/users')).status).toBe(200);
    expect(sim.state.stats.throttled).toBeGreaterThanOrEqual(7);
  });

  it('refuses a wrong setting and leaves the current one', async () => {
    const wrong = await control('POST', { every: 1, status: 500 });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { message: 'status must be 429 or 503' } });
    expect((await control('POST', { every: 1, sometimes: true })).status).toBe(400);
    expect((await control('GET')).status).toBe(200);
    expect(sim.state.throttle.every).toBe(0);
  });
});
