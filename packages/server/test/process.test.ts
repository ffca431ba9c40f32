/**
 * The ports tests start servers on (scripts/test-ports.mjs): outside the range the kernel hands out by
 * itself, and reserved across processes, so that nothing takes one between a test picking it and its
 * server listening, however long a loaded machine makes that.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, RESERVED, reservePort } from '../../../scripts/test-ports.mjs';
import { exited } from './process.js';

const [EPHEMERAL_FIRST] = (() => {
  try {
    return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    return [32_768];
  }
})();

/** A process that runs until killed, and one that has ended (its pid names no process now). */
async function processes() {
  const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const ended = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await exited(ended);
  return { live, ended };
}

describe('freePort', () => {
  it('gives distinct ports below the ephemeral range, each reserved for this process', async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) {
      expect(port).toBeLessThan(EPHEMERAL_FIRST ?? 32_768);
      expect(readFileSync(join(RESERVED, String(port)), 'utf8')).toBe(String(process.pid));
      // Reserved here already: a second reservation of it fails.
      expect(reservePort(port)).toBe(false);
    }
  });

  it("never takes a port another running process reserved, and takes over an ended process's", async () => {
    const { live, ended } = await processes();
    const port = await freePort();
    const file = join(RESERVED, String(port));
    try {
      writeFileSync(file, String(live.pid));
      expect(reservePort(port)).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe(String(live.pid));

      writeFileSync(file, String(ended.pid));
      expect(reservePort(port)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(String(process.pid));

      // A reservation hours old is stale whoever has its process id now (the kernel reuses them).
      writeFileSync(file, String(live.pid));
      const hoursAgo = new Date(Date.now() - 4 * 60 * 60 * 1000);
      utimesSync(file, hoursAgo, hoursAgo);
      expect(reservePort(port)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    } finally {
      live.kill('SIGKILL');
      rmSync(file, { force: true });
    }
  });
});
