import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { base32Decode } from '../src/crypto/base32.js';
import { totp } from '../src/crypto/totp.js';
import { exited, freePort, startProcess as start } from './process.js';

/** Every file and folder below `dir` (itself included) with its permission bits. */
function modesBelow(dir: string): { path: string; mode: number; folder: boolean }[] {
  const found = [{ path: dir, mode: statSync(dir).mode & 0o777, folder: true }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isDirectory()) found.push(...modesBelow(path));
    else found.push({ path, mode: info.mode & 0o777, folder: false });
  }
  return found;
}

async function stop(child: Awaited<ReturnType<typeof start>>['child']) {
  const done = exited(child);
  child.kill('SIGTERM');
  return done;
}

describe('the server process', () => {
  it('seeds once, prints the generated demo password once, and shuts down gracefully', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-process-'));
    const port = await freePort();
    const first = await start(dataDir, port);
    const password = /with the password: (\S+)/.exec(first.output())?.[1];
    expect(password).toMatch(/.{16,}/);
    const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@contoso.example', password }),
    });
    expect(signin.status).toBe(200);
    const done = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await done).toBe(0);

    const second = await start(dataDir, port);
    expect(second.output()).not.toContain('password');
    const again = exited(second.child);
    second.child.kill('SIGTERM');
    expect(await again).toBe(0);
  }, 90_000);

  it('refuses, outside demo mode, to start with its secret key in the data directory, unless told to allow it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-process-key-'));
    const dataDir = join(root, 'data');
    const port = await freePort();
    const production = { PORTAL_DEMO: 'off' };
    await expect(start(dataDir, port, production)).rejects.toThrow(
      /exited with 1: No secret key: set PORTAL_SECRET_KEY or PORTAL_SECRET_KEY_FILE\..*openssl rand -hex 32.*PORTAL_SECRET_KEY_IN_DATA_DIR=allow/,
    );
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'portal.key'), 'ab'.repeat(32));
    await expect(
      start(dataDir, port, { ...production, PORTAL_SECRET_KEY_FILE: join(dataDir, 'portal.key') }),
    ).rejects.toThrow(/exited with 1: PORTAL_SECRET_KEY_FILE .* is inside the data directory/);
    // Told so: it starts on a key generated into the data directory, and says what that means at every start.
    const allowed = await start(dataDir, port, { ...production, PORTAL_SECRET_KEY_IN_DATA_DIR: 'allow' });
    expect(allowed.output()).toContain('The secret key is kept in the data directory');
    expect(await stop(allowed.child)).toBe(0);
    // A key file outside the data directory: no warning.
    writeFileSync(join(root, 'portal.key'), 'ab'.repeat(32), { mode: 0o600 });
    const keyed = await start(dataDir, port, { ...production, PORTAL_SECRET_KEY_FILE: join(root, 'portal.key') });
    expect(keyed.output()).not.toContain('The secret key is kept in the data directory');
    expect(await stop(keyed.child)).toBe(0);
  }, 120_000);

  it('makes every file and folder of its data directory owner-only, and tightens the directory itself', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-process-modes-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    // The demo with its history: PGlite's files, keys, blobs, a restore download, the simulator's keys.
    const server = await start(dataDir, port, { PORTAL_DEMO_HISTORY: 'on', LOG_LEVEL: 'warn' }, [], 180_000);
    try {
      const password = /with the password: (\S+)/.exec(server.output())?.[1] ?? '';
      const origin = `http://127.0.0.1:${port}`;
      const client = createClient({ origin });
      const first = await client.legacy.auth.signin({ body: { email: 'admin@contoso.example', password } });
      const auth = { headers: { Authorization: first.token } };
      const qr = await client.legacy.auth.generateQr(undefined, auth);
      const { token } = await client.legacy.auth.qrcodeVerification(
        { body: { code: totp(base32Decode(qr.key), Date.now()) } },
        auth,
      );
      // A document, and a mail to the outbox.
      const form = new FormData();
      form.set('abbr', 'contoso');
      form.set('documentType', 'contracts');
      form.set('file', new Blob(['%PDF-1.7\n%%EOF\n'], { type: 'application/pdf' }), 'contract.pdf');
      const upload = await fetch(`${origin}/api/files/upload-file`, {
        method: 'POST',
        headers: { Authorization: token },
        body: form,
      });
      expect(upload.status).toBe(201);
      await client.legacy.auth.forgotPassword({ body: { email: 'admin@contoso.example' } });
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        if (existsSync(join(dataDir, 'outbox')) && readdirSync(join(dataDir, 'outbox')).some((f) => f.endsWith('.eml')))
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
    const modes = modesBelow(dataDir);
    for (const part of [
      'PG_VERSION',
      'secret.key',
      'api-key',
      'blobs',
      'restores',
      'documents',
      'outbox',
      'm365-simulator',
    ]) {
      expect(
        modes.some((m) => m.path.startsWith(join(dataDir, part))),
        part,
      ).toBe(true);
    }
    expect(modes.some((m) => m.path.endsWith('.eml'))).toBe(true);
    const open = modes.filter((m) => (m.mode & 0o077) !== 0).map((m) => `${m.mode.toString(8)} ${m.path}`);
    expect(open).toEqual([]);
    expect(modes.length).toBeGreaterThan(500);
  }, 240_000);
});
