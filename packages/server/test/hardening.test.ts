/**
 * Regression tests of the input findings of the hardening review: each refusal is a 400 in the API's
 * own error shape (ProblemDetails on apollo, {message} on legacy), never a 500.
 */

import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

describe('hostile input', () => {
  const server = useTestServer();
  let token = '';
  let ip = '';
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId: TENANTS.contoso }] });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      TENANTS.contoso,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    token = await sessionToken(server, ADMIN);
    ip = await workerIp(server, 'Contoso');
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('refuses a NUL byte in an unauthenticated query, a path and a body with the validation message', async () => {
    const confirm = await server.request({ method: 'GET', url: '/apollo-beta/confirmEmail?userId=a%00b&code=x' });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.headers['content-type']).toContain('application/problem+json');
    expect(confirm.json()).toMatchObject({
      title: 'One or more validation errors occurred.',
      errors: { 'querystring/userId': ['must not contain NUL or unpaired surrogate characters'] },
    });
    const path = await server.request({ method: 'GET', url: `/apollo-beta/api/Tenants/a%00b`, token });
    expect(path.statusCode).toBe(400);
    const body = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/locations`,
      token,
      body: { name: 'Vault\u0000', siteAddress: 'https://contoso.sharepoint.com/sites/v' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({ errors: { 'body/name': [expect.stringContaining('NUL')] } });
  });

  it('refuses an unpaired surrogate in a body string and in a key, on legacy as {message}', async () => {
    const lone = await server.request({
      method: 'POST',
      url: '/api/filtered-jobs',
      token,
      headers: { 'content-type': 'application/json' },
      body: `{"workerIp":"${ip}","search":"\\ud800"}`,
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.json()).toMatchObject({ message: 'Invalid request', errors: { 'body/search': [expect.any(String)] } });
    const key = await server.request({
      method: 'POST',
      url: '/api/filtered-jobs',
      token,
      headers: { 'content-type': 'application/json' },
      body: `{"workerIp":"${ip}","\\udc00":1}`,
    });
    expect(key.statusCode).toBe(400);
  });

  it('refuses numbers the database cannot hold: a huge page, 1e308 and an archive item id of 10^23', async () => {
    for (const page of ['99999999999999999999', '1e308']) {
      const answer = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${TENANTS.contoso}/reporting?page=${page}`,
        token,
      });
      expect(answer.statusCode, page).toBe(400);
      expect(answer.json(), page).toMatchObject({ errors: { 'querystring/page': [expect.stringContaining('<=')] } });
    }
    const item = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${TENANTS.contoso}/ediscovery/items/100000000000000000000000`,
      token,
    });
    expect(item.statusCode).toBe(400);
    const restore = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/restore-email',
      token,
      body: { workerIp: ip, mailboxId: 'm', messageIds: ['100000000000000000000000'] },
    });
    expect(restore.statusCode).toBe(400);
  });

  it('does not coerce body types: a lone string where a list belongs, or a number as text, is refused', async () => {
    const job = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/jobs`,
      token,
      body: { name: 'Scalar', type: 'backup', application: 'onedrive', sources: 'x'.repeat(900_000) },
    });
    expect(job.statusCode).toBe(400);
    expect(job.json()).toMatchObject({ errors: { 'body/sources': ['must be array'] } });
    const price = await server.request({
      method: 'PUT',
      url: '/apollo-beta/backup-update-config',
      token,
      body: { tenantId: TENANTS.contoso, pricePerGbMonth: '0.03' },
    });
    expect(price.statusCode).toBe(400);
  });

  it('bounds list items: a source id over 4096 characters is refused', async () => {
    const job = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/jobs`,
      token,
      body: { name: 'Long id', type: 'backup', application: 'onedrive', sources: ['x'.repeat(5000)] },
    });
    expect(job.statusCode).toBe(400);
    expect(job.json()).toMatchObject({ errors: { 'body/sources/0': [expect.stringContaining('4096')] } });
  });

  it('treats a sort of __proto__ or constructor as an unknown column', async () => {
    for (const sort of ['__proto__', 'constructor', 'toString']) {
      const answer = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${TENANTS.contoso}/monitoring?sort=${sort}`,
        token,
      });
      expect(answer.statusCode, sort).toBe(200);
    }
  });

  it('refuses Graph ids "." and "..", which would walk up the Graph path, and answers 404 for an unknown team', async () => {
    for (const teamId of ['.', '..']) {
      const answer = await server.request({ method: 'GET', url: `/api/teams/members/${ip}?teamId=${teamId}`, token });
      expect(answer.statusCode, teamId).toBe(400);
      expect(answer.json().message, teamId).toContain('not an id Microsoft Graph can take');
    }
    const unknown = await server.request({ method: 'GET', url: `/api/teams/members/${ip}?teamId=no-such-team`, token });
    expect(unknown.statusCode).toBe(404);
    const drive = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/data-management/browse`,
      token,
      body: { application: 'onedrive', sourceId: '..', nodeId: 'root', rule: { kind: 'keepNewest', count: 1 } },
    });
    expect(drive.statusCode).toBe(400);
    expect(drive.json()).toMatchObject({ detail: expect.stringContaining('not an id Microsoft Graph can take') });
  });
});
