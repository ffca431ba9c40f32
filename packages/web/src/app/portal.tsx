/**
 * Puts the portal together: i18n, the SDK client, the session actor and the router, wired to one
 * another. main.tsx starts it in the browser; component tests start it with a memory history.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { type RouterHistory, RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { showToast, toaster } from '../components/ui/toaster';
import { handleApiError } from '../errors/api-errors';
import { createI18n, loadLanguage } from '../i18n';
import { OfflineBanner } from '../offline/offline-banner';
import type { OfflineCache } from '../offline/offline-cache';
import { syncOnlineState } from '../offline/online';
import type { KeyValueStore } from '../offline/query-persistence';
import { SessionProvider } from '../session/context';
import { connectSession, createSessionActor, type SessionActor } from '../session/runtime';
import { type AppConfig, createApi } from './api';
import { createQueryClient, invalidateOrganisation } from './query-client';
import { createAppRouter } from './router';
import { getSystem } from './theme';

export interface PortalOptions {
  config: AppConfig;
  /** The browser's history by default; a memory history in tests. */
  history?: RouterHistory;
  /** Where dashboards and reports are kept for offline use: IndexedDB by default, a Map in tests. */
  offlineStore?: KeyValueStore;
}

export function createPortal({ config, history, offlineStore }: PortalOptions) {
  syncOnlineState();
  const i18n = createI18n();
  let router: ReturnType<typeof createAppRouter> | undefined;
  // The session needs the API and the router, the API reports 401s to the session: wired late.
  const late: { session?: SessionActor; offline?: Promise<OfflineCache> } = {};
  const api = createApi(config, {
    onUnauthorized: () => late.session?.send({ type: 'session.unauthorized' }),
    onError: (error) =>
      handleApiError(
        error,
        { dismissAll: () => toaster.dismiss(), show: (kind, message) => showToast(kind, message) },
        { noTenant: i18n.t('errors:noTenant'), network: i18n.t('errors:network') },
        (key) => i18n.t(key),
      ),
  });
  const queryClient = createQueryClient();
  const session = createSessionActor({
    api,
    i18n,
    navigate: (to) => void router?.navigate({ to }),
    currentPath: () => router?.state.location.pathname ?? window.location.pathname,
    // Also when the cache's code arrives only after the sign-out: the saved data goes all the same.
    onSignOut: () => void late.offline?.then((cache) => cache.clear()),
    onWorkerChanged: (worker) => void invalidateOrganisation(queryClient, worker),
  });
  late.session = session;
  router = createAppRouter({ queryClient, api, session, i18n, config }, history);
  session.start();
  // The offline cache's code loads beside the first screen's; a stored user's saved data is put in
  // the cache before the first screen (main.tsx waits for `ready`).
  const offline = import('../offline/offline-cache').then(({ connectOfflineCache }) =>
    connectOfflineCache(session, queryClient, offlineStore),
  );
  late.offline = offline;
  const disconnect = connectSession(session);
  return {
    i18n,
    api,
    session,
    queryClient,
    router,
    offline,
    /** Settles when the stored user's saved data is in the cache (or after a short wait). */
    ready: offline.then((cache) => cache.ready),
    /** Settles when the chosen language's texts are all there (German loads whole, English in part). */
    languageReady: loadLanguage(i18n).catch(() => undefined),
    stop() {
      disconnect();
      void offline.then((cache) => cache.stop());
      session.stop();
      // Stop fetches and their retries too: a retry failing later would still raise its toast.
      void queryClient.cancelQueries();
      queryClient.clear();
    },
  };
}

export type Portal = ReturnType<typeof createPortal>;

// Not needed for the first screen: loaded beside its route's chunks instead of before them. The
// offline banner is not among them: lazily loaded, React revealed it some 700 ms after the page
// (measured offline, bench/offline-open.mjs), and offline it belongs on the first screen.
const Toaster = lazy(() => import('../components/ui/toaster-view').then((m) => ({ default: m.Toaster })));
const UpdatePrompt = lazy(() => import('../offline/update-prompt').then((m) => ({ default: m.UpdatePrompt })));

export function PortalApp({ portal }: { portal: Portal }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={portal.i18n}>
        <ChakraProvider value={getSystem()}>
          <QueryClientProvider client={portal.queryClient}>
            <SessionProvider actor={portal.session}>
              <Suspense fallback={null}>
                <OfflineBanner />
              </Suspense>
              <RouterProvider router={portal.router} />
              <Suspense fallback={null}>
                <UpdatePrompt />
                <Toaster />
              </Suspense>
            </SessionProvider>
          </QueryClientProvider>
        </ChakraProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
