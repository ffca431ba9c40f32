import { createClient, type Environment, type PortalClient, type SdkError } from '@compliance-portal/sdk';
import { readStoredUser } from '../session/storage';

export interface AppConfig {
  apiKey: string;
  environment: Environment;
}

/** The server gives the PWA its application key; the key identifies the app, never the user. */
export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  const response = await fetchImpl('/app-config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`app-config.json answered ${response.status}`);
  const body = (await response.json()) as Partial<AppConfig>;
  return { apiKey: String(body.apiKey ?? ''), environment: body.environment === 'staging' ? 'staging' : 'production' };
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
    onError: handlers.onError,
  });
}
