import { createFileRoute } from '@tanstack/react-router';
import { CheckMailPage } from '../features/sign-up/check-mail-page';
import { validateCheckMailSearch } from '../features/sign-up/search';
import { loadLanguage } from '../i18n';

function CheckMailRoute() {
  const { email } = Route.useSearch();
  return <CheckMailPage email={email} />;
}

/** After signing up: where the confirmation link went, and sending it again. */
export const Route = createFileRoute('/signup_/check-mail')({
  validateSearch: validateCheckMailSearch,
  // The sign-up's texts come with the areas' (their own chunk), loaded with the page's code.
  loader: ({ context }) => loadLanguage(context.i18n),
  component: CheckMailRoute,
});
