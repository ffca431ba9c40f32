/**
 * The operator's commands as an operator runs them (the built `dist/commands/*.js`, by
 * `pnpm --filter @compliance-portal/server <command>`), on the data directory of a demo world with its
 * history: every blob is encrypted; documents kept in the clear by an earlier version are sealed,
 * resumably; PORTAL_SECRET_KEY is rotated, after which only the new key reads the data and the server
 * starts on it and serves the documents; a deletion asks to be confirmed, and removes the
 * organisation's documents; an Entra tenant is reassigned and released, and a tenant pointed at another
 * cloud and back (on demo worlds without history).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { base32Decode } from '../src/crypto/base32.js';
import { totp } from '../src/crypto/totp.js';
import { openDatabase } from '../src/db/database.js';
import { exited, freePort, startProcess } from './process.js';

/** A PDF whose text says `text`. */
const pdf = (text: string) => Buffer.from(`%PDF-1.7\n${text}\n%%EOF\n`);

/**
 * Documents as a version before encryption at rest kept them (the PDF itself as `documents/{id}`), of
 * the organisations with these short names; their ids by file name, and the organisations' ids.
 */
async function documentsInTheClear(dataDir: string, documents: { abbr: string; fileName: string }[]) {
  const db = await openDatabase(loadConfig({ PORTAL_DATA_DIR: dataDir }), () => undefined);
  const ids = new Map<string, string>();
  const organisations = new Map<string, string>();
  try {
    mkdirSync(join(dataDir, 'documents'), { recursive: true });
    for (const { abbr, fileName } of documents) {
      const [org] = await db.query<{ id: string }>('select id from organisations where abbr = $1', [abbr]);
      const id = randomUUID();
      const bytes = pdf(`${abbr} ${fileName}`);
      writeFileSync(join(dataDir, 'documents', id), bytes);
      await db.query(
        `insert into documents (document_id, organisation_id, document_type, file_name, size, uploaded_at, uploaded_by)
         values ($1, $2, 'contracts', $3, $4, now(), 'before@encryption.example')`,
        [id, org?.id, fileName, bytes.length],
      );
      ids.set(fileName, id);
      organisations.set(abbr, org?.id ?? '');
    }
  } finally {
    await db.close();
  }
  return { ids, organisations };
}

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
  it('verify every blob encrypted, seal the documents kept in the clear, rotate the secret key (blobs and documents then read with the new key only), and delete an organisation with its documents', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-commands-'));
    const port = await freePort();
    const first = await startProcess(dataDir, port, { PORTAL_DEMO_HISTORY: 'on' }, [], 120_000);
    const password = /with the password: (\S+)/.exec(first.output())?.[1] ?? '';
    const stopped = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await stopped).toBe(0);

    // Documents an earlier version kept in the clear: served as they are until sealed where they lie.
    const { ids, organisations } = await documentsInTheClear(dataDir, [
      { abbr: 'contoso', fileName: 'one.pdf' },
      { abbr: 'contoso', fileName: 'two.pdf' },
      { abbr: 'woodgrove', fileName: 'three.pdf' },
    ]);
    const clear = command('encrypt-documents', dataDir, {}, ['--verify']);
    expect(clear.status, clear.out).toBe(0);
    expect(clear.out).toContain('documents encrypted: 0; in the clear: 3; unreadable: 0');
    expect(command('encrypt-documents', dataDir, {}, ['--limit=1']).out).toContain('documents encrypted now: 1;');
    const sealed = command('encrypt-documents', dataDir, {});
    expect(sealed.status, sealed.out).toBe(0);
    expect(sealed.out).toContain('documents encrypted now: 2; encrypted before: 1; unreadable: 0');
    for (const id of ids.values()) {
      const stored = readFileSync(join(dataDir, 'documents', id));
      expect(stored[0]).toBe(3);
      expect(stored.includes(Buffer.from('%PDF-'))).toBe(false);
    }
    expect(command('encrypt-documents', dataDir, {}, ['--verify']).out).toContain(
      'documents encrypted: 3; in the clear: 0; unreadable: 0',
    );

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
    // The documents too: the new key opens them, the old one none.
    expect(command('encrypt-documents', dataDir, { PORTAL_SECRET_KEY: newKey }, ['--verify']).out).toContain(
      'documents encrypted: 3; in the clear: 0; unreadable: 0',
    );
    const documentsWithOld = command('encrypt-documents', dataDir, { PORTAL_SECRET_KEY: oldKey }, ['--verify']);
    expect(documentsWithOld.status).toBe(1);
    expect(documentsWithOld.out).toContain('unreadable: 3');

    const unconfirmed = command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['some-id']);
    expect(unconfirmed.status).toBe(2);
    expect(
      command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, ['no-such-organisation', '--yes']).out,
    ).toContain('No organisation no-such-organisation');
    // Woodgrove leaves: its key destroyed, its document's file removed; Contoso's stay.
    const deleted = command('delete-organisation', dataDir, { PORTAL_SECRET_KEY: newKey }, [
      organisations.get('woodgrove') ?? '',
      '--yes',
    ]);
    expect(deleted.status, deleted.out).toBe(0);
    expect(deleted.out).toContain('1 document removed');
    expect(existsSync(join(dataDir, 'documents', ids.get('three.pdf') ?? ''))).toBe(false);
    expect(existsSync(join(dataDir, 'documents', ids.get('one.pdf') ?? ''))).toBe(true);

    // The server starts on the new key and signs in as before.
    const second = await startProcess(dataDir, port, { PORTAL_SECRET_KEY: newKey });
    try {
      const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@contoso.example', password }),
      });
      expect(signin.status).toBe(200);
      // The sealed documents are served as they were kept, opened with the new key.
      const client = createClient({ origin: `http://127.0.0.1:${port}` });
      const first = await client.legacy.auth.signin({ body: { email: 'admin@contoso.example', password } });
      const auth = { headers: { Authorization: first.token } };
      const qr = await client.legacy.auth.generateQr(undefined, auth);
      const { token } = await client.legacy.auth.qrcodeVerification(
        { body: { code: totp(base32Decode(qr.key), Date.now()) } },
        auth,
      );
      for (const name of ['one.pdf', 'two.pdf']) {
        const download = await fetch(`http://127.0.0.1:${port}/api/files/download/${name}/contoso/contracts`, {
          headers: { Authorization: token },
        });
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(pdf(`contoso ${name}`))).toBe(true);
      }
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
      `Released from organisation ${contoso} (Contoso): sign-in with Microsoft off, password sign-in on, 1 member unlinked`,
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
  }, 240_000);

  it("tenant:endpoints points a tenant at another cloud's identity platform and Graph, and back at Microsoft's", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-endpoints-'));
    const first = await startProcess(dataDir, await freePort(), {}, [], 120_000);
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
    const endpoints = (...args: string[]) => command('tenant-endpoints', dataDir, {}, args);
    const stored = async () =>
      (
        await read<{ authority_url: string | null; graph_base_url: string | null }>(
          'select authority_url, graph_base_url from tenants where tenant_id = $1',
          [tenant],
        )
      )[0];
    const before = await stored();

    const china = ['https://login.partner.microsoftonline.cn/', 'https://microsoftgraph.chinacloudapi.cn/v1.0'];
    expect(endpoints(tenant, ...china).status).toBe(2);
    expect(endpoints('not-a-tenant', ...china, '--yes').status).toBe(2);
    expect(endpoints(tenant, '--microsoft', ...china, '--yes').status).toBe(2);
    const plain = endpoints(tenant, 'http://login.example', china[1] ?? '', '--yes');
    expect(plain.status).toBe(2);
    expect(plain.out).toContain('The authority host must be an https address');
    expect(endpoints(tenant, china[0] ?? '', 'https://graph.example/v1.0?x=1', '--yes').out).toContain(
      'may not carry credentials, a query or a fragment',
    );
    const unknown = endpoints('00000000-0000-4000-8000-000000000000', ...china, '--yes');
    expect(unknown.status).toBe(1);
    expect(unknown.out).toContain('No tenant 00000000-0000-4000-8000-000000000000');
    expect(await stored()).toEqual(before);

    const moved = endpoints(tenant.toUpperCase(), ...china, '--yes');
    expect(moved.status, moved.out).toBe(0);
    expect(await stored()).toEqual({
      authority_url: 'https://login.partner.microsoftonline.cn',
      graph_base_url: 'https://microsoftgraph.chinacloudapi.cn/v1.0',
    });
    const back = endpoints(tenant, '--microsoft', '--yes');
    expect(back.status, back.out).toBe(0);
    expect(back.out).toContain("now uses Microsoft's global endpoints");
    expect(await stored()).toEqual({ authority_url: null, graph_base_url: null });
    const audit = await read<{ action: string; actor_email: string; target: string; details: unknown }>(
      "select action, actor_email, target, details from audit_log where action = 'tenant.endpoints' order by seq",
    );
    expect(audit).toEqual([
      {
        action: 'tenant.endpoints',
        actor_email: 'operator (tenant:endpoints)',
        target: tenant,
        details: {
          authorityHost: 'https://login.partner.microsoftonline.cn',
          graphBaseUrl: 'https://microsoftgraph.chinacloudapi.cn/v1.0',
        },
      },
      {
        action: 'tenant.endpoints',
        actor_email: 'operator (tenant:endpoints)',
        target: tenant,
        details: { authorityHost: 'microsoft', graphBaseUrl: 'microsoft' },
      },
    ]);
  }, 240_000);
});
