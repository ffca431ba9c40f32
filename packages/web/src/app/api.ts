import { createClient, type Environment, type PortalClient, type SdkError } from '@compliance-portal/sdk';
import { isUnauthorizedLogin } from '../errors/api-errors';
import { clearAllCookies, readStoredUser } from '../session/storage';

export interface AppConfig {
  apiKey: string;
  environment: Environment;
  /** Whether people may create an account themselves (the server's PORTAL_SELF_REGISTRATION). */
  selfRegistration: 'open' | 'closed';
  /** Whom to write to when sign-up is closed (the server's SUPPORT_EMAIL); empty when not said. */
  supportEmail: string;
}

const APP_CONFIG_KEY = 'appConfig';

function toAppConfig(body: Partial<AppConfig>): AppConfig {
  return {
    apiKey: String(body.apiKey ?? ''),
    environment: body.environment === 'staging' ? 'staging' : 'production',
    // Not said (a server before the setting): the sign-up is not offered.
    selfRegistration: body.selfRegistration === 'open' ? 'open' : 'closed',
    supportEmail: typeof body.supportEmail === 'string' ? body.supportEmail : '',
  };
}

/** What the prerendered page's boot script asked for already (scripts/prerender.ts), read once. */
function bootAnswer(): Promise<unknown> | undefined {
  const holder = globalThis as { portalAppConfig?: Promise<unknown> };
  const answer = holder.portalAppConfig;
  delete holder.portalAppConfig;
  return answer;
}

async function fetchAppConfig(fetchImpl: typeof fetch): Promise<unknown> {
  const response = await fetchImpl('/app-config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`app-config.json answered ${response.status}`);
  return response.json();
}

/**
 * The server gives the PWA its application key (the key identifies the app, never the user) and
 * whether sign-up is open. The boot script of index.html asks for it before the app's script has
 * loaded; its answer is taken when there. The last answer is kept so that the portal opens offline;
 * without a network and without it, loading fails.
 */
export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  try {
    const early = bootAnswer();
    // The boot script's request failed (or there was none): asked again.
    const body = early ? await early.catch(() => fetchAppConfig(fetchImpl)) : await fetchAppConfig(fetchImpl);
    const config = toAppConfig((body ?? {}) as Partial<AppConfig>);
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
