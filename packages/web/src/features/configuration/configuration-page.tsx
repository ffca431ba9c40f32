import { Button, Tabs } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { HelpTarget } from '../../components/help/topics';
import { StatusAlert } from '../../components/ui/form-field';
import { PageHeader } from '../../components/ui/page-header';
import { useWorker } from '../../session/use-worker';
import { RequireTenant } from '../../shared/tenant';
import { LicenceSection } from './licence-section';
import { LocationsSection } from './locations-section';
import { CONFIGURATION_TABS, type ConfigurationTab } from './tabs';
import { TenantsSection } from './tenants-section';
import { UsersSection } from './users-section';

/** The help center's article on each tab. */
const TAB_HELP = {
  tenants: 'configuration.a1',
  locations: 'configuration.a2',
  users: 'configuration.a4',
  licence: 'configuration.a6',
} as const satisfies Record<ConfigurationTab, HelpTarget>;

const isTab = (value: string | undefined): value is ConfigurationTab => CONFIGURATION_TABS.some((tab) => tab === value);

/**
 * Tenants (with provisioning and the connection test), locations, users and the licence. The open tab
 * is in the address (`?tab=locations`), so a link (the setup guide's) opens it and Back and reload keep it.
 */
export function ConfigurationPage({
  tab: asked,
  onTab,
}: {
  tab: string | undefined;
  onTab: (tab: ConfigurationTab) => void;
}) {
  const { t } = useTranslation();
  const worker = useWorker();
  const organisationId = worker?.clientId ?? '';
  const tab: ConfigurationTab = isTab(asked) ? asked : 'tenants';
  return (
    <>
      <PageHeader
        title={t('pages:configuration')}
        description={t('configuration:intro')}
        help={TAB_HELP[tab]}
        actions={
          <Button asChild size="sm" variant="outline">
            <RouterLink to="/configuration/audit-log">{t('userAdmin:auditLogLink')}</RouterLink>
          </Button>
        }
      />
      {!organisationId ? (
        <StatusAlert status="error">{t('configuration:noWorker')}</StatusAlert>
      ) : (
        <Tabs.Root
          value={tab}
          onValueChange={(e) => {
            if (isTab(e.value)) onTab(e.value);
          }}
          variant="line"
          lazyMount
        >
          <Tabs.List flexWrap="wrap">
            {CONFIGURATION_TABS.map((v) => (
              <Tabs.Trigger key={v} value={v}>
                {t(`configuration:tabs.${v}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="tenants">
            <TenantsSection organisationId={organisationId} />
          </Tabs.Content>
          <Tabs.Content value="locations">
            <RequireTenant>{(tenantId) => <LocationsSection tenantId={tenantId} />}</RequireTenant>
          </Tabs.Content>
          <Tabs.Content value="users">
            <UsersSection organisationId={organisationId} />
          </Tabs.Content>
          <Tabs.Content value="licence">
            <LicenceSection organisationId={organisationId} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </>
  );
}
