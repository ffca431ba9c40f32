/**
 * App-only tokens for Microsoft Graph by OAuth 2.0 client credentials, through MSAL. Against
 * login.microsoftonline.com a real tenant needs only its tenant id, client id and secret. Any other
 * authority host (the Microsoft 365 simulator, like any cloud MSAL does not know) is named in
 * `knownAuthorities`, so MSAL reads its OpenID configuration over https instead of asking Microsoft's
 * instance discovery; its certificate must be trusted by this process (see trust.ts).
 */
import { ConfidentialClientApplication } from '@azure/msal-node';
import { GraphError } from './graph-api.js';

const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const MICROSOFT_AUTHORITY_HOST = 'login.microsoftonline.com';
/** A token is renewed this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export interface TokenSource {
  token(): Promise<string>;
}

export function createTokenSource(connection: {
  directoryId: string;
  clientId: string;
  clientSecret: string;
  authorityHost: string;
}): TokenSource {
  const authority = `${connection.authorityHost.replace(/\/$/, '')}/${connection.directoryId}`;
  const { host } = new URL(authority);
  const app = new ConfidentialClientApplication({
    auth: {
      clientId: connection.clientId,
      clientSecret: connection.clientSecret,
      authority,
      ...(host === MICROSOFT_AUTHORITY_HOST ? {} : { knownAuthorities: [host] }),
    },
  });
  const acquire = async () => {
    const result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE] }).catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      throw new GraphError(401, 'authenticationFailed', `The tenant's app registration was refused: ${detail}`);
    });
    if (!result?.accessToken)
      throw new GraphError(401, 'authenticationFailed', 'No token was issued for Microsoft Graph.');
    // MSAL's own cache answers too, but looking it up costs more than a request to the simulator on
    // loopback: the token is kept here until shortly before it expires.
    const expiresAt = result.expiresOn ? result.expiresOn.getTime() : 0;
    return { token: result.accessToken, refreshAt: expiresAt - TOKEN_REFRESH_MARGIN_MS };
  };
  let current: { token: string; refreshAt: number } | undefined;
  let pending: Promise<{ token: string; refreshAt: number }> | undefined;
  return {
    async token() {
      if (current && Date.now() < current.refreshAt) return current.token;
      pending ??= acquire().finally(() => {
        pending = undefined;
      });
      current = await pending;
      return current.token;
    },
  };
}
