/** Starting the built server as a process, as `pnpm start` does, for tests that stop or kill it. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export async function startProcess(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  args: string[] = [],
) {
  const child = spawn(process.execPath, [entry, ...args], {
    env: {
      ...process.env,
      PORTAL_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: args.includes('--role=worker') ? 'info' : 'warn',
      DATABASE_URL: '',
      PORTAL_DEMO_PASSWORD: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A worker has no HTTP side: it is up once it says so.
  const worker = args.includes('--role=worker');
  for (let i = 0; i < 600; i++) {
    const ok = worker
      ? output.includes('job worker started')
      : await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
    if (ok) return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${output}`);
}

export const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
