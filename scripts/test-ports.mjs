/**
 * Ports for the servers and emulators tests and benchmarks start. A port taken from `listen(0)` and
 * let go is the kernel's to hand out again, to another `listen(0)` or an outgoing connection, and on
 * a busy machine a server can take seconds (its database, its demo world) before it listens on the
 * port it was given: run 5 under load met EADDRINUSE exactly so. These ports come from 20000-31999,
 * below the kernel's ephemeral range (32768-60999 on Linux), which it never hands out by itself; and
 * processes running side by side (pnpm test runs suites at once) each reserve theirs by creating its
 * file in RESERVED with `wx`, which only one of them can. A port is given back by `releasePort`, by
 * `releasePorts` or when the process exits; a reservation whose process has ended without giving it
 * back (a worker killed) is taken over, as is one older than STALE_MS, since the kernel reuses
 * process ids.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RESERVED = join(tmpdir(), 'portal-test-ports');
const FIRST_PORT = 20_000;
const PORTS = 12_000;
const STALE_MS = 3 * 60 * 60 * 1000;
/** The ports this process reserved. */
const reserved = new Set();

const fileOf = (port) => join(RESERVED, String(port));

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Reserves `port` for this process: true unless another running process holds it, or this one does. */
export function reservePort(port) {
  const file = fileOf(port);
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    let owner = Number.NaN;
    let age = 0;
    try {
      owner = Number(readFileSync(file, 'utf8'));
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      return false;
    }
    if (!Number.isInteger(owner) || owner <= 0 || (alive(owner) && age < STALE_MS)) return false;
    try {
      unlinkSync(file);
      writeFileSync(file, String(process.pid), { flag: 'wx' });
    } catch {
      return false;
    }
  }
  reserved.add(port);
  return true;
}

/** Gives a port this process reserved back. */
export function releasePort(port) {
  if (reserved.delete(port)) rmSync(fileOf(port), { force: true });
}

/** Gives back every port this process reserved. */
export function releasePorts() {
  for (const port of [...reserved]) releasePort(port);
}
process.on('exit', releasePorts);

const bindable = (port) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A port of 127.0.0.1 nothing listens on, reserved for this process until it is given back. */
export async function freePort() {
  mkdirSync(RESERVED, { recursive: true });
  const start = randomInt(PORTS);
  for (let i = 0; i < PORTS; i++) {
    const port = FIRST_PORT + ((start + i) % PORTS);
    if (reservePort(port)) {
      if (await bindable(port)) return port;
      releasePort(port);
    }
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${FIRST_PORT + PORTS - 1}`);
}
