/**
 * The query the identity platform returns to /signin/microsoft with: a module of its own, because the
 * route's search validation loads with the router, before any page, and the page itself need not.
 */
export interface CallbackSearch {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/** Reads the identity platform's answer from the query (code and state, or an error). */
export function validateCallbackSearch(search: Record<string, unknown>): CallbackSearch {
  const out: CallbackSearch = {};
  for (const key of ['code', 'state', 'error', 'error_description'] as const) {
    const value = search[key];
    if (typeof value === 'string' && value.length <= 4096) out[key] = value;
  }
  return out;
}
