/**
 * The operator's commands as an operator runs them (the built `dist/commands/*.js`, by
 * `pnpm --filter @compliance-portal/server <command>`), on the data directory of a demo world with its
 * history: every blob is encrypted; PORTAL_SECRET_KEY is rotated, after which
 * only the new key reads the data and the server starts on it; a deletion asks to be confirmed.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exited, freePort, startProcess } from './process.js';

const command = (name: string, dataDir: string, env: Record<string, string>, args: string[] = []) => {
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL(`../dist/commands/${name}.js`, import.meta.url)), ...args],
    {
      env: { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
};

describe('the operator commands', () => {
  it('verify every blob encrypted, rotate the secret key (the blobs then read with the new key only), and confirm a deletion', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-commands-'));
    const port = await freePort();
    const first = await startProcess(dataDir, port, { PORTAL_DEMO_HISTORY: 'on' }, [], 120_000);
    const password = /with the password: (\S+)/.exec(first.output())?.[1] ?? '';
    const stopped = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await stopped).toBe(0);

    const verified = command('encrypt-blobs', dataDir, {}, ['--verify']);
    expect(verified.status, verified.out).toBe(0);
    const encrypted = Number(/blobs encrypted: (\d+); in the clear: 0; unreadable: 0/.exec(verified.out)?.[1]);
    expect(encrypted).toBeGreaterThan(100);

    const oldKey = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('hex');
    expect(command('rotate-secrets', dataDir, {}).status).toBe(2);
    const rotated = command('rotate-secrets', dataDir, {
      PORTAL_SECRET_KEY: newKey,
      PORTAL_SECRET_KEY_PREVIOUS: oldKey,
    });
    expect(rotated.status, rotated.out).toBe(0);
    expect(Number(/rewrapped with the new key: (\d+)/.exec(rotated.out)?.[1])).toBeGreaterThan(0);
    // The same blobs, read with the new key; the old key opens none of them any more.
    const withNew = command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: newKey }, ['--verify']);
    expect(withNew.out).toContain(`blobs encrypted: ${encrypted}; in the clear: 0; unreadable: 0`);
    const withOld = command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: oldKey }, ['--verify']);
    expect(withOld.status).toBe(1);
    expect(withOld.out).toContain(`unreadable: ${encrypted}`);
    // Nothing left to encrypt.
    expect(command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: newKey }).out).toContain('blobs encrypted now: 0');

    const unconfirmed = command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['some-id']);
    expect(unconfirmed.status).toBe(2);
    expect(
      command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['no-such-organisation', '--yes']).out,
    ).toContain('No organisation no-such-organisation');

    // The server starts on the new key and signs in as before.
    const second = await startProcess(dataDir, port, { PORTAL_SECRET_KEY: newKey });
    try {
      const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@contoso.example', password }),
      });
      expect(signin.status).toBe(200);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      await done;
    }
  }, 240_000);
});
