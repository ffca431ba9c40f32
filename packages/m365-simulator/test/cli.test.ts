/** The start command: `m365-simulator` (dist/cli.js) prints where it is and how to trust it, and stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTROL_HEADER, fleetTenants } from '../src/index.js';
import { trusting } from './helpers.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TENANT = '33333333-4444-4555-8666-777777777777';

describe('the m365-simulator command', () => {
  it('starts, prints its authority, Graph URL and CA, serves the tenant and stops on SIGTERM', async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the package first (pnpm build)`);
    const dataDir = mkdtempSync(join(tmpdir(), 'm365-simulator-cli-'));
    const child = spawn(
      process.execPath,
      [cli, '--port', '0', '--data-dir', dataDir, '--tenant', `${TENANT},cli-app,cli-secret`, '--size', '{"users":3}'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      for (let i = 0; i < 200 && !output.includes('NODE_EXTRA_CA_CERTS='); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const origin = /listening on (https:\/\/localhost:\d+)/.exec(output)?.[1] ?? '';
      expect(origin, output).not.toBe('');
      const caPath = join(dataDir, 'tls', 'ca.pem');
      expect(output).toContain(`authority ${origin}/${TENANT}`);
      expect(output).toContain(`Graph base URL: ${origin}/v1.0`);
      expect(output).toContain(`CA certificate: ${caPath}`);
      expect(output).toContain(`NODE_EXTRA_CA_CERTS=${caPath}`);

      const dispatcher = trusting(readFileSync(caPath, 'utf8'));
      const token = await fetch(`${origin}/${TENANT}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'cli-app',
          client_secret: 'cli-secret',
          scope: 'https://graph.microsoft.com/.default',
        }),
        dispatcher,
      } as RequestInit);
      const { access_token } = (await token.json()) as { access_token: string };
      const users = await fetch(`${origin}/v1.0/users`, {
        headers: { authorization: `Bearer ${access_token}` },
        dispatcher,
      } as RequestInit);
      expect(((await users.json()) as { value: unknown[] }).value).toHaveLength(4);

      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(output).toContain('SIGTERM: stopping');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses to start without a tenant, saying how to call it', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/At least one --tenant \(or a --fleet\) is needed\.\nUsage: m365-simulator --tenant/);
  });

  it('serves a fleet drawn for --fleet and --fleet-seed, its ids listed by the control endpoint', async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the package first (pnpm build)`);
    const dataDir = mkdtempSync(join(tmpdir(), 'm365-simulator-cli-fleet-'));
    const child = spawn(
      process.execPath,
      [
        cli,
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--fleet',
        '25',
        '--fleet-seed',
        'cli',
        '--size',
        '{"filesPerDrive":1}',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      for (let i = 0; i < 200 && !output.includes('NODE_EXTRA_CA_CERTS='); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const origin = /listening on (https:\/\/localhost:\d+)/.exec(output)?.[1] ?? '';
      expect(origin, output).not.toBe('');
      const fleet = fleetTenants({ count: 25, seed: 'cli', size: { filesPerDrive: 1 } });
      const users = fleet.map((t) => t.size.users ?? 0);
      expect(output).toContain(
        `fleet (seed cli): 25 tenants of ${Math.min(...users)} to ${Math.max(...users)} users, ${users.reduce((a, b) => a + b, 0)} in all`,
      );
      const dispatcher = trusting(readFileSync(join(dataDir, 'tls', 'ca.pem'), 'utf8'));
      const controlKey = readFileSync(join(dataDir, 'control-key'), 'utf8').trim();
      const listed = await fetch(`${origin}/_simulator/tenants`, {
        headers: { [CONTROL_HEADER]: controlKey },
        dispatcher,
      } as RequestInit);
      const { value } = (await listed.json()) as { value: { tenantId: string; users: number }[] };
      expect(value).toEqual(fleet.map((t) => expect.objectContaining({ tenantId: t.tenantId, users: t.size.users })));
      // Any application with any secret gets a token for a tenant of the fleet.
      const token = await fetch(`${origin}/${fleet[3]?.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'any-app',
          client_secret: 'any-secret',
          scope: 'https://graph.microsoft.com/.default',
        }),
        dispatcher,
      } as RequestInit);
      expect(token.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
