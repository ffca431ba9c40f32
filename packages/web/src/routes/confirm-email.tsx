import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailPage } from '../features/sign-up/confirm-email-page';
import { validateConfirmEmailSearch } from '../features/sign-up/search';
import { loadLanguage } from '../i18n';

function ConfirmEmailRoute() {
  return <ConfirmEmailPage search={Route.useSearch()} />;
}

/** The mailed confirmation link's page: signed in or not, it confirms and says what happened. */
export const Route = createFileRoute('/confirm-email')({
  validateSearch: validateConfirmEmailSearch,
  // The sign-up's texts come with the areas' (their own chunk), loaded with the page's code.
  loader: ({ context }) => loadLanguage(context.i18n),
  component: ConfirmEmailRoute,
});
