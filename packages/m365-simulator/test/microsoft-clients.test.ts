/**
 * An integrator's view: MSAL's ConfidentialClientApplication (authority on the simulator, its host in
 * knownAuthorities) and the Microsoft Graph client (baseUrl and customHosts) read the simulator in a
 * process that trusts its CA by NODE_EXTRA_CA_CERTS alone, with no network shim.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { CLIENT, claimsOf, SECRET, TENANT } from './helpers.js';

const script = fileURLToPath(new URL('./fixtures/integrator.mjs', import.meta.url));

describe("Microsoft's clients against the simulator", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    // A data directory of its own: nothing but NODE_EXTRA_CA_CERTS makes the child trust its CA.
    sim = await startSimulator({
      dataDir: mkdtempSync(join(tmpdir(), 'm365-simulator-integrator-')),
      tenants: [{ tenantId: TENANT, clientId: CLIENT, clientSecret: SECRET, size: { users: 5 } }],
      pageSize: 2,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('get a token by client credentials with MSAL and page users with the Graph client', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, sim.url, TENANT, CLIENT, SECRET], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: sim.caCertificatePath },
      timeout: 30_000,
    });
    const read = JSON.parse(stdout) as { token: string; pages: { ids: string[]; next?: string }[] };
    expect(claimsOf(read.token)).toMatchObject({ tid: TENANT, appid: CLIENT, aud: 'https://graph.microsoft.com' });
    const users = sim.state.tenant(TENANT).users.map((u) => u.id);
    expect(read.pages.flatMap((p) => p.ids)).toEqual(users.slice(0, 4));
    expect(read.pages[0]?.next?.startsWith(`${sim.graphBaseUrl}/users?`)).toBe(true);
    expect(read.pages[1]?.next?.startsWith(`${sim.graphBaseUrl}/users?`)).toBe(true);
  });

  it('fail in a process that does not trust the CA', async () => {
    const run = promisify(execFile)(process.execPath, [script, sim.url, TENANT, CLIENT, SECRET], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
      timeout: 30_000,
    });
    // MSAL reports an OpenID configuration it could not read (here: an untrusted certificate) so.
    await expect(run).rejects.toMatchObject({ stderr: expect.stringContaining('endpoints_resolution_error') });
  });
});
