/**
 * The scopes of a user's sign-in as the identity platform reads them: OpenID Connect's (`openid`,
 * `profile`, `email`, `offline_access`) and Microsoft Graph's delegated permissions, named short
 * (`User.Read`: a scope without a resource is Graph's) or long (`https://graph.microsoft.com/User.Read`,
 * or under Graph's application id), or all those configured on the app registration (`.default`).
 * Entra ID answers Graph's in the short form, in their own spelling (`mail.read` comes back
 * `Mail.Read`), and never lists `offline_access`: it grants a refresh token, not access.
 */
import { ALL_APPLICATION_PERMISSIONS, ROUTE_PERMISSIONS } from './permissions.js';
import { GRAPH_AUDIENCE } from './tokens.js';

/** Microsoft Graph's application id, by which a scope may name it too. */
const GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export type OidcScope = (typeof OIDC_SCOPES)[number];

/** What a `scope` parameter asks for. */
export interface AskedScopes {
  oidc: Set<OidcScope>;
  /** Graph's delegated permissions named, in the short form. */
  graph: string[];
  /** Whether it asks `.default`: every permission configured on the app registration. */
  graphDefault: boolean;
}

/** A scope parameter Entra ID refuses: its OAuth error, AADSTS code and description. */
export interface ScopeRefusal {
  error: 'invalid_scope' | 'invalid_resource';
  code: number;
  description: string;
}

/** A permission's name as Graph spells it: `Resource.Operation[.Constraint]`, e.g. `Mail.ReadWrite.Shared`. */
const PERMISSION_NAME = /^[A-Za-z][\w-]*(?:\.[\w-]+)+$/;

/** Graph's spelling of the permissions the simulator knows, by their lower case. */
const SPELLING = new Map(
  [
    ...ALL_APPLICATION_PERMISSIONS,
    ...Object.values(ROUTE_PERMISSIONS).flatMap((r) => [...r.anyOf, ...r.delegated, ...r.delegatedOwn]),
  ].map((p) => [p.toLowerCase(), p]),
);
const spelled = (permission: string) => SPELLING.get(permission.toLowerCase()) ?? permission;

const isGraph = (resource: string) => {
  const r = resource.toLowerCase().replace(/\/+$/, '');
  return r === GRAPH_AUDIENCE || r === GRAPH_APP_ID;
};

/** Reads a `scope` parameter, or the refusal Entra ID answers it with. */
export function parseScopes(scope: string, tenantId: string): AskedScopes | ScopeRefusal {
  const asked: AskedScopes = { oidc: new Set(), graph: [], graphDefault: false };
  for (const value of scope.split(/\s+/).filter(Boolean)) {
    const oidc = OIDC_SCOPES.find((s) => s === value.toLowerCase());
    if (oidc) {
      asked.oidc.add(oidc);
      continue;
    }
    const slash = value.lastIndexOf('/');
    const resource = slash < 0 ? GRAPH_AUDIENCE : value.slice(0, slash);
    const name = value.slice(slash + 1);
    if (!isGraph(resource)) {
      return {
        error: 'invalid_resource',
        code: 500011,
        description: `The resource principal named ${resource} was not found in the tenant named ${tenantId}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`,
      };
    }
    if (name.toLowerCase() === '.default') asked.graphDefault = true;
    else if (PERMISSION_NAME.test(name)) asked.graph.push(spelled(name));
    else {
      return {
        error: 'invalid_scope',
        code: 70011,
        description: `The provided value for the input parameter 'scope' is not valid. The scope ${value} is not valid.`,
      };
    }
  }
  asked.graph = [...new Set(asked.graph)];
  return asked;
}

export const isScopeRefusal = (value: AskedScopes | ScopeRefusal): value is ScopeRefusal => 'error' in value;

/**
 * The `scope` of a token answer and the `scp` of its access token: Graph's permissions granted, short,
 * then the OpenID Connect scopes that name claims (`openid`, `profile`, `email`).
 */
export function grantedScopes(graph: readonly string[], oidc: ReadonlySet<OidcScope>): string {
  return [...graph, ...OIDC_SCOPES.filter((s) => s !== 'offline_access' && oidc.has(s))].join(' ');
}
