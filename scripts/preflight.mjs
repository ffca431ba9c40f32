#!/usr/bin/env node
/**
 * What `pnpm test` needs from the machine, checked before it starts: Node.js 20.19 or newer, Debian's
 * Chromium (CHROMIUM_PATH, or /usr/bin/chromium) for the browser tests and Lighthouse, and a
 * PostgreSQL server answering at TEST_DATABASE_URL when that is set. Each check gives one line naming
 * what is missing and how to install it, or nothing, within seconds. Run alone
 * (`node scripts/preflight.mjs`) it prints those lines and exits 1 when there are any.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const CHROMIUM_INSTALL = 'apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)';
const TIMEOUT_MS = 5000;

export function checkNode(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  if (major > 20 || (major === 20 && minor >= 19)) return undefined;
  return `Node.js ${version} is too old, 20.19 or newer is needed: install it from https://nodejs.org (or nvm install 20)`;
}

/** Runs `command args` in its own process group; resolves with its exit and output, or kills the group after `ms`. */
function runBriefly(command, args, ms) {
  return new Promise((done) => {
    let output = '';
    let child;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      done({ timedOut: true, output });
    }, ms);
    child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      done({ error, output });
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
      });
    }
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, output });
    });
  });
}

/** Chromium must be an executable file that answers `--version`. */
export async function checkChromium(path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') {
  try {
    if (!statSync(path).isFile()) return `Chromium at ${path} is not a file: ${CHROMIUM_INSTALL}`;
    accessSync(path, constants.X_OK);
  } catch (error) {
    return error.code === 'ENOENT'
      ? `Chromium not found at ${path}: ${CHROMIUM_INSTALL}`
      : `Chromium at ${path} cannot be run (${error.code}): ${CHROMIUM_INSTALL}`;
  }
  const { timedOut, error, code, signal, output } = await runBriefly(path, ['--version'], TIMEOUT_MS);
  if (timedOut)
    return `Chromium at ${path} did not answer --version within ${TIMEOUT_MS / 1000} s: ${CHROMIUM_INSTALL}`;
  const said = output.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
  if (error) return `Chromium at ${path} cannot be started (${error.message}): ${CHROMIUM_INSTALL}`;
  if (code !== 0 || !/\d+\.\d+/.test(output)) {
    return `Chromium at ${path} does not run (--version ended with ${signal ?? code}${said ? `: ${said}` : ''}): ${CHROMIUM_INSTALL}`;
  }
  return undefined;
}

/** The newest PostgreSQL cluster version Debian has set up, for the start command. */
function clusterVersion() {
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').filter((v) => /^\d+$/.test(v)) : [];
  return versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
}

/** pg as the server package has it (the root has no dependencies of its own); undefined before `pnpm install`. */
function loadPg() {
  try {
    return createRequire(join(root, 'packages/server/package.json'))('pg');
  } catch {
    return undefined;
  }
}

function tcpAnswers(host, port, ms) {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (problem) => {
      socket.destroy();
      done(problem);
    };
    socket.setTimeout(ms, () => finish('ETIMEDOUT'));
    socket.once('connect', () => finish(undefined));
    socket.once('error', (error) => finish(error.code ?? error.message));
  });
}

/** The server at `url` must accept a connection and answer `select 1`. */
export async function checkPostgres(url) {
  let target;
  try {
    target = new URL(url);
    if (!/^postgres(ql)?:$/.test(target.protocol)) throw new Error('not postgres');
  } catch {
    return 'TEST_DATABASE_URL is not a postgres://user:password@host:port/database URL: set it to one, or unset it to skip the PostgreSQL run';
  }
  const host = target.hostname || '127.0.0.1';
  const port = Number(target.port || 5432);
  const where = `PostgreSQL at ${host}:${port}`;
  const install = `apt-get install -y postgresql && pg_ctlcluster ${clusterVersion()} main start (or unset TEST_DATABASE_URL to skip the PostgreSQL run)`;
  const pg = loadPg();
  if (!pg) {
    const problem = await tcpAnswers(host, port, TIMEOUT_MS);
    return problem ? `${where} does not answer (${problem}): ${install}` : undefined;
  }
  const client = new (pg.default ?? pg).Client({
    connectionString: url,
    connectionTimeoutMillis: TIMEOUT_MS,
    query_timeout: TIMEOUT_MS,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    if (error.code === '28P01' || error.code === '28000') {
      return `${where} refused the user of TEST_DATABASE_URL (${error.message}): set the user and password in TEST_DATABASE_URL, or unset it to skip the PostgreSQL run`;
    }
    if (error.code === '3D000') {
      return `${where} has no database ${target.pathname.slice(1)} (${error.message}): create it, or name another in TEST_DATABASE_URL`;
    }
    return `${where} does not answer (${error.code ?? error.message}): ${install}`;
  } finally {
    client.end().catch(() => {});
  }
}

/** Every problem, one line each; an empty list when `pnpm test` can start. */
export async function preflight(env = process.env) {
  const problems = await Promise.all([
    checkNode(),
    checkChromium(env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    env.TEST_DATABASE_URL ? checkPostgres(env.TEST_DATABASE_URL) : undefined,
  ]);
  return problems.filter(Boolean);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = await preflight();
  for (const problem of problems) console.error(problem);
  if (problems.length === 0)
    console.log('preflight: Node.js, Chromium and (when TEST_DATABASE_URL is set) PostgreSQL are ready');
  process.exit(problems.length === 0 ? 0 : 1);
}
