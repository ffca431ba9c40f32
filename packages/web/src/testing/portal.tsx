/**
 * Component tests render the whole portal (router, session, i18n, Chakra) on a memory history, with
 * the API answered by MSW handlers built from the SDK's catalogue: unmocked endpoints answer 501.
 */
import { createHandlers, type TypedResolvers } from '@compliance-portal/sdk/testing';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AppConfig } from '../app/api';
import { createPortal, type Portal, PortalApp } from '../app/portal';
import { toaster } from '../components/ui/toaster';
import type { KeyValueStore } from '../offline/query-persistence';

const mswServer = setupServer();

/** Starts MSW for the file; a request nobody answers fails the test. */
export function startMsw() {
  beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mswServer.resetHandlers());
  afterAll(() => mswServer.close());
}

/**
 * A resolver per endpoint id, typed by the endpoint: a JSON endpoint answers its result type (use
 * `respond(id, body)` for a fixed answer, `refuse(status, body)` for an error), so a contract change
 * breaks the tests that mock it at compile time.
 */
export type Resolvers = TypedResolvers;

const live: Portal[] = [];
afterEach(() => {
  // Removed at once: dismissed toasts wait for an exit animation jsdom never ends, and would fill the
  // toaster's five places for the next test.
  toaster.remove();
  for (const portal of live.splice(0)) portal.stop();
});

/**
 * Renders the portal at `path` with these endpoints answered (the rest answer 501), and the server's
 * /app-config.json as `config` says (sign-up open by default).
 */
export async function renderPortal(
  path: string,
  resolvers: Resolvers = {},
  options: { offlineStore?: KeyValueStore; config?: Partial<AppConfig> } = {},
) {
  mswServer.use(...createHandlers({ resolvers }));
  const { config, ...rest } = options;
  const portal = createPortal({
    config: {
      apiKey: 'test-key',
      environment: 'production',
      selfRegistration: 'open',
      supportEmail: 'support@portal.test',
      ...config,
    },
    history: createMemoryHistory({ initialEntries: [path] }),
    ...rest,
  });
  live.push(portal);
  await Promise.all([portal.ready, portal.languageReady]);
  const view = render(<PortalApp portal={portal} />);
  await act(() => portal.router.load());
  return { portal, view, user: userEvent.setup(), path: () => portal.router.state.location.pathname };
}
