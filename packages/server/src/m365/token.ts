/**
 * App-only tokens for Microsoft Graph by OAuth 2.0 client credentials, through MSAL. MSAL accepts
 * only https authorities; a simulator on plain http is given to MSAL under an https alias, and the
 * network module (fetch) maps the alias back. Against login.microsoftonline.com nothing is mapped:
 * a real tenant needs only its tenant id, client id and secret.
 */
import {
  ConfidentialClientApplication,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from '@azure/msal-node';
import { GraphError } from './graph-api.js';

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const ALIAS_HOST = 'login.simulator.invalid';

export interface TokenSource {
  token(): Promise<string>;
}

function fetchNetwork(rewrite: (url: string) => string): INetworkModule {
  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    options?: NetworkRequestOptions,
  ): Promise<NetworkResponse<T>> => {
    const response = await fetch(rewrite(url), {
      method,
      headers: options?.headers ?? {},
      ...(method === 'POST' ? { body: options?.body ?? '' } : {}),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const text = await response.text();
    let body: T;
    try {
      body = JSON.parse(text) as T;
    } catch {
      body = {} as T;
    }
    return { headers, body, status: response.status };
  };
  return {
    sendGetRequestAsync: (url, options) => call('GET', url, options),
    sendPostRequestAsync: (url, options) => call('POST', url, options),
  };
}

export function createTokenSource(connection: {
  directoryId: string;
  clientId: string;
  clientSecret: string;
  authorityHost: string;
}): TokenSource {
  const host = connection.authorityHost.replace(/\/$/, '');
  const secure = host.startsWith('https://');
  const aliasBase = secure ? host : `https://${ALIAS_HOST}`;
  const authority = `${aliasBase}/${connection.directoryId}`;
  const rewrite = (url: string) => (secure ? url : url.replace(`https://${ALIAS_HOST}`, host));
  const authorityUrl = new URL(authority);
  const app = new ConfidentialClientApplication({
    auth: {
      clientId: connection.clientId,
      clientSecret: connection.clientSecret,
      authority,
      knownAuthorities: [authorityUrl.host],
      // The simulator's endpoints, named under the https alias (MSAL refuses http ones).
      ...(secure
        ? {}
        : {
            authorityMetadata: JSON.stringify({
              token_endpoint: `${authority}/oauth2/v2.0/token`,
              authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
              end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
              issuer: `${authority}/v2.0`,
              jwks_uri: `${authority}/discovery/v2.0/keys`,
            }),
          }),
      // No instance discovery against the internet: the authority is taken as given.
      cloudDiscoveryMetadata: JSON.stringify({
        tenant_discovery_endpoint: `${authority}/v2.0/.well-known/openid-configuration`,
        'api-version': '1.1',
        metadata: [
          { preferred_network: authorityUrl.host, preferred_cache: authorityUrl.host, aliases: [authorityUrl.host] },
        ],
      }),
    },
    system: { networkClient: fetchNetwork(rewrite) },
  });
  return {
    async token() {
      const result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE] }).catch((error: unknown) => {
        const detail = error instanceof Error ? error.message : String(error);
        throw new GraphError(401, 'authenticationFailed', `The tenant's app registration was refused: ${detail}`);
      });
      if (!result?.accessToken)
        throw new GraphError(401, 'authenticationFailed', 'No token was issued for Microsoft Graph.');
      return result.accessToken;
    },
  };
}
