import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { respond } from '@compliance-portal/sdk/testing';
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, loadLanguage } from '../i18n';
import { storeUser, storeWorker } from '../session/storage';
import { testClient, testPage, testWorker } from '../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../testing/portal';
import { createMemoryStore } from './idb-store';
import { OfflineBanner, relativeAge } from './offline-banner';
import { scopeKey } from './query-persistence';
import { appUpdate } from './updates';

startMsw();

const EMAIL = 'admin@contoso.example';
const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: EMAIL, role: 'admin' } });
  storeWorker(testWorker());
};
const reportsOnline = (calls: { n: number }): Resolvers => ({
  'legacy.workers.client': respond('legacy.workers.client', testClient()),
  'apollo.reporting.list': () => {
    calls.n++;
    return HttpResponse.json(testPage([]));
  },
});

/** A page with one query saved for offline use and one that waits for the network. */
function HalfSavedPage() {
  useQuery({ queryKey: ['saved'], queryFn: async () => 1, initialData: 1, initialDataUpdatedAt: Date.now() });
  useQuery({ queryKey: ['missing'], queryFn: async () => 2 });
  return <OfflineBanner />;
}

afterEach(() => {
  vi.restoreAllMocks();
  onlineManager.setOnline(true);
});

describe('the offline cache in the portal', () => {
  it('keeps the reports list of the user and organisation, and shows it offline with the banner; back online it refreshes', async () => {
    signedIn();
    const store = createMemoryStore();
    const calls = { n: 0 };
    const first = await renderPortal('/reports', reportsOnline(calls), { offlineStore: store });
    await screen.findByTestId('table-empty');
    await act(() => first.portal.offline.then((cache) => cache.persistence.flush()));
    const key = scopeKey({ user: EMAIL, organisation: testWorker().workerId });
    expect([...store.data.keys()]).toEqual([key]);
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    first.view.unmount();
    first.portal.stop();

    // Reopened without a network: the saved list, no request, the banner with its age and the reason.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const before = calls.n;
    await renderPortal('/reports', reportsOnline(calls), { offlineStore: store });
    await screen.findByTestId('table-empty');
    const banner = screen.getByTestId('offline-banner');
    expect(banner.textContent).toContain('You are offline.');
    expect(screen.getByTestId('offline-age').textContent).toBe('The data shown was saved just now.');
    expect(banner.textContent).toContain('Actions that need the server are disabled until the connection returns.');
    expect(calls.n).toBe(before);

    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(calls.n).toBe(before + 1));
    expect(await screen.findByTestId('online-again')).toBeTruthy();
    expect(screen.queryByTestId('offline-banner')).toBeNull();
  });

  it('says when a page has nothing saved for offline use', async () => {
    signedIn();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await renderPortal('/reports', reportsOnline({ n: 0 }), { offlineStore: createMemoryStore() });
    const banner = await screen.findByTestId('offline-banner');
    await waitFor(() => expect(banner.textContent).toContain('No data is saved for offline use on this page yet.'));
  });

  it('says that the rest of a page was not saved when only part of it was, never both "saved" and "not saved"', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => onlineManager.setOnline(false));
    const i18n = createI18n('en');
    await loadLanguage(i18n, 'en');
    render(
      <ChakraProvider value={defaultSystem}>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={new QueryClient()}>
            <HalfSavedPage />
          </QueryClientProvider>
        </I18nextProvider>
      </ChakraProvider>,
    );
    expect((await screen.findByTestId('offline-age')).textContent).toBe('The data shown was saved just now.');
    expect((await screen.findByTestId('offline-missing')).textContent).toBe(
      'The rest of this page was not saved for offline use; it loads when the connection returns.',
    );
  });

  it('logout empties the saved data and the memory cache', async () => {
    signedIn();
    const store = createMemoryStore();
    const { portal } = await renderPortal(
      '/reports',
      { ...reportsOnline({ n: 0 }), 'legacy.auth.logout': respond('legacy.auth.logout') },
      { offlineStore: store },
    );
    await screen.findByTestId('table-empty');
    await act(() => portal.offline.then((cache) => cache.persistence.flush()));
    expect(store.data.size).toBe(1);
    act(() => portal.session.send({ type: 'session.logout' }));
    await waitFor(() => expect(store.data.size).toBe(0));
    expect(portal.queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('another tab’s logout empties them too', async () => {
    signedIn();
    const store = createMemoryStore();
    const { portal } = await renderPortal('/reports', reportsOnline({ n: 0 }), { offlineStore: store });
    await screen.findByTestId('table-empty');
    await act(() => portal.offline.then((cache) => cache.persistence.flush()));
    expect(store.data.size).toBe(1);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'logout', newValue: String(Date.now()) }));
    });
    await waitFor(() => expect(store.data.size).toBe(0));
    expect(portal.queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});

describe('the update prompt', () => {
  it('offers a new version: Reload lets it take over, Later hides the prompt', async () => {
    const user = userEvent.setup();
    await renderPortal('/signin');
    const apply = vi.fn(async () => undefined);
    act(() => appUpdate.offer(apply));
    expect((await screen.findByTestId('update-prompt')).textContent).toContain(
      'A new version of the portal is available.',
    );
    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByTestId('update-prompt')).toBeNull();
    expect(apply).not.toHaveBeenCalled();

    act(() => appUpdate.offer(apply));
    await user.click(await screen.findByRole('button', { name: 'Reload' }));
    expect(apply).toHaveBeenCalledTimes(1);
  });
});

describe('the age shown', () => {
  it('reads in the chosen language', () => {
    expect(relativeAge(10_000, 'en', 'just now')).toBe('just now');
    expect(relativeAge(5 * 60_000, 'en', 'just now')).toBe('5 minutes ago');
    expect(relativeAge(2 * 3_600_000, 'de', 'gerade eben')).toBe('vor 2 Stunden');
    expect(relativeAge(86_400_000, 'en', 'just now')).toBe('yesterday');
  });
});
