/**
 * The operator's commands as an operator runs them (the built `dist/commands/*.js`, by
 * `pnpm --filter @compliance-portal/server <command>`), on the data directory of a demo world with its
 * history: every blob is encrypted; PORTAL_SECRET_KEY is rotated, after which
 * only the new key reads the data and the server starts on it; a deletion asks to be confirmed; an
 * Entra tenant is reassigned and released (on a demo world without history).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { exited, freePort, startProcess } from './process.js';

const command = (name: string, dataDir: string, env: Record<string, string>, args: string[] = []) => {
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL(`../dist/commands/${name}.js`, import.meta.url)), ...args],
    {
      env: { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
};

describe('the operator commands', () => {
  it('verify every blob encrypted, rotate the secret key (the blobs then read with the new key only), and confirm a deletion', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-commands-'));
    const port = await freePort();
    const first = await startProcess(dataDir, port, { PORTAL_DEMO_HISTORY: 'on' }, [], 120_000);
    const password = /with the password: (\S+)/.exec(first.output())?.[1] ?? '';
    const stopped = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await stopped).toBe(0);

    const verified = command('encrypt-blobs', dataDir, {}, ['--verify']);
    expect(verified.status, verified.out).toBe(0);
    const encrypted = Number(/blobs encrypted: (\d+); in the clear: 0; unreadable: 0/.exec(verified.out)?.[1]);
    expect(encrypted).toBeGreaterThan(100);

    const oldKey = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('hex');
    expect(command('rotate-secrets', dataDir, {}).status).toBe(2);
    const rotated = command('rotate-secrets', dataDir, {
      PORTAL_SECRET_KEY: newKey,
      PORTAL_SECRET_KEY_PREVIOUS: oldKey,
    });
    expect(rotated.status, rotated.out).toBe(0);
    expect(Number(/rewrapped with the new key: (\d+)/.exec(rotated.out)?.[1])).toBeGreaterThan(0);
    // The same blobs, read with the new key; the old key opens none of them any more.
    const withNew = command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: newKey }, ['--verify']);
    expect(withNew.out).toContain(`blobs encrypted: ${encrypted}; in the clear: 0; unreadable: 0`);
    const withOld = command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: oldKey }, ['--verify']);
    expect(withOld.status).toBe(1);
    expect(withOld.out).toContain(`unreadable: ${encrypted}`);
    // Nothing left to encrypt.
    expect(command('encrypt-blobs', dataDir, { PORTAL_SECRET_KEY: newKey }).out).toContain('blobs encrypted now: 0');

    const unconfirmed = command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['some-id']);
    expect(unconfirmed.status).toBe(2);
    expect(
      command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['no-such-organisation', '--yes']).out,
    ).toContain('No organisation no-such-organisation');

    // The server starts on the new key and signs in as before.
    const second = await startProcess(dataDir, port, { PORTAL_SECRET_KEY: newKey });
    try {
      const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@contoso.example', password }),
      });
      expect(signin.status).toBe(200);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      await done;
    }
  }, 240_000);

  it('entra:reassign binds a tenant to an organisation as the operator, taking it from the one that had it, and releases it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-reassign-'));
    const port = await freePort();
    const first = await startProcess(dataDir, port);
    const stopped = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    const tenant = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
    const read = async <T>(sql: string, params: unknown[] = []) => {
      const db = await openDatabase({ dataDir });
      try {
        return await db.query<T>(sql, params);
      } finally {
        await db.close();
      }
    };
    const ids = Object.fromEntries(
      (await read<{ id: string; name: string }>('select id, name from organisations')).map((o) => [o.name, o.id]),
    );
    const contoso = ids.Contoso ?? '';
    const fabrikam = ids['Fabrikam Partners'] ?? '';
    // The demo binds Contoso's tenant; one of its members has signed in with Microsoft from it.
    await read("update users set entra_object_id = 'adele-oid' where email like 'adele@%'");
    const reassign = (...args: string[]) => command('entra-reassign', dataDir, {}, args);

    expect(reassign(tenant, fabrikam).status).toBe(2);
    expect(reassign('not-a-tenant', fabrikam, '--yes').status).toBe(2);
    expect(reassign(tenant, fabrikam, '--release', '--yes').status).toBe(2);
    const unknown = reassign(tenant, 'no-such-organisation', '--yes');
    expect(unknown.status).toBe(1);
    expect(unknown.out).toContain('No organisation no-such-organisation');

    const moved = reassign(tenant.toUpperCase(), fabrikam, '--yes');
    expect(moved.status, moved.out).toBe(0);
    expect(moved.out).toContain(
      `Entra tenant ${tenant.toUpperCase()} bound to organisation ${fabrikam} (Fabrikam Partners)`,
    );
    expect(moved.out).toContain(
      `Released from organisation ${contoso} (Contoso): sign-in with Microsoft off, password sign-in on, 1 member(s) unlinked`,
    );
    const state = async () =>
      Object.fromEntries(
        (
          await read<{
            name: string;
            entra_tenant_id: string | null;
            entra_tenant_proof: string | null;
            entra_sign_in: boolean;
          }>('select name, entra_tenant_id, entra_tenant_proof, entra_sign_in from organisations')
        ).map(({ name, ...rest }) => [name, rest]),
      );
    expect(await state()).toMatchObject({
      Contoso: { entra_tenant_id: null, entra_sign_in: false },
      'Fabrikam Partners': { entra_tenant_id: tenant, entra_tenant_proof: 'operator', entra_sign_in: true },
    });
    expect(await read('select 1 from users where entra_object_id is not null')).toEqual([]);
    expect(reassign(tenant, fabrikam, '--yes').out).toContain('already bound');

    const released = reassign(tenant, '--release', '--yes');
    expect(released.status, released.out).toBe(0);
    expect(released.out).toContain(`released from organisation ${fabrikam} (Fabrikam Partners)`);
    expect((await state())['Fabrikam Partners']).toMatchObject({ entra_tenant_id: null, entra_sign_in: false });
    const again = reassign(tenant, '--release', '--yes');
    expect(again.status).toBe(1);
    expect(again.out).toContain('No organisation has the Entra tenant');

    const audit = await read<{ action: string; actor_email: string; organisation_id: string }>(
      "select action, actor_email, organisation_id from audit_log where action like 'organisation.entraTenant.%' order by seq",
    );
    expect(audit).toEqual([
      {
        action: 'organisation.entraTenant.released',
        actor_email: 'operator (entra:reassign)',
        organisation_id: contoso,
      },
      { action: 'organisation.entraTenant.bound', actor_email: 'operator (entra:reassign)', organisation_id: fabrikam },
      {
        action: 'organisation.entraTenant.released',
        actor_email: 'operator (entra:reassign)',
        organisation_id: fabrikam,
      },
    ]);
    // Each organisation's administrators are told, in the outbox of a server without SMTP.
    const outbox = readdirSync(join(dataDir, 'outbox')).map((file) =>
      readFileSync(join(dataDir, 'outbox', file), 'utf8'),
    );
    const toContoso = outbox.filter((mail) => /^To: admin@contoso\.example/m.test(mail));
    expect(toContoso.some((mail) => mail.includes('operator (entra:reassign) changed how Contoso signs in'))).toBe(
      true,
    );
    expect(outbox.some((mail) => /^To: partner@fabrikam\.example/m.test(mail))).toBe(true);
  }, 120_000);
});
