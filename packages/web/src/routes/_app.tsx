import { createFileRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../app/guards';
import { AppLayout } from '../components/layout/app-layout';
import { loadLanguage } from '../i18n';

export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    requireSignedIn(context.session, location.href);
    // The areas' texts, in their own chunk (precached for offline use).
    await loadLanguage(context.i18n);
  },
  component: AppLayout,
});
