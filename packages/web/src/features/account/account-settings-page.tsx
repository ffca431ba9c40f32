/**
 * /account/settings: the notification settings, sign-in and security (email, password, authenticator,
 * recovery codes) and the sign-in activity, as tabs; the tab and the activity's page are in the URL,
 * so the user menu links to each and Back and reload keep them.
 */
import { Tabs } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { HelpTarget } from '../../components/help/topics';
import { PageHeader } from '../../components/ui/page-header';
import { ActivitySection } from './activity-section';
import { NotificationSettingsForm } from './notification-settings-page';
import { SecuritySection } from './security-section';
import { ACCOUNT_TABS, type AccountSettingsSearch, type AccountTab } from './settings-search';

/** The help center's article on each tab. */
const TAB_HELP = {
  notifications: 'account.a3',
  security: 'account.a1',
  activity: 'account.a4',
} as const satisfies Record<AccountTab, HelpTarget>;

export function AccountSettingsPage({
  search,
  onSearch,
}: {
  search: AccountSettingsSearch;
  onSearch: (next: AccountSettingsSearch) => void;
}) {
  const { t } = useTranslation();
  const tab = search.tab ?? 'notifications';
  return (
    <>
      <PageHeader title={t('pages:settings')} help={TAB_HELP[tab]} />
      <Tabs.Root
        value={tab}
        onValueChange={(e) => onSearch({ tab: e.value as AccountTab })}
        lazyMount
        unmountOnExit
        variant="line"
      >
        <Tabs.List aria-label={t('accountSecurity:sections')} flexWrap="wrap" mb="4">
          {ACCOUNT_TABS.map((value) => (
            <Tabs.Trigger key={value} value={value} flexShrink={0} data-testid={`tab-${value}`}>
              {t(`accountSecurity:tabs.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="notifications">
          <NotificationSettingsForm />
        </Tabs.Content>
        <Tabs.Content value="security">
          <SecuritySection />
        </Tabs.Content>
        <Tabs.Content value="activity">
          <ActivitySection page={search.page ?? 1} onPage={(page) => onSearch({ tab: 'activity', page })} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
