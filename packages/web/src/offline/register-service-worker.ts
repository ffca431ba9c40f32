/**
 * Registers the service worker that serves the app shell (production builds only; main.tsx loads
 * this lazily). A new version waits until the user accepts the update prompt; updates are looked for
 * on each visit, every hour and when the connection returns.
 */
import { registerSW } from 'virtual:pwa-register';
import { appUpdate } from './updates';

const UPDATE_CHECK_MS = 60 * 60_000;

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    onNeedRefresh: () => appUpdate.offer(() => update(true)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      const check = () => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      };
      setInterval(check, UPDATE_CHECK_MS);
      window.addEventListener('online', check);
    },
    onRegisterError: (error: unknown) => console.warn('service worker registration failed', error),
  });
}
