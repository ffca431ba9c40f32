/**
 * The simulator's https: a certificate authority of its own and a server certificate it signed for
 * localhost, 127.0.0.1 and ::1, made at first start in `<dataDir>/tls/` (ca.pem, ca-key.pem,
 * cert.pem, key.pem; the keys 0600) and kept. A client trusts the simulator by trusting ca.pem
 * (NODE_EXTRA_CA_CERTS for Node.js), once: the server certificate is renewed from the same CA when it
 * would expire within 30 days. Keys are ECDSA P-256, made with WebCrypto through @peculiar/x509.
 * Every PEM file ends with one newline, so that files put together (`cat ca.pem other.pem`) stay PEM.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCode } from './data-dir.js';

export const CA_COMMON_NAME = 'Compliance Portal M365 Simulator CA';

export interface TlsMaterial {
  /** The CA certificate (PEM) a client trusts. */
  caCertificate: string;
  caCertificatePath: string;
  /** The server certificate (PEM) and its private key (PEM, PKCS #8). */
  certificate: string;
  privateKey: string;
}

const DAY = 86_400_000;
const CA_DAYS = 3650;
const SERVER_DAYS = 365;
/** A certificate expiring sooner than this is made anew at start. */
const RENEW_BEFORE_MS = 30 * DAY;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** @peculiar/x509 needs a Reflect metadata polyfill; loaded only when a certificate is made. */
async function x509() {
  await import('reflect-metadata');
  const lib = await import('@peculiar/x509');
  lib.cryptoProvider.set(globalThis.crypto);
  return lib;
}

/**
 * PEM text ending in exactly one newline. @peculiar/x509 ends its PEM at the dashes, and a bundle made
 * by concatenating such a file with another then has `-----END …----------BEGIN …-----` on one line,
 * which OpenSSL (and so Node's NODE_EXTRA_CA_CERTS) does not read.
 */
const pemText = (pem: string) => `${pem.trimEnd()}\n`;

async function pkcs8Pem(key: CryptoKey): Promise<string> {
  const { PemConverter } = await x509();
  return pemText(PemConverter.encode(await globalThis.crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY'));
}

async function importSigningKey(pem: string): Promise<CryptoKey> {
  const { PemConverter } = await x509();
  const der = PemConverter.decode(pem)[0];
  if (!der) throw new Error('the CA key is not PEM');
  return globalThis.crypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
}

async function makeCa(now: Date) {
  const lib = await x509();
  const keys = await globalThis.crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const certificate = await lib.X509CertificateGenerator.createSelfSigned({
    name: `CN=${CA_COMMON_NAME}`,
    keys,
    signingAlgorithm: ALGORITHM,
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    notBefore: new Date(now.getTime() - 3600_000),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY),
    extensions: [
      new lib.BasicConstraintsExtension(true, 0, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign, true),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: pemText(certificate.toString('pem')), privateKey: await pkcs8Pem(keys.privateKey) };
}

async function makeServerCertificate(ca: { certificate: string; privateKey: string }, now: Date) {
  const lib = await x509();
  const caCertificate = new lib.X509Certificate(ca.certificate);
  const keys = await globalThis.crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const certificate = await lib.X509CertificateGenerator.create({
    subject: 'CN=localhost',
    issuer: caCertificate.subject,
    publicKey: keys.publicKey,
    signingKey: await importSigningKey(ca.privateKey),
    signingAlgorithm: ALGORITHM,
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    notBefore: new Date(now.getTime() - 3600_000),
    notAfter: new Date(now.getTime() + SERVER_DAYS * DAY),
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature | lib.KeyUsageFlags.keyEncipherment, true),
      new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
      new lib.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
      await lib.AuthorityKeyIdentifierExtension.create(await caCertificate.publicKey.export()),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: pemText(certificate.toString('pem')), privateKey: await pkcs8Pem(keys.privateKey) };
}

const expiresSoon = (pem: string, now: Date) =>
  Date.parse(new X509Certificate(pem).validTo) - now.getTime() < RENEW_BEFORE_MS;

/** Writes a file whole (a temporary file renamed over it), so a reader never sees half of it. */
function replaceFile(path: string, text: string, mode: number) {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, path);
}

/** A PEM file's text; one an earlier version wrote without its final newline is written again with it. */
function readPem(path: string, mode: number): string {
  const text = readFileSync(path, 'utf8');
  const fixed = pemText(text);
  if (fixed !== text) replaceFile(path, fixed, mode);
  return fixed;
}

/** Makes a whole new tls directory beside the old one and renames it in place; a concurrent maker's rename loses. */
async function createTlsDirectory(dataDir: string, dir: string, now: Date) {
  const ca = await makeCa(now);
  const server = await makeServerCertificate(ca, now);
  const temporary = join(dataDir, `tls.${randomBytes(6).toString('hex')}.tmp`);
  mkdirSync(temporary, { mode: 0o700 });
  writeFileSync(join(temporary, 'ca.pem'), ca.certificate, { mode: 0o644 });
  writeFileSync(join(temporary, 'ca-key.pem'), ca.privateKey, { mode: 0o600 });
  writeFileSync(join(temporary, 'cert.pem'), server.certificate, { mode: 0o644 });
  writeFileSync(join(temporary, 'key.pem'), server.privateKey, { mode: 0o600 });
  try {
    renameSync(temporary, dir);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (!isCode(error, 'ENOTEMPTY', 'EEXIST')) throw error;
  }
}

/**
 * The CA and server certificate of `dataDir`: read from `<dataDir>/tls/`, made there at first start;
 * the server certificate made anew when it expires within 30 days (the CA too, if it does).
 */
export async function loadOrCreateTls(dataDir: string, options: { now?: Date } = {}): Promise<TlsMaterial> {
  const now = options.now ?? new Date();
  const dir = join(dataDir, 'tls');
  const caPath = join(dir, 'ca.pem');
  if (existsSync(caPath) && expiresSoon(readFileSync(caPath, 'utf8'), now)) {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!existsSync(caPath)) await createTlsDirectory(dataDir, dir, now);
  const caCertificate = readPem(caPath, 0o644);
  let certificate = readPem(join(dir, 'cert.pem'), 0o644);
  let privateKey = readPem(join(dir, 'key.pem'), 0o600);
  readPem(join(dir, 'ca-key.pem'), 0o600);
  if (expiresSoon(certificate, now)) {
    const renewed = await makeServerCertificate(
      { certificate: caCertificate, privateKey: readFileSync(join(dir, 'ca-key.pem'), 'utf8') },
      now,
    );
    replaceFile(join(dir, 'key.pem'), renewed.privateKey, 0o600);
    replaceFile(join(dir, 'cert.pem'), renewed.certificate, 0o644);
    ({ certificate, privateKey } = renewed);
  }
  return { caCertificate, caCertificatePath: caPath, certificate, privateKey };
}
