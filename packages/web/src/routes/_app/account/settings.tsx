import { createFileRoute } from '@tanstack/react-router';
import { AccountSettingsPage } from '../../../features/account/account-settings-page';
import { accountSettingsSearch } from '../../../features/account/settings-search';

function Settings() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AccountSettingsPage search={search} onSearch={(next) => void navigate({ search: next })} />;
}

export const Route = createFileRoute('/_app/account/settings')({
  validateSearch: accountSettingsSearch,
  component: Settings,
});
