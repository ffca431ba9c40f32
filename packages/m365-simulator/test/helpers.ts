import { Agent } from 'undici';
import type { RunningSimulator } from '../src/index.js';

export const TENANT = '11111111-2222-4333-8444-555555555555';
export const CLIENT = '66666666-7777-4888-9999-000000000000';
export const SECRET = 's3cret';

/** Asks the token endpoint by client credentials (client_secret_post), as MSAL does. */
export function requestToken(
  sim: RunningSimulator,
  form: Record<string, string> = {},
  init: { tenantId?: string; dispatcher?: Agent } = {},
) {
  return fetch(`${sim.authorityHost}/${init.tenantId ?? TENANT}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: CLIENT,
      client_secret: SECRET,
      scope: 'https://graph.microsoft.com/.default',
      ...form,
    }),
    ...(init.dispatcher ? { dispatcher: init.dispatcher } : {}),
  } as RequestInit);
}

export async function accessToken(sim: RunningSimulator, form: Record<string, string> = {}): Promise<string> {
  const answer = await requestToken(sim, form);
  if (answer.status !== 200) throw new Error(`token ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** The decoded payload of a JWT (not verified). */
export const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** A dispatcher that trusts only the given CA certificate. */
export const trusting = (ca: string) => new Agent({ connect: { ca } });

/** A web app registered for user sign-in, as the tests register it with `signInApps`. */
export const SIGN_IN_APP = {
  clientId: 'aaaaaaaa-1111-4222-8333-444444444444',
  clientSecret: 'sign-in-secret',
  redirectUris: ['https://portal.example/signin/microsoft'],
};

/** The token endpoint's answer to a user's grant (authorization_code, refresh_token). */
export interface UserTokenAnswer {
  token_type: string;
  scope: string;
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  client_info?: string;
}

/** POSTs a form to a tenant's token endpoint as SIGN_IN_APP (client_secret_post, unless `form` says otherwise). */
export function tokenRequest(sim: RunningSimulator, form: Record<string, string>, tenantId = TENANT) {
  return fetch(`${sim.authorityHost}/${tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: SIGN_IN_APP.clientId, client_secret: SIGN_IN_APP.clientSecret, ...form }),
  });
}

/**
 * Signs `login` in through the sign-in page (no PKCE) asking `scope`, and redeems the code at the token
 * endpoint asking the same: the answer as JSON. The simulator must have SIGN_IN_APP and `password`.
 */
export async function signInTokens(
  sim: RunningSimulator,
  login: string,
  scope: string,
  password: string,
): Promise<UserTokenAnswer> {
  const redirectUri = SIGN_IN_APP.redirectUris[0] ?? '';
  const authorize = new URL(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/authorize`);
  for (const [k, v] of Object.entries({
    client_id: SIGN_IN_APP.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
  }))
    authorize.searchParams.set(k, v);
  const page = await (await fetch(authorize)).text();
  const flow = /name="flow" value="([^"]+)"/.exec(page)?.[1];
  if (!flow) throw new Error(`no sign-in page: ${page.slice(0, 300)}`);
  const signedIn = await fetch(authorize, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow, login, passwd: password }),
    redirect: 'manual',
  });
  const code = new URL(signedIn.headers.get('location') ?? 'about:blank').searchParams.get('code');
  if (!code) throw new Error(`no code: ${signedIn.status} ${signedIn.headers.get('location')}`);
  const answer = await tokenRequest(sim, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope });
  if (answer.status !== 200) throw new Error(`token ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as UserTokenAnswer;
}
