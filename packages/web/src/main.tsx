import { createRoot } from 'react-dom/client';
import { loadAppConfig } from './app/api';
import { createPortal, PortalApp } from './app/portal';

async function start() {
  const portal = createPortal({ config: await loadAppConfig() });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  createRoot(root).render(<PortalApp portal={portal} />);
}

void start();
