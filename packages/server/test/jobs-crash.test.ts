import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type PortalClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { base32Decode } from '../src/crypto/base32.js';
import { totp } from '../src/crypto/totp.js';
import { exited, freePort, startProcess } from './process.js';

const PASSWORD = 'Crash-Passw0rd!';
const CONTOSO = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const FILES = 700;
/** Files per account of the report comparison: enough for a kill in the middle of the first account. */
const REPORT_FILES = 400;

async function signIn(origin: string, apiKey: string): Promise<PortalClient> {
  const anonymous = createClient({ origin, apiKey });
  const first = await anonymous.legacy.auth.signin({ body: { email: 'admin@contoso.example', password: PASSWORD } });
  const auth = { headers: { Authorization: first.token } };
  const qr = await anonymous.legacy.auth.generateQr(undefined, auth);
  const code = totp(base32Decode(qr.key), Date.now());
  const session = await anonymous.legacy.auth.qrcodeVerification({ body: { code } }, auth);
  return createClient({ origin, apiKey, token: session.token });
}

describe('a worker killed in the middle of a run', () => {
  it('resumes the run on the next start and finishes it with every item once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
    const port = await freePort();
    const env = {
      PORTAL_DEMO_PASSWORD: PASSWORD,
      PORTAL_M365_SIMULATOR_SIZE: JSON.stringify({
        users: 2,
        sites: 0,
        teams: 0,
        filesPerDrive: FILES,
        versionsPerFile: 2,
      }),
    };
    const first = await startProcess(dataDir, port, env);
    const origin = `http://127.0.0.1:${port}`;
    const apiKey = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
    const api = await signIn(origin, apiKey);
    const domain = `t${CONTOSO.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;
    const job = await api.apollo.jobs.create({
      tenantId: CONTOSO,
      body: {
        name: 'Crash test',
        type: 'backup',
        application: 'onedrive',
        sources: [`adele@${domain}`, `alex@${domain}`],
      },
    });
    await api.apollo.jobs.start({ tenantId: CONTOSO, jobId: job.jobId });

    // Kill the process (no shutdown) once the run is well under way.
    for (let i = 0; i < 600; i++) {
      const now = await api.apollo.jobs.get({ tenantId: CONTOSO, jobId: job.jobId });
      if (now.progress >= 15) break;
      if (now.status === 'finished' || now.status === 'failed')
        throw new Error(`the run ended before the kill: ${now.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const killed = exited(first.child);
    first.child.kill('SIGKILL');
    await killed;

    const second = await startProcess(dataDir, port, env);
    try {
      let state = await api.apollo.jobs.get({ tenantId: CONTOSO, jobId: job.jobId });
      for (let i = 0; i < 1200 && state.status !== 'finished' && state.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = await api.apollo.jobs.get({ tenantId: CONTOSO, jobId: job.jobId });
      }
      expect(state.status).toBe('finished');
      const runs = await api.apollo.monitoring.list({ tenantId: CONTOSO, query: { jobId: job.jobId } });
      expect(runs.total).toBe(1);
      expect(runs.items[0]).toMatchObject({ status: 'finished', itemsProcessed: 2 * FILES, itemsFailed: 0 });
      const accounts = await api.apollo.monitoring.accounts({
        tenantId: CONTOSO,
        reportId: runs.items[0]?.reportId ?? '',
      });
      expect(accounts.items.map((a) => a.items)).toEqual([FILES, FILES]);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      await done;
    }
  }, 180_000);

  it('reports, once resumed, the items and bytes an uninterrupted run of the same job reports', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-report-'));
    const port = await freePort();
    const env = {
      PORTAL_DEMO_PASSWORD: PASSWORD,
      PORTAL_M365_SIMULATOR_SIZE: JSON.stringify({
        users: 2,
        sites: 0,
        teams: 0,
        filesPerDrive: REPORT_FILES,
        versionsPerFile: 2,
      }),
    };
    const first = await startProcess(dataDir, port, env);
    const origin = `http://127.0.0.1:${port}`;
    const apiKey = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
    const api = await signIn(origin, apiKey);
    const domain = `t${CONTOSO.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;
    const sources = [`adele@${domain}`, `alex@${domain}`];
    const create = (name: string) =>
      api.apollo.jobs.create({ tenantId: CONTOSO, body: { name, type: 'backup', application: 'onedrive', sources } });
    const ended = async (jobId: string) => {
      let state = await api.apollo.jobs.get({ tenantId: CONTOSO, jobId });
      for (let i = 0; i < 1200 && state.status !== 'finished' && state.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = await api.apollo.jobs.get({ tenantId: CONTOSO, jobId });
      }
      expect(state.status).toBe('finished');
    };
    /** The run's totals and each account's items and bytes, as the report shows them. */
    const report = async (jobId: string) => {
      const runs = await api.apollo.monitoring.list({ tenantId: CONTOSO, query: { jobId } });
      expect(runs.total).toBe(1);
      const run = runs.items[0];
      const accounts = await api.apollo.monitoring.accounts({
        tenantId: CONTOSO,
        reportId: run?.reportId ?? '',
      });
      return {
        itemsProcessed: run?.itemsProcessed,
        itemsFailed: run?.itemsFailed,
        bytesProcessed: run?.bytesProcessed,
        accounts: accounts.items
          .map((a) => ({ accountId: a.accountId, items: a.items, bytes: a.bytes }))
          .sort((a, b) => a.accountId.localeCompare(b.accountId)),
      };
    };

    const whole = await create('Uninterrupted');
    await api.apollo.jobs.start({ tenantId: CONTOSO, jobId: whole.jobId });
    await ended(whole.jobId);

    const crashed = await create('Crashed and resumed');
    await api.apollo.jobs.start({ tenantId: CONTOSO, jobId: crashed.jobId });
    // Kill the process (no shutdown) while an account is between a quarter and a half done. The
    // engine may have begun the other account meanwhile (a full run saturating the machine did).
    let killedAt: { accountId: string; items: number; bytes: number }[] = [];
    for (let i = 0; i < 1200 && killedAt.length === 0; i++) {
      const [run] = (await api.apollo.monitoring.list({ tenantId: CONTOSO, query: { jobId: crashed.jobId } })).items;
      if (run?.status === 'finished' || run?.status === 'failed')
        throw new Error(`the run ended before the kill: ${run.status}`);
      if (run) {
        const accounts = (await api.apollo.monitoring.accounts({ tenantId: CONTOSO, reportId: run.reportId })).items;
        if (accounts.some((a) => a.items >= REPORT_FILES / 4 && a.items < REPORT_FILES / 2))
          killedAt = accounts.map((a) => ({ accountId: a.accountId, items: a.items, bytes: a.bytes }));
      }
      if (killedAt.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(killedAt.length).toBeGreaterThan(0);
    const killed = exited(first.child);
    first.child.kill('SIGKILL');
    await killed;

    const second = await startProcess(dataDir, port, env);
    try {
      await ended(crashed.jobId);
      const expected = await report(whole.jobId);
      expect(expected.accounts.map((a) => a.items)).toEqual([REPORT_FILES, REPORT_FILES]);
      expect(expected.bytesProcessed).toBeGreaterThan(0);
      expect(await report(crashed.jobId)).toEqual(expected);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      await done;
    }
  }, 300_000);
});
