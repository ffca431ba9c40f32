import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../app/loaders';
import { AccountSettingsPage } from '../../../features/account/account-settings-page';
import {
  accountInfoQuery,
  notificationsQuery,
  signInActivityQuery,
  twoFactorStateQuery,
} from '../../../features/account/api/queries';
import { accountSettingsSearch } from '../../../features/account/settings-search';

function Settings() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AccountSettingsPage search={search} onSearch={(next) => void navigate({ search: next })} />;
}

export const Route = createFileRoute('/_app/account/settings')({
  validateSearch: accountSettingsSearch,
  loaderDeps: ({ search }) => ({ tab: search.tab ?? 'notifications', page: search.page ?? 1 }),
  // Only the open tab is shown, so only its data is read. Started here and not awaited: each tab shows
  // its own skeleton, error and retry while its data loads, and choosing a tab or a page of the
  // activity does not wait on the network (a failing read retries for seconds before it says so).
  loader: ({ context: { queryClient, api }, deps }) => {
    void loadQueries(
      queryClient,
      deps.tab === 'security'
        ? [twoFactorStateQuery(api), accountInfoQuery(api)]
        : deps.tab === 'activity'
          ? [signInActivityQuery(api, deps.page)]
          : [notificationsQuery(api)],
    );
  },
  component: Settings,
});
