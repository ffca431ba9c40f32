import { Button, Card, Stack, Text } from '@chakra-ui/react';
import { ApiError, microsoft365FailureOf } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { RequireTenant, useTenant } from '../../shared/tenant';
import { useSyncUsers } from './api/mutations';
import { PortalUsers } from './portal-users';

/** The synchronisation of the tenant's Microsoft 365 accounts (which jobs and reports name). */
function UserSync({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { workerIp } = useTenant();
  const serverAction = useServerAction();
  const sync = useSyncUsers(tenantId, workerIp);
  // The server says what Microsoft 365 refused (a secret, a permission) alongside the catalogue message.
  const syncBody = sync.error instanceof ApiError ? sync.error.body : undefined;
  const syncDetail =
    syncBody && typeof syncBody === 'object' && 'detail' in syncBody && typeof syncBody.detail === 'string'
      ? syncBody.detail
      : null;
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Text as="h2" fontWeight="semibold">
          {t('configuration:sync')}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {t('configuration:syncIntro')}
        </Text>
        <Button
          alignSelf="flex-start"
          size="sm"
          colorPalette="blue"
          loading={sync.isPending}
          onClick={() => sync.mutate()}
          {...serverAction}
        >
          {t('configuration:sync')}
        </Button>
        {sync.data ? (
          <StatusAlert status="success">
            <span data-testid="sync-result">
              {t('configuration:synced', {
                count: sync.data.synchronized,
                added: sync.data.added,
                removed: sync.data.removed,
              })}
            </span>
          </StatusAlert>
        ) : null}
        {sync.error && microsoft365FailureOf(sync.error) ? (
          <M365FailureAlert title={t('configuration:syncFailed')} error={sync.error} />
        ) : sync.error ? (
          <StatusAlert status="error">
            <Stack gap="1">
              <span data-testid="sync-failed">{t('configuration:syncFailed')}</span>
              {syncDetail ? (
                <Text fontSize="sm" data-testid="sync-detail">
                  {syncDetail}
                </Text>
              ) : null}
            </Stack>
          </StatusAlert>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The users tab: the organisation's portal users (which need no tenant: a new organisation invites
 * its people first) and the tenant's user synchronisation.
 */
export function UsersSection({ organisationId }: { organisationId: string }) {
  return (
    <Stack gap="5">
      <PortalUsers organisationId={organisationId} />
      <RequireTenant>{(tenantId) => <UserSync tenantId={tenantId} />}</RequireTenant>
    </Stack>
  );
}
