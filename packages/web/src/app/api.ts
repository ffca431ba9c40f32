import { createClient, type Environment, type PortalClient, type SdkError } from '@compliance-portal/sdk';
import { isUnauthorizedLogin } from '../errors/api-errors';
import { clearAllCookies, readStoredUser } from '../session/storage';

export interface AppConfig {
  apiKey: string;
  environment: Environment;
}

const APP_CONFIG_KEY = 'appConfig';

function toAppConfig(body: Partial<AppConfig>): AppConfig {
  return { apiKey: String(body.apiKey ?? ''), environment: body.environment === 'staging' ? 'staging' : 'production' };
}

/**
 * The server gives the PWA its application key; the key identifies the app, never the user. The last
 * answer is kept so that the portal opens offline; without a network and without it, loading fails.
 */
export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  try {
    const response = await fetchImpl('/app-config.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`app-config.json answered ${response.status}`);
    const config = toAppConfig((await response.json()) as Partial<AppConfig>);
    localStorage.setItem(APP_CONFIG_KEY, JSON.stringify(config));
    return config;
  } catch (error) {
    const kept = localStorage.getItem(APP_CONFIG_KEY);
    if (!kept) throw error;
    return toAppConfig(JSON.parse(kept) as Partial<AppConfig>);
  }
}

export function createApi(
  config: AppConfig,
  handlers: { onUnauthorized: () => void; onError: (error: SdkError) => void },
): PortalClient {
  return createClient({
    environment: config.environment,
    apiKey: config.apiKey,
    token: () => readStoredUser()?.token,
    onUnauthorized: handlers.onUnauthorized,
    onError: (error) => {
      // Section 8: a 401 on /login clears the cookies too, without the redirect to /logout.
      if (isUnauthorizedLogin(error)) clearAllCookies();
      handlers.onError(error);
    },
  });
}
