import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@compliance-portal/sdk';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { base32Decode } from '../src/crypto/base32.js';
import { totp } from '../src/crypto/totp.js';
import { exited, freePort, startProcess } from './process.js';

const postgres = process.env.TEST_DATABASE_URL;
const PASSWORD = 'Workers-Passw0rd!';
const CONTOSO = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';

describe.runIf(postgres)('two worker processes on one PostgreSQL database', () => {
  it('share the queue and never run the same job twice', async () => {
    const name = `portal_workers_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(postgres ?? '');
    url.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-workers-'));
    const port = await freePort();
    const env = {
      DATABASE_URL: url.toString(),
      // On PostgreSQL demo mode is off unless asked for: this test runs on the demo world.
      PORTAL_DEMO: 'on',
      PORTAL_DEMO_PASSWORD: PASSWORD,
      PORTAL_M365_SIMULATOR_SIZE: JSON.stringify({
        users: 2,
        sites: 0,
        teams: 0,
        filesPerDrive: 40,
        versionsPerFile: 2,
      }),
    };
    const web = await startProcess(dataDir, port, env, ['--role=web']);
    const workers = [
      await startProcess(dataDir, port, env, ['--role=worker']),
      await startProcess(dataDir, port, env, ['--role=worker']),
    ];
    try {
      const origin = `http://127.0.0.1:${port}`;
      const apiKey = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
      const anonymous = createClient({ origin, apiKey });
      const first = await anonymous.legacy.auth.signin({
        body: { email: 'admin@contoso.example', password: PASSWORD },
      });
      const auth = { headers: { Authorization: first.token } };
      const qr = await anonymous.legacy.auth.generateQr(undefined, auth);
      const session = await anonymous.legacy.auth.qrcodeVerification(
        { body: { code: totp(base32Decode(qr.key), Date.now()) } },
        auth,
      );
      const api = createClient({ origin, apiKey, token: session.token });
      const domain = `t${CONTOSO.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;
      const jobs: string[] = [];
      for (let i = 0; i < 6; i++) {
        const job = await api.apollo.jobs.create({
          tenantId: CONTOSO,
          body: {
            name: `Job ${i}`,
            type: 'backup',
            application: 'onedrive',
            sources: [i % 2 ? `adele@${domain}` : `alex@${domain}`],
          },
        });
        jobs.push(job.jobId);
      }
      await Promise.all(jobs.map((jobId) => api.apollo.jobs.start({ tenantId: CONTOSO, jobId })));
      for (let i = 0; i < 600; i++) {
        const list = await api.apollo.jobs.list({ tenantId: CONTOSO, query: { pageSize: 50 } });
        if (list.items.filter((j) => jobs.includes(j.jobId)).every((j) => j.status === 'finished')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const runs = await db.query<{ job_id: string; n: number; status: string }>(
        `select job_id, count(*)::int as n, min(status) as status from job_runs where job_id = any($1) group by job_id`,
        [jobs],
      );
      const byWorker = await db.query<{ worker_id: string }>('select distinct worker_id from job_runs');
      await db.end();
      expect(runs.rows).toHaveLength(6);
      for (const r of runs.rows) expect(r).toMatchObject({ n: 1, status: 'finished' });
      // Both workers took runs from the one queue.
      expect(byWorker.rows).toHaveLength(2);
    } finally {
      for (const p of [web, ...workers]) {
        const done = exited(p.child);
        p.child.kill('SIGTERM');
        await done;
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 180_000);
});
