import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { appendAudit, canonicalJson, GENESIS_HASH, verifyAuditChain } from '../src/audit/audit-log.js';
import { openPglite } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

const run = promisify(execFile);

describe('audit log', () => {
  const server = useTestServer();

  it('records sign-ins, their failures and data changes with who, what, when, where and outcome', async () => {
    await server.request({ method: 'POST', url: '/api/auth/signin', body: { email: ADMIN, password: 'Wrong-1aA!' } });
    const token = await sessionToken(server, ADMIN);
    const created = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/locations`,
      token,
      body: { name: 'Audit test', siteAddress: 'https://contoso.sharepoint.com/sites/audit' },
    });
    expect(created.statusCode).toBe(200);
    const rows = await server.ctx.db.query<{
      action: string;
      outcome: string;
      actor_email: string;
      ip: string;
      at: Date;
    }>('select action, outcome, actor_email, ip, at from audit_log order by seq');
    const actions = rows.map((r) => `${r.action}:${r.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'system.seed:success',
        'auth.signin:failure',
        'auth.signin:success',
        'auth.2fa.setup:success',
        'location.create:success',
      ]),
    );
    const location = rows.find((r) => r.action === 'location.create');
    expect(location?.actor_email).toBe(ADMIN);
    expect(location?.ip).toBe('127.0.0.1');
    expect(new Date(location?.at ?? 0).getTime()).toBe(server.clock.now);
  });

  it('chains every entry to the one before and verifies', async () => {
    const report = await verifyAuditChain(server.ctx.db);
    expect(report.ok).toBe(true);
    const [count] = await server.ctx.db.query<{ n: number }>('select count(*)::int as n from audit_log');
    expect(report.entries).toBe(count?.n);
    const [first] = await server.ctx.db.query<{ prev_hash: string }>('select prev_hash from audit_log where seq = 1');
    expect(first?.prev_hash).toBe(GENESIS_HASH);
  });

  it('keeps the chain whole under concurrent appends', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.ctx.audit({
          action: 'test.concurrent',
          outcome: 'success',
          details: { i, nested: { b: 1, a: [2, { d: 4, c: 3 }] } },
        }),
      ),
    );
    expect((await verifyAuditChain(server.ctx.db)).ok).toBe(true);
  });

  it('detects an altered, a removed and a reordered entry', async () => {
    // Entries of its own to tamper with; the log is put back afterwards, for the other tests' chain.
    for (const step of ['first', 'second'])
      await server.ctx.audit({ action: 'test.tamper', outcome: 'success', details: { step } });
    const [target] = await server.ctx.db.query<{ seq: number }>(
      "select seq from audit_log where action = 'test.tamper' order by seq desc limit 1 offset 1",
    );
    const seq = Number(target?.seq);
    const [next] = await server.ctx.db.query<{ details: string }>(
      'select details::text as details from audit_log where seq = $1',
      [seq + 1],
    );
    try {
      await server.ctx.db.query(`update audit_log set outcome = 'failure' where seq = $1`, [seq]);
      expect(await verifyAuditChain(server.ctx.db)).toMatchObject({
        ok: false,
        brokenAt: seq,
        reason: 'altered entry',
      });
      await server.ctx.db.query(`update audit_log set outcome = 'success' where seq = $1`, [seq]);
      expect((await verifyAuditChain(server.ctx.db)).ok).toBe(true);

      await server.ctx.db.query(`update audit_log set details = '{"forged": true}' where seq = $1`, [seq + 1]);
      expect(await verifyAuditChain(server.ctx.db)).toMatchObject({ ok: false, brokenAt: seq + 1 });
    } finally {
      await server.ctx.db.query(`update audit_log set outcome = 'success' where seq = $1`, [seq]);
      await server.ctx.db.query('update audit_log set details = $2::jsonb where seq = $1', [
        seq + 1,
        next?.details ?? '{}',
      ]);
    }
    expect((await verifyAuditChain(server.ctx.db)).ok).toBe(true);
  });

  it('hashes details independently of key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });
});

describe('the audit verify command', () => {
  it('exits 0 on an intact chain and 1 on a broken one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-audit-'));
    const db = await openPglite(dir);
    await migrate(db);
    for (let i = 0; i < 3; i++) {
      await db.transaction((tx) =>
        appendAudit(tx, { action: 'test.entry', outcome: 'success', details: { i } }, new Date(1_800_000_000_000 + i)),
      );
    }
    await db.close();
    const command = fileURLToPath(new URL('../dist/audit/verify-command.js', import.meta.url));
    const env = { ...process.env, PORTAL_DATA_DIR: dir, DATABASE_URL: '' };
    const ok = await run(process.execPath, [command], { env });
    expect(ok.stdout).toContain('audit log intact: 3 entries');

    const again = await openPglite(dir);
    await again.query(`update audit_log set action = 'test.forged' where seq = 2`);
    await again.close();
    const broken = await run(process.execPath, [command], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(broken).toMatchObject({ code: 1 });
    expect((broken as { stderr: string }).stderr).toContain('broken at entry 2: altered entry');
  }, 60_000);
});
