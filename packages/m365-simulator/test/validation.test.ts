/**
 * The simulator on its port with validation on: every JSON answer checked against Graph's metadata
 * (state.validation, and JSON lines in M365_SIMULATOR_VALIDATION_DIR that summariseValidation adds up),
 * request ids over HTTP, and drive content through a 302 to a download link that needs no token.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatValidationSummary,
  type RunningSimulator,
  startSimulator,
  summariseValidation,
  VALIDATION_DIR_ENV,
  versionBytes,
} from '../src/index.js';

const TENANT = '11111111-2222-4333-8444-555555555555';
const CLIENT = '66666666-7777-4888-9999-000000000000';

describe('the simulator validating its answers', () => {
  let sim: RunningSimulator;
  let token = '';
  const dir = mkdtempSync(join(tmpdir(), 'm365-validation-'));

  beforeAll(async () => {
    process.env[VALIDATION_DIR_ENV] = dir;
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, clientId: CLIENT, clientSecret: 's3cret', size: { users: 3, sites: 1, teams: 1 } }],
      pageSize: 2,
      validate: true,
    });
    delete process.env[VALIDATION_DIR_ENV];
    const issued = await fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT,
        client_secret: 's3cret',
        scope: 'https://graph.microsoft.com/.default',
      }),
    });
    token = ((await issued.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, init: RequestInit = {}) =>
    fetch(url.startsWith('http') ? url : `${sim.graphBaseUrl}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });

  it('echoes client-request-id and sends request-id over HTTP', async () => {
    const answer = await get('/users', { headers: { 'client-request-id': 'e2e-1' } });
    expect(answer.headers.get('client-request-id')).toBe('e2e-1');
    expect(answer.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await answer.json()) as { '@odata.context': string; '@odata.nextLink': string };
    expect(body['@odata.context']).toMatch(/\/v1\.0\/\$metadata#users$/);
    expect(body['@odata.nextLink']).toMatch(/\$skiptoken=/);
  });

  it('serves content through a 302 to a download link that works without a token', async () => {
    const user = sim.state.tenant(TENANT).users[0];
    const drive = sim.state.tenant(TENANT).drives.get(user?.driveId ?? '');
    const file = [...(drive?.items.values() ?? [])].find((i) => i.kind === 'file' && i.name.endsWith('.docx'));
    const latest = file?.versions[file.versions.length - 1];
    if (!user || !file || !latest) throw new Error('no file');
    const expected = Buffer.from(versionBytes(TENANT, latest));

    const redirect = await get(`/drives/${user.driveId}/items/${file.id}/content`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location') ?? '';
    expect(location.startsWith(sim.url)).toBe(true);
    // No Authorization header at all: the link is pre-authenticated.
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(Buffer.from(await direct.arrayBuffer()).equals(expected)).toBe(true);
    // fetch follows the redirect, as the portal's Graph client does.
    const followed = await get(`/drives/${user.driveId}/items/${file.id}/content`);
    expect(Buffer.from(await followed.arrayBuffer()).equals(expected)).toBe(true);
    const part = await fetch(location, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${expected.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(expected.subarray(10, 20))).toBe(true);

    const item = (await (await get(`/drives/${user.driveId}/items/${file.id}`)).json()) as Record<string, string>;
    expect(item['@microsoft.graph.downloadUrl']).toMatch(/\/download\//);
    const forged = `${location.slice(0, -4)}AAAA`;
    expect((await fetch(forged)).status).toBe(401);
  });

  it('has checked every JSON answer: figures in its state and in the validation directory, 0 mismatches', async () => {
    for (const url of ['/users', '/groups', '/sites?search=*', '/users/nobody@example.com']) await get(url);
    const state = sim.state.validation;
    if (!state) throw new Error('validation is off');
    expect(state.answers).toBeGreaterThanOrEqual(6);
    expect(state.properties).toBeGreaterThan(50);
    expect(state.mismatches).toEqual([]);
    expect(readdirSync(dir)).toEqual([`validation-${process.pid}.jsonl`]);
    const summary = summariseValidation(dir);
    expect(summary).toMatchObject({ files: 1, answers: state.answers, properties: state.properties, mismatches: 0 });
    expect(formatValidationSummary(summary)).toBe(
      `Graph answers checked against the v1.0 metadata: answers ${state.answers}, properties ${state.properties}, mismatches 0`,
    );
  });
});
