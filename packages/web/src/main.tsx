import { ChakraProvider } from '@chakra-ui/react';
import type { Language } from '@compliance-portal/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createApi, loadAppConfig } from './app/api';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { system } from './app/theme';
import { showToast, Toaster, toaster } from './components/ui/toaster';
import { handleApiError } from './errors/api-errors';
import { createI18n } from './i18n';
import { SessionProvider } from './session/context';
import { connectSession, createSessionActor } from './session/runtime';

async function start() {
  const i18n = createI18n();
  const config = await loadAppConfig();
  let router: ReturnType<typeof createAppRouter> | undefined;
  // The session needs the API and the router, the API reports 401s to the session: wired late.
  const late = { session: undefined as ReturnType<typeof createSessionActor> | undefined };
  const api = createApi(config, {
    onUnauthorized: () => late.session?.send({ type: 'session.unauthorized' }),
    onError: (error) =>
      handleApiError(
        error,
        { dismissAll: () => toaster.dismiss(), show: (kind, message) => showToast(kind, message) },
        { noTenant: i18n.t('errors:noTenant'), network: i18n.t('errors:network') },
        (i18n.language as Language) ?? 'en',
      ),
  });
  const session = createSessionActor({
    api,
    i18n,
    navigate: (to) => void router?.navigate({ to }),
    currentPath: () => window.location.pathname,
  });
  late.session = session;
  const queryClient = createQueryClient();
  router = createAppRouter({ queryClient, api, session });
  session.start();
  connectSession(session);

  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ChakraProvider value={system}>
          <QueryClientProvider client={queryClient}>
            <SessionProvider actor={session}>
              <RouterProvider router={router} />
              <Toaster />
            </SessionProvider>
          </QueryClientProvider>
        </ChakraProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}

void start();
