/**
 * A long report's accounts read in large pages, as an export reads them: up to MAX_ACCOUNTS_PAGE_SIZE
 * rows a page (more is refused), keyset pages that join up without gap or repeat, and at most 100
 * error messages per account however many its failed items left.
 */
import { randomUUID } from 'node:crypto';
import { MAX_ACCOUNTS_PAGE_SIZE, type Page, type RunAccount } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

const ACCOUNTS = 12_345;

describe("a long report's accounts", () => {
  const server = useTestServer();
  const runId = randomUUID();
  let token = '';
  const api = `/apollo-beta/api/${TENANTS.contoso}/reporting/${runId}/accounts`;
  const get = async (query: string) => {
    const res = await server.request({ method: 'GET', url: `${api}?${query}`, token });
    return { status: res.statusCode, body: res.json() as Page<RunAccount> };
  };

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    const db = server.ctx.db;
    const jobId = randomUUID();
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, status, created_at, updated_at)
       values ($1, $2, 'Long report', 'backup', 'onedrive', (select location_id from locations where tenant_id = $2 limit 1),
               $3, 'finished', now(), now())`,
      [jobId, TENANTS.contoso, JSON.stringify({ sources: ['user-000001'], recurrence: null, retention: null })],
    );
    await db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'manual', 'failed', now(), now(), now() - interval '1 hour', now())`,
      [runId, jobId, TENANTS.contoso],
    );
    await db.query(
      `insert into job_run_sources (run_id, source_id, items, failed_items, bytes, failed, display_name)
       select $1, 'user-' || lpad(g::text, 6, '0'), g % 500, (g = 2)::int * 150, g, g = 2, 'Account ' || lpad(g::text, 6, '0')
         from generate_series(1, $2::int) g`,
      [runId, ACCOUNTS],
    );
    // 150 failed items of one account: the page carries its first 100.
    await db.query(
      `insert into job_run_errors (run_id, source_id, item_key, item_name, code, message, permanent, attempts, at)
       select $1, 'user-000002', 'item-' || g, 'File ' || lpad(g::text, 3, '0'), 'accessDenied', 'Access denied', true, 1, now()
         from generate_series(1, 150) g`,
      [runId],
    );
  });

  it('are read in pages of up to the maximum, joined up by keyset without gap or repeat', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    let requests = 0;
    do {
      const { status, body } = await get(
        `pageSize=${MAX_ACCOUNTS_PAGE_SIZE}&sort=displayName&order=asc${after ? `&after=${after}` : ''}`,
      );
      expect(status).toBe(200);
      expect(body.total).toBe(ACCOUNTS);
      expect(body.items.length).toBeLessThanOrEqual(MAX_ACCOUNTS_PAGE_SIZE);
      seen.push(...body.items.map((a) => a.accountId));
      after = body.items.at(-1)?.accountId;
      requests++;
    } while (seen.length < ACCOUNTS && after);
    expect(requests).toBe(Math.ceil(ACCOUNTS / MAX_ACCOUNTS_PAGE_SIZE));
    expect(new Set(seen).size).toBe(ACCOUNTS);
    expect(seen).toEqual([...seen].sort());
  });

  it('refuse a page larger than the maximum', async () => {
    const res = await server.request({
      method: 'GET',
      url: `${api}?pageSize=${MAX_ACCOUNTS_PAGE_SIZE + 1}`,
      token,
    });
    expect(res.statusCode).toBe(400);
  });

  it('carry at most 100 error messages per account, the first ones', async () => {
    const { body } = await get('pageSize=5');
    const failed = body.items.find((a) => a.accountId === 'user-000002');
    expect(failed?.status).toBe('failed');
    expect(failed?.failedItems).toBe(150);
    expect(failed?.errors).toHaveLength(100);
    expect(failed?.errors[0]).toBe('File 001: Access denied');
    expect(failed?.errors.at(-1)).toBe('File 100: Access denied');
    expect(failed?.failures).toHaveLength(100);
    expect(failed?.failures?.[0]).toEqual({ item: 'File 001', reason: 'Access denied', code: 'accessDenied' });
    // The run failed: an account without failures of its own failed with it, and says the run's reason.
    for (const other of body.items.filter((a) => a.accountId !== 'user-000002')) {
      expect(other.errors).toEqual([`${other.displayName}: The run failed.`]);
      expect(other.failures).toEqual([{ item: other.displayName, reason: 'The run failed.', wholeAccount: true }]);
    }
  });
});
