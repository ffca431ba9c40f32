/**
 * Trust of the demo simulator's CA for this process's outgoing https. The standard way to trust a
 * CA in Node.js is NODE_EXTRA_CA_CERTS, which Node reads only when the process starts; the portal in
 * demo mode makes its simulator's CA during its first start, after that moment. So the CA is added to
 * the dispatcher behind global fetch, which MSAL and the Graph client (graph-client.ts) both use:
 * Node's own CAs, the NODE_EXTRA_CA_CERTS ones (a CA given to `ca` replaces the defaults) and these.
 * undici 6 is the major version inside Node 20's fetch, whose global dispatcher it sets.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';

const trusted = new Set<string>();

function extraCertificates(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    // Node warns about an unreadable file at start and goes on without it; so does this.
    return [];
  }
}

/** Adds CA certificates (PEM) to what fetch in this process trusts. */
export function trustCertificates(pems: readonly string[]): void {
  const before = trusted.size;
  for (const pem of pems) trusted.add(pem.trim());
  if (trusted.size === before) return;
  // One secure context for every connection: with `ca` alone, each new connection would parse the
  // whole list of CAs again.
  const secureContext = createSecureContext({ ca: [...rootCertificates, ...extraCertificates(), ...trusted] });
  setGlobalDispatcher(new Agent({ connect: { secureContext } }));
}
