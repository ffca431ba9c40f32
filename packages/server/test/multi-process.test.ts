/**
 * The portal on several machines, as README's "Several machines" section runs it: two API processes
 * (`--role=web`) and two workers (`--role=worker`), each with a data directory of its own, on one
 * PostgreSQL database and one Azure Blob Storage container (Azurite), against the Graph simulator.
 * A session begun at one API process goes on at the other; sign-in attempts spread over both are
 * counted together; a worker killed mid-run hands the run to the other, which finishes it with every
 * item once; the backup restores as a download through the other API process; no job runs twice.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@compliance-portal/m365-simulator';
import { createClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { base32Decode } from '../src/crypto/base32.js';
import { totp } from '../src/crypto/totp.js';
import { migrate } from '../src/db/migrations.js';
import { openScratchDatabase } from '../src/db/scratch.js';
import { seedDemo } from '../src/demo/seed.js';
import { startAzurite } from './azurite.js';
import {
  ADMIN,
  API_KEY,
  DEMO_PASSWORD,
  fileRestore,
  simulatorGraph,
  TENANTS,
  TEST_SECRET_KEY,
  testContext,
} from './helpers.js';
import { exited, freePort, startProcess } from './process.js';
import { readZip } from './zip-reader.js';

const postgres = process.env.TEST_DATABASE_URL;

describe.runIf(postgres)('two API processes and two workers on one PostgreSQL database and one container', () => {
  it('share sessions, sign-in limits, the queue and the blobs; a killed worker hands its run over', async () => {
    const timings: Record<string, number> = {};
    const began = performance.now();
    const mark = (name: string) => {
      timings[name] = Math.round(performance.now() - began);
    };
    const { db, drop, url } = await openScratchDatabase(postgres, 'portal_scale');
    const azurite = await startAzurite();
    const tenantId = TENANTS.contoso;
    const sim = await startSimulator({
      tenants: [{ tenantId, size: { users: 2, sites: 0, teams: 0, filesPerDrive: 250, versionsPerFile: 2 } }],
    });
    const processes: Awaited<ReturnType<typeof startProcess>>[] = [];
    try {
      await migrate(db);
      await seedDemo(testContext(db).ctx);
      await db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
        tenantId,
        sim.graphBaseUrl,
        sim.authorityHost,
      ]);
      const container = await azurite.container('portal');
      // The variables README documents for several machines.
      const env = {
        DATABASE_URL: url ?? '',
        PORTAL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
        PORTAL_API_KEY: API_KEY,
        PORTAL_BLOB_STORE: azurite.containerUrl('portal'),
        PORTAL_BLOB_STORE_KEY: azurite.accountKey,
        PORTAL_AUTH_RATE_LIMIT: '6',
        // The simulator's certificate, as a machine trusts a CA of its own.
        NODE_EXTRA_CA_CERTS: sim.caCertificatePath,
      };
      const dirs = [0, 1, 2, 3].map((i) => mkdtempSync(join(tmpdir(), `portal-machine-${i}-`)));
      const ports = [await freePort(), await freePort()];
      const [web1, web2] = await Promise.all([
        startProcess(dirs[0] ?? '', ports[0] ?? 0, env, ['--role=web']),
        startProcess(dirs[1] ?? '', ports[1] ?? 0, env, ['--role=web']),
      ]);
      const workers = await Promise.all([
        startProcess(dirs[2] ?? '', await freePort(), env, ['--role=worker']),
        startProcess(dirs[3] ?? '', await freePort(), env, ['--role=worker']),
      ]);
      processes.push(...[web1, web2, ...workers].filter((p) => p !== undefined));
      mark('four processes up');
      const workerIds = workers.map((w) => /"workerId":"([^"]+)"/.exec(w.output())?.[1] ?? '');
      expect(workerIds.every(Boolean)).toBe(true);

      const origins = ports.map((port) => `http://127.0.0.1:${port}`);
      const [one, two] = origins.map((origin) => createClient({ origin, apiKey: API_KEY }));
      if (!one || !two) throw new Error('no clients');

      // Sign-in at the first process, the authenticator's setup and the session at the second.
      const first = await one.legacy.auth.signin({ body: { email: ADMIN, password: DEMO_PASSWORD } });
      const auth = { headers: { Authorization: first.token } };
      const qr = await two.legacy.auth.generateQr(undefined, auth);
      const session = await one.legacy.auth.qrcodeVerification(
        { body: { code: totp(base32Decode(qr.key), Date.now()) } },
        auth,
      );
      const api = origins.map((origin) => createClient({ origin, apiKey: API_KEY, token: session.token }));
      const [api1, api2] = api;
      if (!api1 || !api2) throw new Error('no clients');
      expect((await api2.apollo.tenants.list()).some((t) => t.tenantId === tenantId)).toBe(true);
      mark('signed in across processes');

      // Six sign-ins a minute per client, counted together: the first above was one of them.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${origins[i % 2]}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@contoso.example', password: 'wrong-password' }),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

      // A backup: the worker running it is killed mid-run; the other resumes it.
      const upn = sim.state.tenant(tenantId).users[0]?.upn ?? '';
      const backup = await api1.apollo.jobs.create({
        tenantId,
        body: { name: 'OneDrive', type: 'backup', application: 'onedrive', sources: [upn] },
      });
      await api2.apollo.jobs.start({ tenantId, jobId: backup.jobId });
      const runOf = async (jobId: string) =>
        (
          await db.query<{ status: string; worker_id: string | null; items_done: number; n: number }>(
            `select status, worker_id, items_done, (select count(*)::int from job_runs where job_id = $1) as n
               from job_runs where job_id = $1 order by seq desc limit 1`,
            [jobId],
          )
        )[0];
      let holder: string | null = null;
      for (let i = 0; i < 600 && !holder; i++) {
        const run = await runOf(backup.jobId);
        if (run?.status === 'running' && Number(run.items_done) > 0) holder = run.worker_id;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(holder).not.toBeNull();
      const killed = workerIds.indexOf(holder ?? '');
      expect(killed).toBeGreaterThanOrEqual(0);
      const victim = workers[killed];
      if (!victim) throw new Error('no worker holds the run');
      const down = exited(victim.child);
      victim.child.kill('SIGKILL');
      await down;
      mark('worker killed mid-run');
      const done = await waitFor(async () => {
        const run = await runOf(backup.jobId);
        return run?.status === 'finished' ? run : undefined;
      }, 120_000);
      mark('run finished by the other worker');
      expect(done).toMatchObject({ n: 1, worker_id: workerIds[1 - killed] });
      const [versions] = await db.query<{ files: number; n: number }>(
        "select count(distinct item_id)::int as files, count(*)::int as n from backup_items where job_id = $1 and kind = 'file'",
        [backup.jobId],
      );
      expect(versions).toEqual({ files: 250, n: 500 });
      // Every version once, its blob in the container, none on a machine's disk.
      let blobs = 0;
      for await (const _ of container.listBlobsFlat()) blobs += 1;
      expect(blobs).toBeGreaterThan(0);
      for (const dir of dirs) expect(readdirSync(dir)).not.toContain('blobs');

      // Restored as a download by the surviving worker, fetched through the other API process.
      const [file] = await db.query<{ item_id: string; source_id: string; path: string }>(
        `select item_id, source_id, path from backup_items where job_id = $1 and kind = 'file' and is_latest
          order by path limit 1`,
        [backup.jobId],
      );
      const restore = await api2.apollo.jobs.create({
        tenantId,
        body: fileRestore('Download', backup.jobId, file, { target: 'download' }),
      });
      await waitFor(async () => ((await runOf(restore.jobId))?.status === 'finished' ? true : undefined), 60_000);
      const zip = await fetch(`${origins[0]}/api/backup-and-restore/download-restore-archive`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: session.token },
        body: JSON.stringify({ jobId: restore.jobId }),
      });
      expect(zip.status).toBe(200);
      const entries = readZip(Buffer.from(await zip.arrayBuffer()));
      const graph = simulatorGraph(sim, tenantId);
      const original = await graph.itemContent((await graph.userDrive(upn)).id ?? '', file?.item_id ?? '');
      expect(entries.size).toBe(1);
      expect([...entries.values()][0]?.equals(Buffer.from(original))).toBe(true);
      mark('restored through the other API process');

      // Jobs started at once through both processes: each runs once.
      const many = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          (i % 2 ? api1 : api2).apollo.jobs.create({
            tenantId,
            body: { name: `Job ${i}`, type: 'backup', application: 'onedrive', sources: [upn] },
          }),
        ),
      );
      await Promise.all(many.map((j, i) => (i % 2 ? api2 : api1).apollo.jobs.start({ tenantId, jobId: j.jobId })));
      for (const job of many) {
        expect(
          await waitFor(
            async () => ((await runOf(job.jobId))?.status === 'finished' ? runOf(job.jobId) : undefined),
            120_000,
          ),
        ).toMatchObject({ n: 1 });
      }
      mark('four more jobs, each run once');
      console.info(`multi-process timings (ms since start): ${JSON.stringify(timings)}`);
    } finally {
      for (const p of processes) {
        if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
        const ended = exited(p.child);
        p.child.kill('SIGTERM');
        await ended;
      }
      await sim.close();
      await azurite.stop();
      await drop();
    }
  }, 300_000);
});

async function waitFor<T>(probe: () => Promise<T | undefined>, withinMs: number): Promise<T> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${withinMs} ms`);
}
