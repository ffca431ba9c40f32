/**
 * A date range given backwards (`to` before `from`) finds nothing: every endpoint with a range refuses
 * it with 400 in the API's own error shape, naming `to`, and answers the same range in order. The list
 * of endpoints is the catalogue's: one that gains a range is checked here or fails the first test.
 */
import { endpoints } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { RANGE_ORDER_MESSAGE } from '../src/http/contract.js';
import { ADMIN, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

const EARLY = '2026-11-01T00:00:00.000Z';
const LATE = '2026-11-20T00:00:00.000Z';

interface Case {
  id: string;
  method: 'GET' | 'POST';
  url: string;
  /** Where the range goes: the query (GET) or this body around it. */
  body?: (range: { from: string; to: string }) => object;
  /** Where the refusal names the field. */
  field: string;
}

/** A mailbox the administrator is given a proxy right on, to browse its archive by date. */
const BROWSED_MAILBOX = 'adele@contoso.example';

describe('date ranges', () => {
  const server = useTestServer();
  let token = '';
  let ip = '';
  const tenant = TENANTS.contoso;
  const cases = (): Case[] => [
    {
      id: 'apollo.monitoring.list',
      method: 'GET',
      url: `/apollo-beta/api/${tenant}/monitoring`,
      field: 'querystring/to',
    },
    {
      id: 'apollo.reporting.list',
      method: 'GET',
      url: `/apollo-beta/api/${tenant}/reporting`,
      field: 'querystring/to',
    },
    {
      id: 'apollo.reporting.dataManagementReports',
      method: 'GET',
      url: `/apollo-beta/api/${tenant}/reporting/data-management-reports`,
      field: 'querystring/to',
    },
    { id: 'apollo.audit.list', method: 'GET', url: '/apollo-beta/api/audit-log', field: 'querystring/to' },
    {
      id: 'apollo.ediscovery.search',
      method: 'POST',
      url: `/apollo-beta/api/${tenant}/ediscovery/search`,
      body: (range) => ({ query: '', ...range }),
      field: 'body/to',
    },
    {
      id: 'apollo.ediscovery.createCase',
      method: 'POST',
      url: `/apollo-beta/api/${tenant}/ediscovery/cases`,
      body: (range) => ({ name: `Range ${range.from} to ${range.to}`, search: { query: '', ...range } }),
      field: 'body/search/to',
    },
    {
      id: 'apollo.archive.browseMail',
      method: 'POST',
      url: `/apollo-beta/api/${tenant}/archive/mail/browse`,
      body: (range) => ({ mailboxId: BROWSED_MAILBOX, ...range }),
      field: 'body/to',
    },
    {
      id: 'legacy.teams.filter',
      method: 'POST',
      url: '/api/backup-and-restore/teams-filter-re',
      body: (range) => ({ workerIp: ip, ...range }),
      field: 'body/to',
    },
    {
      id: 'legacy.jobs.filtered',
      method: 'POST',
      url: '/api/filtered-jobs',
      body: (range) => ({ workerIp: ip, ...range }),
      field: 'body/to',
    },
  ];
  const send = (c: Case, range: { from: string; to: string }) =>
    server.request({
      method: c.method,
      url: c.body ? c.url : `${c.url}?from=${range.from}&to=${range.to}`,
      token,
      ...(c.body ? { body: c.body(range) } : {}),
    });

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    ip = await workerIp(server, 'Contoso');
    // Browsing a mailbox's archive needs a proxy right on it: granted here, so that a range in order is answered.
    await server.ctx.db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                 principal_email, granted_by, granted_at)
       values ('r-ranges', $1, $2, 'Adele Vance', 'user:admin', 'account', 'Admin', $3, 'test', $4)`,
      [tenant, BROWSED_MAILBOX, ADMIN, server.ctx.now()],
    );
  });

  it('covers every endpoint of the catalogue whose query or body has a range', () => {
    const withRange = (schema: unknown): boolean => {
      const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (!properties) return false;
      return ('from' in properties && 'to' in properties) || Object.values(properties).some(withRange);
    };
    const ranged = endpoints.filter((e) => withRange(e.query) || withRange(e.body)).map((e) => e.id);
    expect(ranged.sort()).toEqual(
      cases()
        .map((c) => c.id)
        .sort(),
    );
  });

  it('refuses `to` before `from` with 400, naming the field, on apollo as ProblemDetails and on legacy as {message}', async () => {
    for (const c of cases()) {
      const answer = await send(c, { from: LATE, to: EARLY });
      expect(answer.statusCode, `${c.id}: ${answer.body}`).toBe(400);
      const body = answer.json() as { errors?: Record<string, string[]>; title?: string; message?: string };
      expect(body.errors, c.id).toEqual({ [c.field]: [RANGE_ORDER_MESSAGE] });
      if (c.id.startsWith('apollo.')) {
        expect(answer.headers['content-type']).toContain('application/problem+json');
        expect(body.title).toBe('One or more validation errors occurred.');
      } else {
        expect(body.message).toBe('Invalid request');
      }
    }
  });

  it('answers the same range in order, and a range of one instant (`to` is exclusive: empty, not wrong)', async () => {
    for (const c of cases()) {
      for (const range of [
        { from: EARLY, to: LATE },
        { from: EARLY, to: EARLY },
      ]) {
        const answer = await send(c, range);
        expect(answer.statusCode, `${c.id} ${range.from}..${range.to}: ${answer.body}`).toBeLessThan(300);
      }
    }
  });
});
