/**
 * A run said as the monitor and the reports say it: a failed run's reason with Microsoft's code kept
 * apart, every account it was to cover named as failed by its name (never "Failures 0" with no reason),
 * a finished run's failed account by name with its reason and code, item names without the id of
 * their account in front, and the run's figures (queued, duration, throughput, accounts failed).
 */
import type { JobRun, Page, RunAccount } from '@compliance-portal/sdk';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../src/jobs/engine.js';
import type { Executor } from '../src/jobs/run-context.js';
import { GraphError } from '../src/m365/graph-api.js';
import { ADMIN, discovered, sessionToken, TENANTS, useTestServer } from './helpers.js';

const ADELE = 'adele@contoso.example';
const GUEST = 'guest_fabrikam.example#EXT#@contoso.example';
const TEAM = '0b7f8a2e-4c1d-4e5f-9a6b-7c8d9e0f1a2b';

describe('runs as the monitor says them', () => {
  const server = useTestServer();
  const tenantId = TENANTS.contoso;
  let token = '';
  let executor: Executor = async () => ({});
  const engine = () =>
    new JobEngine(server.ctx, {
      executors: { backup: (rc) => executor(rc), teamsArchive: (rc) => executor(rc) },
      heartbeatMs: 20,
    });
  const get = async <T>(url: string): Promise<T> => {
    const response = await server.request({ method: 'GET', url: `/apollo-beta/api/${tenantId}${url}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };
  /** Creates the job, runs it to its end: its run as the monitor lists it, and the run's accounts. */
  const runOnce = async (body: object) => {
    const created = await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs`, token, body });
    expect(created.statusCode, created.body).toBe(200);
    const { jobId } = created.json() as { jobId: string };
    await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token });
    await engine().runUntilIdle();
    const runs = await get<Page<JobRun>>('/monitoring?pageSize=100');
    const run = runs.items.find((r) => r.jobId === jobId);
    if (!run) throw new Error('the run is not in the monitor');
    const accounts = await get<Page<RunAccount>>(`/monitoring/${run.reportId}/accounts?pageSize=100`);
    const failed = await get<Page<RunAccount>>(`/monitoring/${run.reportId}/accounts?status=failed`);
    return { run, accounts: accounts.items, failed: failed.items };
  };

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    await discovered(server, tenantId, 'onedrive', [ADELE, GUEST]);
    await discovered(server, tenantId, 'teams', [TEAM]);
    const names: [string, string][] = [
      [ADELE, 'Adele Vance'],
      [GUEST, 'Gerda Guest'],
      [TEAM, 'Sales and Marketing'],
    ];
    for (const [id, name] of names) {
      await server.ctx.db.query('update discovered_sources set display_name = $2 where source_id = $1', [id, name]);
    }
  });
  beforeEach(async () => {
    await server.ctx.db.query('delete from jobs');
  });

  it('a failed run: its reason in words, Microsoft’s code and status apart, each account failed by name', async () => {
    executor = async () => {
      throw new GraphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    };
    const { run, accounts, failed } = await runOnce({
      name: 'Refused',
      type: 'backup',
      application: 'onedrive',
      sources: [ADELE, GUEST],
    });
    expect(run).toMatchObject({
      status: 'failed',
      state: 'failed',
      message: 'Insufficient privileges to complete the operation.',
      failure: {
        reason: 'Insufficient privileges to complete the operation.',
        code: 'Authorization_RequestDenied',
        status: 403,
      },
      accountsTotal: 2,
      accountsFailed: 2,
      itemsFailed: 0,
    });
    expect(run.queuedAt).toEqual(expect.any(String));
    expect(run.durationSeconds).toBe(0);
    // Both accounts it was to cover, by name, each with the run's reason and code: never "—".
    expect(accounts.map((a) => [a.displayName, a.status])).toEqual([
      ['Adele Vance', 'failed'],
      ['Gerda Guest', 'failed'],
    ]);
    for (const account of accounts) {
      expect(account.failures).toEqual([
        {
          item: account.displayName,
          reason: 'Insufficient privileges to complete the operation.',
          code: 'Authorization_RequestDenied',
          status: 403,
          wholeAccount: true,
        },
      ]);
      expect(account.errors).toEqual([`${account.displayName}: Insufficient privileges to complete the operation.`]);
    }
    expect(failed).toHaveLength(2);
  });

  it('a run that failed while it read an account names that account with the error as its own', async () => {
    executor = async (rc) => {
      const [first] = rc.job.sources;
      await rc.item({ key: `source:${first}`, name: first ?? '', source: first ?? '', wholeSource: true }, async () => {
        rc.progress({ total: 3, done: 1, source: first ?? '' });
      });
      // Reading its drive's changes fails after the Graph client's retries: the run fails.
      throw new GraphError(503, 'serviceNotAvailable', 'The service is temporarily unavailable. Retry after a while.');
    };
    const { run, accounts } = await runOnce({
      name: 'Outage',
      type: 'backup',
      application: 'onedrive',
      sources: [ADELE, GUEST],
    });
    expect(run).toMatchObject({
      status: 'failed',
      failure: { code: 'serviceNotAvailable', status: 503 },
      accountsTotal: 2,
      accountsFailed: 2,
    });
    const adele = accounts.find((a) => a.accountId === ADELE);
    expect(adele?.failures).toEqual([
      {
        item: 'Adele Vance',
        reason: 'The service is temporarily unavailable. Retry after a while.',
        code: 'serviceNotAvailable',
        status: 503,
        wholeAccount: true,
      },
    ]);
    expect(accounts.find((a) => a.accountId === GUEST)?.failures?.[0]).toMatchObject({
      item: 'Gerda Guest',
      code: 'serviceNotAvailable',
    });
  });

  it('a finished run with a failed account and a failed item: names, reasons and codes, failed accounts first by filter', async () => {
    executor = async (rc) => {
      for (const source of rc.job.sources) {
        // The account's whole mailbox cannot be read; the other's one item fails.
        await rc.item({ key: `source:${source}`, name: source, source, wholeSource: source === GUEST }, async () => {
          if (source === GUEST) {
            throw new GraphError(
              404,
              'MailboxNotEnabledForRESTAPI',
              'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
            );
          }
        });
        if (source === ADELE) {
          rc.progress({ total: 2, done: 1, bytes: 2048, source });
          await rc.item({ key: 'file:1', name: 'OneDrive/Reports/Q3.xlsx', source }, async () => {
            throw new GraphError(423, 'resourceLocked', 'The resource you are attempting to access is locked.');
          });
        }
      }
      return {};
    };
    const { run, accounts, failed } = await runOnce({
      name: 'Partly',
      type: 'backup',
      application: 'onedrive',
      sources: [ADELE, GUEST],
    });
    expect(run).toMatchObject({
      status: 'finished',
      state: 'finished',
      itemsProcessed: 1,
      itemsFailed: 2,
      warnings: 2,
      accountsTotal: 2,
      accountsFailed: 1,
    });
    expect(run.failure).toBeUndefined();
    expect(run.message).toBe('Finished with 2 items that could not be processed.');
    const guest = accounts.find((a) => a.accountId === GUEST);
    expect(guest).toMatchObject({ displayName: 'Gerda Guest', status: 'failed' });
    expect(guest?.failures).toEqual([
      {
        item: 'Gerda Guest',
        reason: 'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
        code: 'MailboxNotEnabledForRESTAPI',
        status: 404,
        wholeAccount: true,
      },
    ]);
    const adele = accounts.find((a) => a.accountId === ADELE);
    expect(adele).toMatchObject({ displayName: 'Adele Vance', status: 'finished', failedItems: 1 });
    expect(adele?.failures).toEqual([
      {
        item: 'OneDrive/Reports/Q3.xlsx',
        reason: 'The resource you are attempting to access is locked.',
        code: 'resourceLocked',
        status: 423,
      },
    ]);
    expect(failed.map((a) => a.displayName)).toEqual(['Gerda Guest']);
  });

  it('an item recorded with its team’s id in front (before migration 30) is named without it', async () => {
    executor = async (rc) => {
      const team = rc.job.sources[0] ?? '';
      await rc.item({ key: `channel:${team}/1`, name: `${team}: General`, source: team }, async () => {
        throw new GraphError(403, 'Forbidden', 'Access to the channel was denied.');
      });
      return {};
    };
    const { accounts } = await runOnce({
      name: 'Channels',
      type: 'teamsArchive',
      application: 'teams',
      sources: [TEAM],
    });
    const [team] = accounts;
    expect(team?.displayName).toBe('Sales and Marketing');
    expect(team?.failures?.[0]).toMatchObject({ item: 'General', code: 'Forbidden', status: 403 });
    for (const text of team?.errors ?? []) expect(text).not.toMatch(/^[0-9a-f]{8}-/i);
  });

  it('a run started on creation is queued with the time it was queued, and no duration yet', async () => {
    const created = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${tenantId}/jobs`,
      token,
      body: {
        name: 'At once',
        type: 'backup',
        application: 'onedrive',
        sources: [ADELE],
        recurrence: { kind: 'afterCreation' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const runs = await get<Page<JobRun>>('/monitoring?pageSize=100');
    const run = runs.items.find((r) => r.jobName === 'At once');
    expect(run).toMatchObject({ status: 'pending', state: 'queued', started: null, durationSeconds: null });
    expect(run?.queuedAt).toBe(server.ctx.now().toISOString());
  });
});
