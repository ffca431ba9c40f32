/**
 * https with the simulator's own CA: refused by a client that does not trust it, accepted by one that
 * does; the certificate is kept across restarts and renewed before it expires; every PEM file ends in
 * one newline, so that a bundle made with `cat` is trusted through NODE_EXTRA_CA_CERTS; every URL the
 * simulator gives out (OpenID configuration, next, delta and upload links) is https on its origin.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CA_COMMON_NAME, loadOrCreateTls, type RunningSimulator, startSimulator } from '../src/index.js';
import { accessToken, CLIENT, SECRET, TENANT, trusting } from './helpers.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'm365-simulator-https-'));

describe('the simulator over https', () => {
  it('is refused without its CA and answers with it; its certificate names localhost, 127.0.0.1 and ::1', async () => {
    const sim = await startSimulator({ dataDir: freshDir(), tenants: [{ tenantId: TENANT }] });
    try {
      const discovery = `${sim.authorityHost}/${TENANT}/v2.0/.well-known/openid-configuration`;
      expect(sim.url).toMatch(/^https:\/\/localhost:\d+$/);
      const refused = await fetch(discovery).then(
        () => undefined,
        (error: Error & { cause?: { code?: string } }) => error.cause?.code,
      );
      expect(refused).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT/);
      const answered = await fetch(discovery, { dispatcher: trusting(sim.caCertificate) } as RequestInit);
      expect(answered.status).toBe(200);

      const ca = new X509Certificate(sim.caCertificate);
      expect(ca.subject).toBe(`CN=${CA_COMMON_NAME}`);
      expect(ca.ca).toBe(true);
      expect(readFileSync(sim.caCertificatePath, 'utf8')).toBe(sim.caCertificate);
      const served = new X509Certificate(readFileSync(join(sim.dataDir, 'tls', 'cert.pem')));
      expect(served.checkIssued(ca)).toBe(true);
      expect(served.verify(ca.publicKey)).toBe(true);
      expect(served.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
      for (const key of ['ca-key.pem', 'key.pem']) {
        expect(statSync(join(sim.dataDir, 'tls', key)).mode & 0o777).toBe(0o600);
      }
    } finally {
      await sim.close();
    }
  });

  it('keeps its CA, certificate and signing key across restarts: a token from before still reads Graph', async () => {
    const dataDir = freshDir();
    const tenants = [{ tenantId: TENANT, clientId: CLIENT, clientSecret: SECRET, size: { users: 2 } }];
    const first = await startSimulator({ dataDir, tenants });
    const certificate = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const token = await fetch(`${first.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT,
        client_secret: SECRET,
        scope: 'https://graph.microsoft.com/.default',
      }),
      dispatcher: trusting(first.caCertificate),
    } as RequestInit).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
    await first.close();

    const second = await startSimulator({ dataDir, tenants });
    try {
      expect(second.caCertificate).toBe(first.caCertificate);
      expect(readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8')).toBe(certificate);
      const users = await fetch(`${second.graphBaseUrl}/users`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher: trusting(first.caCertificate),
      } as RequestInit);
      expect(users.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('makes a new server certificate from the same CA when the old one expires within 30 days', async () => {
    const dataDir = freshDir();
    const day = 86_400_000;
    const old = await loadOrCreateTls(dataDir, { now: new Date(Date.now() - 340 * day) });
    expect(Date.parse(new X509Certificate(old.certificate).validTo) - Date.now()).toBeLessThan(30 * day);
    const renewed = await loadOrCreateTls(dataDir);
    expect(renewed.caCertificate).toBe(old.caCertificate);
    expect(renewed.certificate).not.toBe(old.certificate);
    const certificate = new X509Certificate(renewed.certificate);
    expect(Date.parse(certificate.validTo) - Date.now()).toBeGreaterThan(300 * day);
    expect(certificate.verify(new X509Certificate(renewed.caCertificate).publicKey)).toBe(true);
    expect(readFileSync(join(dataDir, 'tls', 'key.pem'), 'utf8')).toBe(renewed.privateKey);
    expect((await loadOrCreateTls(dataDir)).certificate).toBe(renewed.certificate);
  });
});

describe('the PEM files the simulator writes', () => {
  const PEM_FILES = ['tls/ca.pem', 'tls/ca-key.pem', 'tls/cert.pem', 'tls/key.pem', 'token-signing-key.pem'];
  const endsInOneNewline = (text: string) => /-----END [A-Z ]+-----\n$/.test(text) && !text.endsWith('\n\n');

  it('end in one newline, so a bundle made with cat is trusted through NODE_EXTRA_CA_CERTS', async () => {
    const first = await startSimulator({ dataDir: freshDir(), tenants: [{ tenantId: TENANT }] });
    const second = await startSimulator({ dataDir: freshDir(), tenants: [{ tenantId: TENANT }] });
    try {
      for (const sim of [first, second]) {
        for (const file of PEM_FILES) {
          expect(endsInOneNewline(readFileSync(join(sim.dataDir, file), 'utf8')), file).toBe(true);
        }
        expect(endsInOneNewline(sim.caCertificate)).toBe(true);
      }
      // `cat first/tls/ca.pem second/tls/ca.pem > bundle.pem`, as an integrator trusting two simulators would.
      const bundle = join(freshDir(), 'bundle.pem');
      writeFileSync(
        bundle,
        Buffer.concat([readFileSync(first.caCertificatePath), readFileSync(second.caCertificatePath)]),
      );
      const certificates = readFileSync(bundle, 'utf8').match(
        /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----\n/g,
      );
      expect(certificates).toHaveLength(2);
      // Node's own TLS reads both certificates of the bundle.
      const { createSecureContext } = await import('node:tls');
      expect(() => createSecureContext({ ca: readFileSync(bundle, 'utf8') })).not.toThrow();

      // A fresh Node process trusting nothing but the bundle reaches both simulators.
      const script = `
        const statuses = [];
        for (const url of JSON.parse(process.argv[1])) {
          try { statuses.push((await fetch(url)).status); } catch (error) { statuses.push(String(error.cause?.code ?? error)); }
        }
        console.log(JSON.stringify(statuses));`;
      const urls = [first, second].map((sim) => `${sim.authorityHost}/${TENANT}/v2.0/.well-known/openid-configuration`);
      const run = (extra: string) =>
        promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(urls)], {
          env: { ...process.env, NODE_EXTRA_CA_CERTS: extra },
        });
      const trusted = await run(bundle);
      expect(trusted.stderr).not.toMatch(/Ignoring extra certs/);
      expect(JSON.parse(trusted.stdout)).toEqual([200, 200]);
      // The referee: without the second CA the second simulator is refused.
      const alone = await run(first.caCertificatePath);
      expect(JSON.parse(alone.stdout)).toEqual([200, expect.stringMatching(/CERT|VERIFY|SIGNATURE/)]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('writes again, with its newline, a PEM file an earlier version left without one', async () => {
    const dataDir = freshDir();
    const made = await loadOrCreateTls(dataDir);
    for (const file of PEM_FILES.filter((f) => f.startsWith('tls/'))) {
      const path = join(dataDir, file);
      writeFileSync(path, readFileSync(path, 'utf8').trimEnd(), { mode: statSync(path).mode & 0o777 });
      expect(endsInOneNewline(readFileSync(path, 'utf8'))).toBe(false);
    }
    const again = await loadOrCreateTls(dataDir);
    expect(again.caCertificate).toBe(made.caCertificate);
    expect(again.certificate).toBe(made.certificate);
    for (const file of PEM_FILES.filter((f) => f.startsWith('tls/'))) {
      expect(endsInOneNewline(readFileSync(join(dataDir, file), 'utf8')), file).toBe(true);
    }
    for (const key of ['tls/ca-key.pem', 'tls/key.pem']) {
      expect(statSync(join(dataDir, key)).mode & 0o777).toBe(0o600);
    }
  });
});

describe('the URLs the simulator gives out', () => {
  let sim: RunningSimulator;
  let token = '';
  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId: TENANT, size: { users: 5, filesPerDrive: 6 } }], pageSize: 2 });
    token = await accessToken(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
  const get = (url: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });

  it('names https endpoints on its origin in the OpenID configuration, as Entra ID names its own', async () => {
    const answer = await fetch(`${sim.authorityHost}/${TENANT}/v2.0/.well-known/openid-configuration`);
    const config = (await answer.json()) as Record<string, unknown>;
    const authority = `${sim.url}/${TENANT}`;
    expect(config).toMatchObject({
      issuer: `${authority}/v2.0`,
      token_endpoint: `${authority}/oauth2/v2.0/token`,
      jwks_uri: `${authority}/discovery/v2.0/keys`,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
    });
    const links = Object.values(config).filter((v): v is string => typeof v === 'string' && v.includes('://'));
    expect(links.length).toBeGreaterThanOrEqual(5);
    for (const link of links) expect(link.startsWith(`${sim.url}/`)).toBe(true);
  });

  it('gives next links, delta links and upload URLs on its https origin', async () => {
    const users = (await (await get(`${sim.graphBaseUrl}/users`)).json()) as {
      value: { id: string }[];
      '@odata.nextLink': string;
    };
    expect(users['@odata.nextLink'].startsWith(`${sim.graphBaseUrl}/users?`)).toBe(true);
    expect((await get(users['@odata.nextLink'])).status).toBe(200);

    const drive = (await (await get(`${sim.graphBaseUrl}/users/${users.value[0]?.id}/drive`)).json()) as { id: string };
    let link: string | undefined = `${sim.graphBaseUrl}/drives/${drive.id}/root/delta`;
    let deltaLink = '';
    while (link) {
      expect(link.startsWith(`${sim.graphBaseUrl}/`)).toBe(true);
      const page = (await (await get(link)).json()) as { '@odata.nextLink'?: string; '@odata.deltaLink'?: string };
      link = page['@odata.nextLink'];
      deltaLink = page['@odata.deltaLink'] ?? deltaLink;
    }
    expect(deltaLink.startsWith(`${sim.graphBaseUrl}/drives/${drive.id}/root/delta?`)).toBe(true);

    const session = await fetch(`${sim.graphBaseUrl}/drives/${drive.id}/items/root:/big.bin:/createUploadSession`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'replace' } }),
    });
    const { uploadUrl } = (await session.json()) as { uploadUrl: string };
    expect(uploadUrl.startsWith(`${sim.url}/upload/`)).toBe(true);
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-range': 'bytes 0-4/5' },
      body: new Uint8Array([1, 2, 3, 4, 5]),
    });
    expect(put.status).toBeLessThan(300);
  });
});
