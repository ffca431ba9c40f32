import { createRoot } from 'react-dom/client';
import { loadAppConfig } from './app/api';
import { createPortal, PortalApp } from './app/portal';

async function start() {
  const portal = createPortal({ config: await loadAppConfig() });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  // The saved dashboards and reports go into the cache before the first screen asks for them.
  await portal.offline.ready;
  createRoot(root).render(<PortalApp portal={portal} />);
  if (import.meta.env.PROD) {
    void import('./offline/register-service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
  }
}

void start();
