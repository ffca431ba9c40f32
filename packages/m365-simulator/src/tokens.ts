/**
 * Access tokens as Entra ID issues them for Microsoft Graph: JWTs signed with RS256 by a key of the
 * simulator's data directory (`token-signing-key.pem`, 0600), whose public half the JWKS publishes.
 * Graph routes accept a token only if this key signed it and it has not expired.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { join } from 'node:path';
import { readOrCreate } from './data-dir.js';

export const GRAPH_AUDIENCE = 'https://graph.microsoft.com';

export interface TokenKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The key's id in the JWKS and in a token's header (its RFC 7638 thumbprint). */
  kid: string;
}

/**
 * The claims of an access token for Microsoft Graph (v1.0 tokens, as Graph's are): an app-only one
 * (`idtyp` app, `roles`) or a signed-in user's (`idtyp` user, `scp`, the user's `oid`, `upn`, `name`).
 */
export interface AccessTokenClaims {
  aud: string;
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  appid: string;
  azp: string;
  appidacr: string;
  idp: string;
  idtyp: 'app' | 'user';
  oid: string;
  sub: string;
  tid: string;
  roles?: string[];
  /** The delegated permissions, space separated (`openid profile email User.Read Mail.Read`). */
  scp?: string;
  upn?: string;
  name?: string;
  uti: string;
  ver: '1.0';
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function keysOf(privateKey: KeyObject): TokenKeys {
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest();
  return { privateKey, publicKey, kid: base64url(thumbprint) };
}

const newPrivateKeyPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A signing key kept only in memory (a handler without a data directory). */
export function ephemeralTokenKeys(): TokenKeys {
  return keysOf(createPrivateKey(newPrivateKeyPem()));
}

/** The signing key of `dataDir`, made at first start. */
export async function loadOrCreateTokenKeys(dataDir: string): Promise<TokenKeys> {
  const pem = await readOrCreate(join(dataDir, 'token-signing-key.pem'), newPrivateKeyPem, 0o600);
  return keysOf(createPrivateKey(pem));
}

/** The JWKS document: the public key with its id, as Entra ID's discovery/v2.0/keys lists it. */
export function jwks(keys: TokenKeys) {
  const jwk = keys.publicKey.export({ format: 'jwk' });
  return { keys: [{ kty: jwk.kty, use: 'sig', kid: keys.kid, x5t: keys.kid, n: jwk.n, e: jwk.e, alg: 'RS256' }] };
}

/**
 * A v1.0 access token for Microsoft Graph as Entra ID issues it: for the app itself (`idtyp` app, its
 * granted `roles`) or for a signed-in user (`idtyp` user, delegated `scp`); `now` in seconds.
 */
export function graphAccessToken(
  keys: TokenKeys,
  token: { tid: string; clientId: string; oid: string; sub: string; now: number; lifetime: number } & (
    | { idtyp: 'app'; roles: readonly string[] }
    | { idtyp: 'user'; scp: string; upn: string; name: string }
  ),
): string {
  const { tid, clientId, now } = token;
  return signToken(keys, {
    aud: GRAPH_AUDIENCE,
    iss: `https://sts.windows.net/${tid}/`,
    iat: now,
    nbf: now,
    exp: now + token.lifetime,
    appid: clientId,
    azp: clientId,
    appidacr: '1',
    idp: `https://sts.windows.net/${tid}/`,
    idtyp: token.idtyp,
    oid: token.oid,
    sub: token.sub,
    tid,
    // As Entra ID: a token of an app without granted permissions has no roles claim.
    ...(token.idtyp === 'app'
      ? token.roles.length > 0
        ? { roles: [...token.roles] }
        : {}
      : { name: token.name, scp: token.scp, unique_name: token.upn, upn: token.upn }),
    uti: randomBytes(16).toString('base64url'),
    ver: '1.0',
  });
}

/** Signs `claims` (an access token's or an ID token's) with RS256 under the key's id. */
export function signToken(keys: TokenKeys, claims: object): string {
  const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'RS256', x5t: keys.kid, kid: keys.kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), keys.privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** The token's claims if `keys` signed it with RS256 and it is valid now; otherwise undefined. */
export function verifyToken(keys: TokenKeys, token: string, now = Date.now()): AccessTokenClaims | undefined {
  const [header, payload, signature, ...rest] = token.split('.');
  if (!header || !payload || !signature || rest.length > 0) return undefined;
  try {
    const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (alg !== 'RS256') return undefined;
    if (!verify('sha256', Buffer.from(`${header}.${payload}`), keys.publicKey, Buffer.from(signature, 'base64url'))) {
      return undefined;
    }
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AccessTokenClaims;
    const seconds = now / 1000;
    if (typeof claims.exp !== 'number' || claims.exp <= seconds) return undefined;
    if (typeof claims.nbf === 'number' && claims.nbf > seconds + 300) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}

/** A stable id of the application's service principal in the tenant (the token's oid and sub). */
export function servicePrincipalId(tenantId: string, clientId: string): string {
  const hex = createHash('sha256').update(`${tenantId}/${clientId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
