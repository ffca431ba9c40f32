/**
 * The answer Microsoft's admin consent endpoint sends to /configuration/tenant-consent: a module of
 * its own, because the route's search validation loads with the router, before any page.
 */
export interface ConsentSearch {
  admin_consent?: string;
  tenant?: string;
  scope?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

const KEYS = ['admin_consent', 'tenant', 'scope', 'state', 'error', 'error_description'] as const;

/** Reads the answer's parameters from the query; anything else, or anything too long, is left out. */
export function validateConsentSearch(search: Record<string, unknown>): ConsentSearch {
  const out: ConsentSearch = {};
  for (const key of KEYS) {
    const value = search[key];
    if (typeof value === 'string' && value.length <= 4096) out[key] = value;
  }
  return out;
}
