/**
 * Entra ID's admin consent endpoint (v2.0): `GET {tenant}/v2.0/adminconsent?client_id=…&scope=…
 * &redirect_uri=…&state=…`, where `{tenant}` is a tenant id, one of its domains or `organizations`.
 * An administrator of the tenant signs in, reads the application permissions the app registration
 * asks for and accepts or cancels; the browser then goes back to the redirect URI with
 * `admin_consent=True&tenant=…&scope=…&state=…`, or with `error=access_denied` and AADSTS65004 when
 * cancelled. As on Entra ID, a request whose redirect URI cannot be trusted yet (an unknown client,
 * AADSTS700016; a redirect URI the app did not register, AADSTS50011; an unknown tenant, AADSTS90002)
 * is refused on the identity platform's own page, never sent back. Only a tenant's Global
 * Administrator (its first account) may consent for the organisation (AADSTS90094 otherwise).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SimRequest, SimResponse } from './graph/odata.js';
import { safeEqual } from './identity.js';
import type { SimTenant, SimUser } from './model.js';
import { errorPage, escapeHtml, html } from './pages.js';
import { GRAPH_AUDIENCE } from './tokens.js';

/** An app registration as the admin consent endpoint sees it. */
export interface ConsentableApp {
  clientId: string;
  displayName: string;
  /**
   * The tenant it is registered in (a single-tenant app, known only there), or undefined for a
   * multi-tenant app published outside the tenants served, which any of them may consent to.
   */
  homeTenantId: string | undefined;
  redirectUris: readonly string[];
  /** The Microsoft Graph application permissions it asks for (its API permissions); consent grants them. */
  applicationPermissions: readonly string[];
}

export interface AdminConsentOptions {
  /** A served tenant by its id or its domain. */
  tenant(idOrDomain: string): SimTenant | undefined;
  /** An app registration by client id. */
  app(clientId: string): ConsentableApp | undefined;
  /** Grants the app its application permissions in the tenant (the roles of its next tokens there). */
  grant(tenantId: string, app: ConsentableApp): void;
  /** The password every simulated user signs in with; without one the page asks only for the account. */
  userPassword?: string;
}

/** The static scope that asks for an app's application permissions to Microsoft Graph. */
const GRAPH_DEFAULT_SCOPES = new Set([`${GRAPH_AUDIENCE}/.default`, '00000003-0000-0000-c000-000000000000/.default']);
/** Consent pages left open this long are forgotten. */
const FLOW_LIFETIME_MS = 30 * 60_000;

interface ConsentRequest {
  /** The `{tenant}` of the path: a tenant id, a domain or `organizations`. */
  authority: string;
  /** The tenant the path names, or undefined for `organizations` (the administrator's own, once signed in). */
  tenant: SimTenant | undefined;
  app: ConsentableApp;
  redirectUri: string;
  state: string | undefined;
}

interface Flow {
  request: ConsentRequest;
  createdAt: number;
  /** Set once an administrator has signed in: the consent page is theirs to answer. */
  signedIn?: { tenant: SimTenant; user: SimUser };
}

/** Whether the account holds a role that may grant tenant-wide consent: a tenant's first account is its Global Administrator. */
const isGlobalAdministrator = (tenant: SimTenant, user: SimUser) => tenant.users[0]?.id === user.id;

const notInDirectory = (clientId: string, directory: string) =>
  `Application with identifier '${clientId}' was not found in the directory '${directory}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`;

/** The answer sent back to the redirect URI: the query of Entra ID's admin consent response, `state` last. */
function redirect(request: ConsentRequest, params: Record<string, string>): SimResponse {
  const url = new URL(request.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

/** An error sent back to the redirect URI, as Entra ID does once the redirect URI is known good. */
function redirectError(request: ConsentRequest, error: string, code: number, description: string): SimResponse {
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return redirect(request, {
    admin_consent: 'True',
    error,
    ...(error === 'access_denied' ? { error_subcode: 'cancel' } : {}),
    error_description: `AADSTS${code}: ${description}\r\nTrace ID: ${randomUUID()}\r\nCorrelation ID: ${randomUUID()}\r\nTimestamp: ${timestamp}`,
  });
}

export function createAdminConsent(options: AdminConsentOptions) {
  const flows = new Map<string, Flow>();

  function forget(now: number) {
    for (const [id, flow] of flows) if (now - flow.createdAt > FLOW_LIFETIME_MS) flows.delete(id);
  }

  /** Checks a consent request; a refusal before the redirect URI is trusted is a page of its own. */
  function consentRequest(authority: string, q: URLSearchParams): ConsentRequest | SimResponse {
    const lower = authority.toLowerCase();
    if (lower === 'common' || lower === 'consumers') {
      return errorPage(
        90130,
        "The application isn't supported over the /common or /consumers endpoints: personal accounts cannot consent for an organisation. Use the /organizations or tenant-specific endpoint.",
      );
    }
    const tenant = lower === 'organizations' ? undefined : options.tenant(authority);
    if (lower !== 'organizations' && !tenant) {
      return errorPage(
        90002,
        `Tenant '${authority}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    const clientId = q.get('client_id') ?? '';
    const app = options.app(clientId);
    if (!app || (tenant && app.homeTenantId !== undefined && app.homeTenantId !== tenant.tenantId)) {
      return errorPage(700016, notInDirectory(clientId, tenant?.tenantId ?? authority));
    }
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) {
      return errorPage(
        50011,
        `The redirect URI '${redirectUri}' specified in the request does not match the redirect URIs configured for the application '${clientId}'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal.`,
      );
    }
    const request: ConsentRequest = { authority, tenant, app, redirectUri, state: q.get('state') ?? undefined };
    const scope = q.get('scope');
    if (!scope) {
      return redirectError(request, 'invalid_request', 900144, "The request must contain the parameter 'scope'.");
    }
    if (!scope.split(' ').some((s) => GRAPH_DEFAULT_SCOPES.has(s))) {
      return redirectError(
        request,
        'invalid_scope',
        70011,
        `The provided value for the input parameter 'scope' is not valid. Application permissions are consented to through the static scope ${GRAPH_AUDIENCE}/.default.`,
      );
    }
    return request;
  }

  function signInForm(flowId: string, error?: string, login = ''): SimResponse {
    const password = options.userPassword
      ? '<label for="passwd">Password</label><input id="passwd" name="passwd" type="password" autocomplete="current-password" required>'
      : '';
    return html(
      error ? 400 : 200,
      'Sign in to your account',
      `<h1>Sign in</h1><p class="muted">An administrator of the organisation signs in to review the permissions an app asks for.</p>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post"><input type="hidden" name="flow" value="${escapeHtml(flowId)}">
<label for="login">Email, phone, or Skype</label><input id="login" name="login" type="email" autocomplete="username" required value="${escapeHtml(login)}">
${password}<button type="submit" id="submit">Sign in</button></form>`,
    );
  }

  function consentPage(flowId: string, flow: Flow & { signedIn: NonNullable<Flow['signedIn']> }): SimResponse {
    const { app } = flow.request;
    const { tenant, user } = flow.signedIn;
    const permissions = app.applicationPermissions.map(
      (p) =>
        `<li><strong>${escapeHtml(p)}</strong> <span class="muted">(application permission, Microsoft Graph)</span></li>`,
    );
    return html(
      200,
      'Permissions requested',
      `<p class="muted">${escapeHtml(user.upn)}</p><h1>Permissions requested</h1>
<p><strong>${escapeHtml(app.displayName)}</strong><br><span class="muted">App ID ${escapeHtml(app.clientId)}</span></p>
<p>This app would like to:</p><ul id="permissions">${permissions.length > 0 ? permissions.join('') : '<li>Sign in (no application permission)</li>'}</ul>
<p class="muted">Accepting grants these permissions to the app for your entire organisation, ${escapeHtml(tenant.domain)}, without any user signing in.</p>
<form method="post"><input type="hidden" name="flow" value="${escapeHtml(flowId)}">
<div class="actions"><button type="submit" class="secondary" name="decision" value="cancel" id="cancel">Cancel</button>
<button type="submit" name="decision" value="accept" id="accept">Accept</button></div></form>`,
    );
  }

  /** The account entered on the sign-in page: the consent page, or the sign-in page again with why not. */
  function signIn(flowId: string, flow: Flow, form: URLSearchParams): SimResponse {
    const login = (form.get('login') ?? '').trim().toLowerCase();
    const tenant = flow.request.tenant ?? options.tenant(login.split('@')[1] ?? '');
    const user = tenant?.users.find((u) => u.upn.toLowerCase() === login);
    if (!tenant || !user) {
      return signInForm(
        flowId,
        `AADSTS50034: The user account ${login} does not exist in the ${tenant?.tenantId ?? flow.request.authority} directory. To sign into this application, the account must be added to the directory.`,
        login,
      );
    }
    if (options.userPassword && !safeEqual(form.get('passwd') ?? '', options.userPassword)) {
      return signInForm(
        flowId,
        'AADSTS50126: Error validating credentials due to invalid username or password.',
        login,
      );
    }
    const { app } = flow.request;
    if (app.homeTenantId !== undefined && app.homeTenantId !== tenant.tenantId) {
      flows.delete(flowId);
      return errorPage(700016, notInDirectory(app.clientId, tenant.tenantId));
    }
    if (!isGlobalAdministrator(tenant, user)) {
      return signInForm(
        flowId,
        `AADSTS90094: Administrator consent is required. ${user.upn} cannot grant permissions for the organisation: sign in with an administrator's account.`,
        login,
      );
    }
    const signedIn = { ...flow, signedIn: { tenant, user } };
    flows.set(flowId, signedIn);
    return consentPage(flowId, signedIn);
  }

  /** GET: the sign-in page of a checked request. POST: the account entered, then the decision on the consent page. */
  function adminConsent(request: SimRequest, authority: string): SimResponse {
    const now = Date.now();
    forget(now);
    if (request.method === 'GET') {
      const checked = consentRequest(authority, request.query);
      if ('status' in checked) return checked;
      const flowId = randomBytes(18).toString('base64url');
      flows.set(flowId, { request: checked, createdAt: now });
      return signInForm(flowId);
    }
    const form = new URLSearchParams(request.body.toString('utf8'));
    const flowId = form.get('flow') ?? '';
    const flow = flows.get(flowId);
    if (!flow) return errorPage(50058, 'The sign-in page has expired or was already used. Start again.');
    const decision = form.get('decision');
    if (!decision) return signIn(flowId, flow, form);
    if (!flow.signedIn) return signInForm(flowId);
    flows.delete(flowId);
    const { app } = flow.request;
    const { tenant } = flow.signedIn;
    if (decision !== 'accept') {
      return redirectError(flow.request, 'access_denied', 65004, 'User declined to consent to access the app.');
    }
    options.grant(tenant.tenantId, app);
    return redirect(flow.request, {
      admin_consent: 'True',
      tenant: tenant.tenantId,
      scope: app.applicationPermissions.map((p) => `${GRAPH_AUDIENCE}/${p}`).join(' '),
    });
  }

  return { adminConsent };
}
