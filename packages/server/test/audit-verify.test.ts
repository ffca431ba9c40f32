/**
 * The audit log as its screen reads it: entries filtered by actor, with the actor's and target's names,
 * and an organisation's entries verified against the hash chain: intact, then an entry changed (with
 * or without its hash computed again), or one removed, found at its position; another organisation's
 * log refused.
 */
import type { AuditChainReport, AuditEntry, Page } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AuditRow, entryHash, toEntry } from '../src/audit/audit-log.js';
import { ADMIN, organisationId, PARTNER, sessionToken, TENANTS, useTestServer } from './helpers.js';

// In this order: the verification test alters and removes entries that the first test reads.
describe('audit log screen', { shuffle: false }, () => {
  const server = useTestServer();
  let admin = '';
  let contosoId = '';
  const apollo = (path: string, token: string) => server.request({ method: 'GET', url: `/apollo-beta${path}`, token });
  const verify = async (token = admin, query = '') => {
    const response = await apollo(`/api/audit-log/verify${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AuditChainReport;
  };

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    contosoId = await organisationId(server, 'Contoso');
    const created = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/locations`,
      token: admin,
      body: { name: 'Audited vault', siteAddress: 'https://contoso.sharepoint.com/sites/audited' },
    });
    expect(created.statusCode).toBe(200);
    await server.request({
      method: 'POST',
      url: '/api/admin/user_create',
      token: admin,
      body: { email: 'named@contoso.example', displayName: 'Named Person', role: 'admin' },
    });
  });

  it('names actors and targets, and filters by actor, action and time', async () => {
    const page = (await apollo('/api/audit-log?actor=contoso%20admin', admin)).json() as Page<AuditEntry>;
    expect(page.total).toBeGreaterThan(0);
    expect(page.items.every((e) => e.actorEmail === ADMIN && e.actorName === 'Contoso Administrator')).toBe(true);
    const location = page.items.find((e) => e.action === 'location.create');
    expect(location?.targetName).toBe('Audited vault');
    const user = page.items.find((e) => e.action === 'user.create');
    expect(user?.targetName).toBe('Named Person');
    const byAddress = (await apollo('/api/audit-log?actor=ADMIN@CONTOSO', admin)).json() as Page<AuditEntry>;
    expect(byAddress.total).toBe(page.total);
    const nobody = (await apollo('/api/audit-log?actor=nobody%25', admin)).json() as Page<AuditEntry>;
    expect(nobody.total).toBe(0);
    const users = (await apollo('/api/audit-log?action=user.', admin)).json() as Page<AuditEntry>;
    expect(users.items.map((e) => e.action)).toEqual(['user.create']);
    const later = new Date(server.clock.now + 1000).toISOString();
    const none = (await apollo(`/api/audit-log?from=${encodeURIComponent(later)}`, admin)).json() as Page<AuditEntry>;
    expect(none.total).toBe(0);
  });

  it("verifies the organisation's entries and finds a changed or removed one at its position", async () => {
    const intact = await verify();
    const [counted] = await server.ctx.db.query<{ n: number; first: string; last: string }>(
      'select count(*)::int as n, min(seq) as first, max(seq) as last from audit_log where organisation_id = $1',
      [contosoId],
    );
    expect(intact).toMatchObject({
      verified: true,
      entries: counted?.n,
      firstSeq: Number(counted?.first),
      lastSeq: Number(counted?.last),
      brokenAt: null,
      problem: null,
      checkedAt: new Date(server.clock.now).toISOString(),
    });
    const [row] = await server.ctx.db.query<AuditRow>(
      "select * from audit_log where organisation_id = $1 and action = 'location.create'",
      [contosoId],
    );
    if (!row) throw new Error('no location.create entry');
    const seq = Number(row.seq);
    const restore = () =>
      server.ctx.db.query('update audit_log set details = $2, hash = $3 where seq = $1', [
        seq,
        JSON.stringify(row.details),
        row.hash,
      ]);

    // Its details changed: the entry no longer matches its hash.
    await server.ctx.db.query(`update audit_log set details = '{"name":"Innocent"}' where seq = $1`, [seq]);
    expect(await verify()).toMatchObject({ verified: false, brokenAt: seq, problem: 'altered' });
    // Its hash computed again for the new details: the entry after it no longer follows from it.
    const { hash: _old, ...altered } = { ...toEntry(row), details: { name: 'Innocent' } };
    await server.ctx.db.query('update audit_log set hash = $2 where seq = $1', [seq, entryHash(altered)]);
    expect(await verify()).toMatchObject({ verified: false, brokenAt: seq + 1, problem: 'brokenLink' });
    await restore();
    expect(await verify()).toMatchObject({ verified: true });

    // An entry removed between two of the organisation's: a gap at its position (a later entry is made
    // first, so that the removed one is not the log's last, whose removal no link can show).
    const later = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/locations`,
      token: admin,
      body: { name: 'Later vault', siteAddress: 'https://contoso.sharepoint.com/sites/later' },
    });
    expect(later.statusCode).toBe(200);
    const [removed] = await server.ctx.db.query<{ seq: string }>(
      'select seq from audit_log where organisation_id = $1 and seq > $2 order by seq limit 1',
      [contosoId, seq],
    );
    await server.ctx.db.query('delete from audit_log where seq = $1', [Number(removed?.seq)]);
    expect(await verify()).toMatchObject({ verified: false, brokenAt: Number(removed?.seq), problem: 'missing' });
  });

  it("answers another organisation's log as unknown, and a client's to its partner", async () => {
    const northwindId = await organisationId(server, 'Northwind Traders');
    const refused = await apollo(`/api/audit-log/verify?organisationId=${northwindId}`, admin);
    expect(refused.statusCode).toBe(404);
    const partner = await sessionToken(server, PARTNER);
    expect(await verify(partner, `?organisationId=${northwindId}`)).toMatchObject({ verified: true });
  });
});
