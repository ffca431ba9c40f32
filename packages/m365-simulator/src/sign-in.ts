/**
 * The identity platform's user sign-in, as Entra ID's v2.0 endpoints do it for a web app: the
 * authorization endpoint (a sign-in page, then a redirect with a one-time code), and the token
 * endpoint's authorization_code grant with PKCE, answering a signed ID token (`tid`, `oid`, `email`,
 * `preferred_username`, `nonce`), a delegated access token for Graph (its `scp` the permissions the
 * user consented to) and, with `offline_access`, a refresh token, which the refresh_token grant
 * redeems for new tokens. Sign-in applications are registered with the simulator as a multi-tenant
 * app is with Entra ID: one client id and secret, its redirect URIs, usable in every tenant served.
 * Refusals carry Entra ID's AADSTS codes.
 *
 * Signing in is consenting: the page asks no separate consent, and the user grants the app the Graph
 * permissions it asked (with `.default`, those configured on its registration) and User.Read, which
 * signing in itself needs. What a user consented to stays granted to that app in that tenant, so a
 * later sign-in or refresh may ask for it again without asking it at the authorization endpoint, as
 * Entra ID's incremental consent has it; permissions that need an administrator's consent are
 * granted by users here too.
 *
 * For tests of a relying party, `fault` makes the next ID tokens wrong in one way each (another
 * tenant's, another audience, expired, the nonce of an earlier sign-in, a broken signature), so the
 * party's checks can be seen to refuse them.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SimRequest, SimResponse } from './graph/odata.js';
import { clientCredentials, identityError, safeEqual } from './identity.js';
import type { SimTenant, SimUser } from './model.js';
import { errorPage, escapeHtml, html } from './pages.js';
import { createRefreshTokens } from './refresh-tokens.js';
import {
  type AskedScopes,
  grantedScopes,
  isScopeRefusal,
  type OidcScope,
  parseScopes,
  type ScopeRefusal,
} from './scopes.js';
import { graphAccessToken, servicePrincipalId, signToken, type TokenKeys } from './tokens.js';

/** A web application registered for user sign-in (OpenID Connect), as in Entra ID's app registrations. */
export interface SignInApp {
  clientId: string;
  clientSecret: string;
  /** The redirect URIs registered; the authorization request's must be one of them, exactly. */
  redirectUris: readonly string[];
  /**
   * The Microsoft Graph delegated permissions configured on the registration (its API permissions),
   * which a sign-in asking `https://graph.microsoft.com/.default` is granted; User.Read when absent, as
   * a new registration has it.
   */
  delegatedPermissions?: readonly string[];
}

/** How the next ID tokens are made wrong, for a relying party's tests; `none` makes them right. */
export const ID_TOKEN_FAULTS = [
  'none',
  'otherTenant',
  'wrongAudience',
  'expired',
  'replayedNonce',
  'tamperedSignature',
] as const;
export type IdTokenFault = (typeof ID_TOKEN_FAULTS)[number];

/** Entra ID's lifetime of an authorization code (10 minutes) and of the tokens (1 hour). */
const CODE_LIFETIME_MS = 10 * 60_000;
const TOKEN_LIFETIME_S = 3600;
/** Sign-in pages left open this long are forgotten. */
const FLOW_LIFETIME_MS = 30 * 60_000;
/** The tenant id an `otherTenant` token names: one the simulator never serves. */
export const FOREIGN_TENANT_ID = '00000000-0000-4000-8000-00000000f0e1';

interface AuthorizeRequest {
  tenantId: string;
  clientId: string;
  redirectUri: string;
  scope: AskedScopes;
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: 'S256' | 'plain' | undefined;
  loginHint: string;
  responseMode: 'query' | 'form_post';
}

interface IssuedCode {
  request: AuthorizeRequest;
  user: SimUser;
  expiresAt: number;
  redeemed: boolean;
}

/** An error sent back to the application's redirect URI, as Entra ID does once the URI is known good. */
function redirectError(request: AuthorizeRequest, error: string, code: number, description: string): SimResponse {
  return redirect(request, {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${randomUUID()}`,
  });
}

function redirect(request: AuthorizeRequest, params: Record<string, string>): SimResponse {
  const all = { ...params, ...(request.state !== undefined ? { state: request.state } : {}) };
  if (request.responseMode === 'form_post') {
    const inputs = Object.entries(all)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    return html(
      200,
      'Working...',
      `<form method="post" action="${escapeHtml(request.redirectUri)}">${inputs}<noscript><button>Continue</button></noscript></form>`,
    );
  }
  const url = new URL(request.redirectUri);
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

/** The user's address as the ID token's `email`: the mailbox's, or for an account without one its UPN. */
const emailOf = (user: SimUser) => user.upn;

/** A stable `sub`: pairwise per application, as Entra ID's is. */
function pairwiseSubject(user: SimUser, clientId: string): string {
  return createHash('sha256').update(`${user.id}/${clientId}`).digest('base64url').slice(0, 43);
}

export interface SignInOptions {
  apps: readonly SignInApp[];
  /** The password every simulated user signs in with; without one the page asks only for the account. */
  userPassword?: string;
  tenant(tenantId: string): SimTenant | undefined;
  keys: TokenKeys;
  origin(): string;
}

/**
 * The sign-in side of the identity platform: `authorize` (GET and POST), and the token endpoint's
 * authorization_code (`redeem`) and refresh_token (`refresh`) grants.
 */
export function createSignIn(options: SignInOptions) {
  const flows = new Map<string, { request: AuthorizeRequest; createdAt: number }>();
  const codes = new Map<string, IssuedCode>();
  const refreshTokens = createRefreshTokens();
  /** The Graph permissions each user consented to for each app, per tenant (the user's consent grants). */
  const consents = new Map<string, Set<string>>();
  let fault: IdTokenFault = 'none';
  /** The nonce of the last code redeemed: what a `replayedNonce` token carries. */
  let lastNonce: string | undefined;

  const appOf = (clientId: string) => options.apps.find((a) => a.clientId === clientId);
  const consentOf = (tenantId: string, clientId: string, userId: string) => {
    const key = `${tenantId}/${clientId}/${userId}`;
    const granted = consents.get(key) ?? new Set<string>();
    consents.set(key, granted);
    return granted;
  };

  function forget(now: number) {
    for (const [id, flow] of flows) if (now - flow.createdAt > FLOW_LIFETIME_MS) flows.delete(id);
    for (const [code, issued] of codes) if (issued.expiresAt < now - CODE_LIFETIME_MS) codes.delete(code);
  }

  /** Checks an authorization request; a refusal before the redirect URI is trusted is a page of its own. */
  function authorizeRequest(tenantId: string, q: URLSearchParams): AuthorizeRequest | SimResponse {
    const clientId = q.get('client_id') ?? '';
    const app = appOf(clientId);
    if (!app) {
      return errorPage(
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.`,
      );
    }
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) {
      return errorPage(
        50011,
        `The redirect URI '${redirectUri}' specified in the request does not match the redirect URIs configured for the application '${clientId}'.`,
      );
    }
    const method = q.get('code_challenge_method') ?? undefined;
    const asked = parseScopes(q.get('scope') ?? '', tenantId);
    const request: AuthorizeRequest = {
      tenantId: tenantId.toLowerCase(),
      clientId,
      redirectUri,
      scope: isScopeRefusal(asked) ? { oidc: new Set(), graph: [], graphDefault: false } : asked,
      state: q.get('state') ?? undefined,
      nonce: q.get('nonce') ?? undefined,
      codeChallenge: q.get('code_challenge') ?? undefined,
      codeChallengeMethod: method === 'S256' || method === 'plain' ? method : undefined,
      loginHint: q.get('login_hint') ?? '',
      responseMode: q.get('response_mode') === 'form_post' ? 'form_post' : 'query',
    };
    if (!options.tenant(tenantId)) {
      return redirectError(
        request,
        'invalid_request',
        90002,
        `Tenant '${tenantId}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    if (q.get('response_type') !== 'code') {
      return redirectError(
        request,
        'unsupported_response_type',
        700054,
        'This simulator answers the authorization code flow only (response_type=code).',
      );
    }
    if (isScopeRefusal(asked)) return redirectError(request, asked.error, asked.code, asked.description);
    if (!asked.oidc.has('openid')) {
      return redirectError(request, 'invalid_scope', 70011, "The provided request must include an 'openid' scope.");
    }
    if (method !== undefined && !request.codeChallengeMethod) {
      return redirectError(
        request,
        'invalid_request',
        501491,
        `Invalid code_challenge_method '${method}': S256 or plain.`,
      );
    }
    return request;
  }

  function signInForm(flowId: string, request: AuthorizeRequest, error?: string): SimResponse {
    const password = options.userPassword
      ? '<label for="passwd">Password</label><input id="passwd" name="passwd" type="password" autocomplete="current-password" required>'
      : '';
    return html(
      error ? 400 : 200,
      'Sign in to your account',
      `<h1>Sign in</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post"><input type="hidden" name="flow" value="${escapeHtml(flowId)}">
<label for="login">Email, phone, or Skype</label><input id="login" name="login" type="email" autocomplete="username" required value="${escapeHtml(request.loginHint)}">
${password}<button type="submit" id="submit">Sign in</button></form>`,
    );
  }

  /** GET: the sign-in page of a checked request. POST: the account entered, then the redirect with a code. */
  function authorize(request: SimRequest, tenantId: string): SimResponse {
    const now = Date.now();
    forget(now);
    if (request.method === 'GET') {
      const checked = authorizeRequest(tenantId, request.query);
      if ('status' in checked) return checked;
      const flowId = randomBytes(18).toString('base64url');
      flows.set(flowId, { request: checked, createdAt: now });
      return signInForm(flowId, checked);
    }
    const form = new URLSearchParams(request.body.toString('utf8'));
    const flowId = form.get('flow') ?? '';
    const flow = flows.get(flowId);
    if (!flow) return errorPage(50058, 'The sign-in page has expired or was already used. Start the sign-in again.');
    const login = (form.get('login') ?? '').trim().toLowerCase();
    const tenant = options.tenant(flow.request.tenantId);
    const user = tenant?.users.find((u) => u.upn.toLowerCase() === login);
    if (!user) {
      return signInForm(
        flowId,
        flow.request,
        `AADSTS50034: The user account ${login} does not exist in the ${flow.request.tenantId} directory. To sign into this application, the account must be added to the directory.`,
      );
    }
    if (options.userPassword && !safeEqual(form.get('passwd') ?? '', options.userPassword)) {
      return signInForm(
        flowId,
        { ...flow.request, loginHint: login },
        'AADSTS50126: Error validating credentials due to invalid username or password.',
      );
    }
    flows.delete(flowId);
    // Signing in grants what the app asked, and User.Read, which "sign you in and read your profile" needs.
    const { scope } = flow.request;
    const app = appOf(flow.request.clientId);
    const consent = consentOf(flow.request.tenantId, flow.request.clientId, user.id);
    for (const permission of [
      'User.Read',
      ...(scope.graphDefault ? (app?.delegatedPermissions ?? ['User.Read']) : []),
      ...scope.graph,
    ]) {
      consent.add(permission);
    }
    const code = randomBytes(32).toString('base64url');
    codes.set(code, { request: flow.request, user, expiresAt: now + CODE_LIFETIME_MS, redeemed: false });
    return redirect(flow.request, { code, session_state: randomUUID() });
  }

  /** The ID token's claims; the faults apply to those of a code's redemption (`faulty`). */
  function idTokenClaims(
    signIn: { tenantId: string; clientId: string; user: SimUser; oidc: ReadonlySet<OidcScope>; nonce?: string },
    now: number,
    faulty: boolean,
  ) {
    const { user } = signIn;
    const wrong = faulty ? fault : 'none';
    const tid = wrong === 'otherTenant' ? FOREIGN_TENANT_ID : signIn.tenantId;
    const iat = wrong === 'expired' ? now - 2 * TOKEN_LIFETIME_S : now;
    const nonce = wrong === 'replayedNonce' ? (lastNonce ?? 'an-earlier-sign-in') : signIn.nonce;
    return {
      aud: wrong === 'wrongAudience' ? randomUUID() : signIn.clientId,
      iss: `${options.origin()}/${tid}/v2.0`,
      iat,
      nbf: iat,
      exp: iat + TOKEN_LIFETIME_S,
      ...(signIn.oidc.has('email') ? { email: emailOf(user), xms_edov: true } : {}),
      ...(signIn.oidc.has('profile') ? { name: user.displayName, preferred_username: user.upn } : {}),
      ...(nonce !== undefined ? { nonce } : {}),
      oid: user.id,
      sub: pairwiseSubject(user, signIn.clientId),
      tid,
      uti: randomBytes(16).toString('base64url'),
      ver: '2.0',
    };
  }

  /** The registered app the token request authenticates as (secret by form or Basic), or Entra ID's refusal. */
  function authenticated(request: SimRequest, tenantId: string, form: URLSearchParams): SignInApp | SimResponse {
    const { clientId, secret } = clientCredentials(request, form);
    const app = appOf(clientId);
    if (!app) {
      return identityError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
      );
    }
    if (!safeEqual(secret, app.clientSecret)) {
      return identityError(
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
      );
    }
    return app;
  }

  /**
   * The Graph permissions a token is issued with: those the token request names (each must have been
   * consented to, else Entra ID's AADSTS65001), or every one consented to when it names none or asks
   * `.default`.
   */
  function grantedGraph(
    consent: ReadonlySet<string>,
    asked: AskedScopes | undefined,
    clientId: string,
  ): string[] | SimResponse {
    if (!asked || asked.graphDefault || asked.graph.length === 0) return [...consent];
    if (asked.graph.every((p) => consent.has(p))) return asked.graph;
    return identityError(
      400,
      'invalid_grant',
      65001,
      `The user or administrator has not consented to use the application with ID '${clientId}'. Send an interactive authorization request for this user and resource.`,
      'consent_required',
    );
  }

  /** A token request's own `scope` (optional), read as the authorization request's is. */
  function tokenScope(form: URLSearchParams, tenantId: string): AskedScopes | undefined | SimResponse {
    const scope = form.get('scope');
    if (scope === null || scope.trim() === '') return undefined;
    const asked: AskedScopes | ScopeRefusal = parseScopes(scope, tenantId);
    return isScopeRefusal(asked) ? identityError(400, asked.error, asked.code, asked.description) : asked;
  }

  /**
   * The token answer of a user's grant: the access token for Graph (`scp` the permissions granted
   * and the OpenID scopes, short), `scope` the same, an ID token with `openid`, a new refresh token
   * with `offline_access`, and `client_info` (the user's and tenant's ids) when the client asks it.
   */
  function tokenAnswer(
    grant: {
      tenantId: string;
      clientId: string;
      user: SimUser;
      graph: readonly string[];
      oidc: ReadonlySet<OidcScope>;
      nonce?: string;
    },
    form: URLSearchParams,
    idTokenFaulty: boolean,
  ): SimResponse {
    const now = Date.now();
    const seconds = Math.floor(now / 1000);
    const { tenantId: tid, clientId, user, oidc } = grant;
    const scope = grantedScopes(grant.graph, oidc);
    const accessToken = graphAccessToken(options.keys, {
      tid,
      clientId,
      oid: user.id,
      sub: servicePrincipalId(tid, user.id),
      now: seconds,
      lifetime: TOKEN_LIFETIME_S,
      idtyp: 'user',
      scp: scope,
      upn: user.upn,
      name: user.displayName,
    });
    let idToken: string | undefined;
    if (oidc.has('openid')) {
      idToken = signToken(options.keys, idTokenClaims(grant, seconds, idTokenFaulty));
      if (idTokenFaulty && fault === 'tamperedSignature') {
        const [header, payload, signature = ''] = idToken.split('.');
        const bytes = Buffer.from(signature, 'base64url');
        bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
        idToken = `${header}.${payload}.${bytes.toString('base64url')}`;
      }
    }
    const refreshToken = oidc.has('offline_access')
      ? refreshTokens.issue({ tenantId: tid, clientId, userId: user.id, oidc }, now)
      : undefined;
    return {
      status: 200,
      headers: { 'cache-control': 'no-store, no-cache', pragma: 'no-cache' },
      json: {
        token_type: 'Bearer',
        scope,
        expires_in: TOKEN_LIFETIME_S - 1,
        ext_expires_in: TOKEN_LIFETIME_S - 1,
        access_token: accessToken,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(idToken ? { id_token: idToken } : {}),
        ...(form.get('client_info') === '1'
          ? { client_info: Buffer.from(JSON.stringify({ uid: user.id, utid: tid })).toString('base64url') }
          : {}),
      },
    };
  }

  /** POST {tenant}/oauth2/v2.0/token with grant_type=authorization_code. */
  function redeem(request: SimRequest, tenantId: string, form: URLSearchParams): SimResponse {
    const app = authenticated(request, tenantId, form);
    if ('status' in app) return app;
    const { clientId } = app;
    const issued = codes.get(form.get('code') ?? '');
    const now = Date.now();
    if (!issued || issued.request.tenantId !== tenantId.toLowerCase() || issued.request.clientId !== clientId) {
      return identityError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
    }
    if (issued.redeemed) {
      return identityError(
        400,
        'invalid_grant',
        54005,
        'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
      );
    }
    if (issued.expiresAt < now) {
      return identityError(
        400,
        'invalid_grant',
        70008,
        'The provided authorization code or refresh token has expired.',
      );
    }
    if (form.get('redirect_uri') !== issued.request.redirectUri) {
      return identityError(
        400,
        'invalid_grant',
        50148,
        'The redirect_uri does not match the one of the authorization request.',
      );
    }
    if (issued.request.codeChallenge) {
      const verifier = form.get('code_verifier') ?? '';
      const challenge =
        issued.request.codeChallengeMethod === 'plain'
          ? verifier
          : createHash('sha256').update(verifier).digest('base64url');
      if (!verifier || !safeEqual(challenge, issued.request.codeChallenge)) {
        return identityError(
          400,
          'invalid_grant',
          501481,
          'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
        );
      }
    }
    const asked = tokenScope(form, tenantId);
    if (asked && 'status' in asked) return asked;
    const { request: authorization, user } = issued;
    const tid = authorization.tenantId;
    const graph = grantedGraph(consentOf(tid, clientId, user.id), asked, clientId);
    if ('status' in graph) return graph;
    issued.redeemed = true;
    const answer = tokenAnswer(
      {
        tenantId: tid,
        clientId,
        user,
        graph,
        // The OpenID scopes of the authorization request, and any the token request adds (MSAL's offline_access).
        oidc: new Set([...authorization.scope.oidc, ...(asked?.oidc ?? [])]),
        ...(authorization.nonce !== undefined ? { nonce: authorization.nonce } : {}),
      },
      form,
      true,
    );
    lastNonce = authorization.nonce ?? lastNonce;
    return answer;
  }

  /**
   * POST {tenant}/oauth2/v2.0/token with grant_type=refresh_token: the app that the token was issued
   * to redeems it (authenticated as for the code) for a new access token, ID token and refresh token,
   * for the permissions it names (consented to) or all consented to. Refused as Entra ID does: a
   * token not in its form (AADSTS9002313), unknown or another app's or tenant's (AADSTS70000),
   * expired (AADSTS700082).
   */
  function refresh(request: SimRequest, tenantId: string, form: URLSearchParams): SimResponse {
    const app = authenticated(request, tenantId, form);
    if ('status' in app) return app;
    const token = form.get('refresh_token');
    if (!token) {
      return identityError(
        400,
        'invalid_request',
        900144,
        "The request body must contain the following parameter: 'refresh_token'.",
      );
    }
    const now = Date.now();
    const found = refreshTokens.redeem(token, tenantId.toLowerCase(), app.clientId, now);
    const user =
      'grant' in found && found.grant
        ? options.tenant(found.grant.tenantId)?.users.find((u) => u.id === found.grant?.userId)
        : undefined;
    if ('refusal' in found || !user) {
      switch ('refusal' in found ? found.refusal : 'unknown') {
        case 'malformed':
          return identityError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
        case 'expired':
          return identityError(
            400,
            'invalid_grant',
            700082,
            `The refresh token has expired due to inactivity. The token was issued on ${new Date(found.grant?.issuedAt ?? now).toISOString()} and was inactive for ${inactivity(now - (found.grant?.issuedAt ?? now))}.`,
          );
        default:
          return identityError(400, 'invalid_grant', 70000, 'Provided grant is invalid or malformed.');
      }
    }
    const { grant } = found;
    const asked = tokenScope(form, tenantId);
    if (asked && 'status' in asked) return asked;
    const graph = grantedGraph(consentOf(grant.tenantId, grant.clientId, user.id), asked, app.clientId);
    if ('status' in graph) return graph;
    // A refresh token stands for offline access: the new one is issued whatever OpenID scopes are named.
    const oidc = new Set<OidcScope>([...(asked?.oidc ?? grant.oidc), 'offline_access']);
    return tokenAnswer({ tenantId: grant.tenantId, clientId: grant.clientId, user, graph, oidc }, form, false);
  }

  return {
    authorize,
    redeem,
    refresh,
    /** Ends every refresh token issued so far (as 90 days unused would); answers how many were good. */
    expireRefreshTokens: () => refreshTokens.expireAll(Date.now()),
    get fault(): IdTokenFault {
      return fault;
    },
    set fault(value: IdTokenFault) {
      fault = value;
    },
  };
}

/** A span as Entra ID writes how long a token was unused: days, then hours, minutes and seconds. */
function inactivity(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 86_400)}.${pad(Math.floor(s / 3600) % 24)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}
