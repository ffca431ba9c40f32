import { Button, Tabs } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { PageHeader } from '../../components/ui/page-header';
import { useWorker } from '../../session/use-worker';
import { RequireTenant } from '../../shared/tenant';
import { LicenceSection } from './licence-section';
import { LocationsSection } from './locations-section';
import { TenantsSection } from './tenants-section';
import { UsersSection } from './users-section';

/** Tenants (with provisioning and the connection test), locations, users and the licence. */
export function ConfigurationPage() {
  const { t } = useTranslation();
  const worker = useWorker();
  const organisationId = worker?.clientId ?? '';
  return (
    <>
      <PageHeader
        title={t('pages:configuration')}
        description={t('configuration:intro')}
        actions={
          <Button asChild size="sm" variant="outline">
            <RouterLink to="/configuration/audit-log">{t('userAdmin:auditLogLink')}</RouterLink>
          </Button>
        }
      />
      {!organisationId ? (
        <StatusAlert status="error">{t('configuration:noWorker')}</StatusAlert>
      ) : (
        <Tabs.Root defaultValue="tenants" variant="line" lazyMount>
          <Tabs.List flexWrap="wrap">
            {(['tenants', 'locations', 'users', 'licence'] as const).map((v) => (
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
