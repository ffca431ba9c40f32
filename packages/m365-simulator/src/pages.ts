/**
 * The identity platform's own pages (sign-in, consent, errors): plain HTML without scripts, served
 * with a content security policy that allows only their inline style and form posts.
 */
import type { SimResponse } from './graph/odata.js';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function html(status: number, title: string, body: string): SimResponse {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>*{box-sizing:border-box}body{font-family:system-ui,sans-serif;background:#f2f2f2;margin:0;display:grid;place-items:center;min-height:100vh;padding:1rem}
main{background:#fff;padding:2rem;max-width:28rem;width:100%;box-shadow:0 2px 6px rgba(0,0,0,.2);overflow-wrap:anywhere}
h1{font-size:1.5rem}label{display:block;margin-top:1rem}input{width:100%;padding:.5rem;font-size:1rem}
button{margin-top:1.5rem;padding:.5rem 2rem;font-size:1rem;background:#0067b8;color:#fff;border:0}
button.secondary{background:#fff;color:#1b1b1b;border:1px solid #8a8886}
.actions{display:flex;flex-wrap:wrap;gap:0 .75rem;justify-content:flex-end}
.muted{color:#605e5c;font-size:.9rem}ul{padding-left:1.25rem}li{margin:.25rem 0}
.error{color:#a80000}</style></head><body><main>${body}</main></body></html>`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action *",
      'x-frame-options': 'DENY',
    },
    bytes: Buffer.from(page),
  };
}

/** An AADSTS error shown on the identity platform's own page (before a redirect URI can be trusted). */
export function errorPage(code: number, message: string): SimResponse {
  return html(
    400,
    'Sign in to your account',
    `<h1>Sorry, but we're having trouble signing you in.</h1><p class="error" role="alert">AADSTS${code}: ${escapeHtml(message)}</p>`,
  );
}
