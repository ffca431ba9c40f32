import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function start(dataDir: string, port: number) {
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      PORTAL_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      PORTAL_DEMO_PASSWORD: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${output}`);
}

const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

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
