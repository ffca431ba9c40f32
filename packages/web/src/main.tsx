import { createRoot } from 'react-dom/client';
import { loadAppConfig } from './app/api';
import { createPortal, PortalApp } from './app/portal';
import { readStoredUser } from './session/storage';

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
  createRoot(root).render(<PortalApp portal={portal} />);
  if (import.meta.env.PROD) {
    void import('./offline/register-service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
  }
}

void start();
