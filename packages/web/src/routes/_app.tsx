import { createFileRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../app/guards';
import { AppLayout } from '../components/layout/app-layout';
import { ClientSwitcher } from '../features/partner/client-switcher';
import { loadLanguage } from '../i18n';

/** The main layout, with the partner's choice of client in its header. */
function Layout() {
  return <AppLayout clientSwitcher={<ClientSwitcher />} />;
}

export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    requireSignedIn(context.session, location.href);
    // The areas' texts, in their own chunk (precached for offline use).
    await loadLanguage(context.i18n);
  },
  component: Layout,
});
