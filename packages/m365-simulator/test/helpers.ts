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
