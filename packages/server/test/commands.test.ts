/**
 * The operator's commands as an operator runs them (the built `dist/commands/*.js`, by
 * `pnpm --filter @compliance-portal/server <command>`), on the data directory of a demo world with its
 * history: every blob is encrypted; documents kept in the clear by an earlier version are sealed,
 * resumably; PORTAL_SECRET_KEY is rotated, after which only the new key reads the data and the server
 * starts on it and serves the documents; a deletion asks to be confirmed, and removes the
 * organisation's documents.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(deleted.out).toContain('1 document(s) removed');
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
});
