import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { loadAppConfig } from './app/api';
import { createPortal, PortalApp } from './app/portal';
import { getSystem } from './app/theme';
import { readStoredUser } from './session/storage';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  const portal = createPortal({ config: await loadAppConfig() });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  // The saved dashboards and reports go into the cache before the first screen asks for them.
  // A German first screen waits for its texts; English has those of the first screen bundled.
  await Promise.all([
    readStoredUser() ? portal.ready : undefined,
    portal.i18n.language === 'en' ? undefined : portal.languageReady,
  ]);
  // The first route is matched, guarded and its code loaded before React renders, so the first
  // render is the whole page at once rather than a shell that a router update then fills.
  await nextTask();
  await portal.router.load().catch((error: unknown) => console.error(error));
  // Chakra's styles are built in a task of their own (see getSystem).
  await nextTask();
  getSystem();
  await nextTask();
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // blocking it for the whole tree (Lighthouse's total blocking time).
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(<PortalApp portal={portal} />));
  if (import.meta.env.PROD) {
    void import('./offline/register-service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
  }
}

void start();
