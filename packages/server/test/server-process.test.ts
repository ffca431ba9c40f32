import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, freePort, startProcess as start } from './process.js';

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
});
