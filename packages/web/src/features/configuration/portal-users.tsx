import { Badge, Card, Stack, Switch, Text } from '@chakra-ui/react';
import type { PortalUser } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { Column } from '../../components/ui/data-table';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDate } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { useOnline } from '../../offline/online';
import { useApi } from '../../shared/tenant';
import { configurationKeys } from './api/keys';
import { portalUsersQuery } from './api/queries';

/**
 * The organisation's portal users, searched, sorted and paged on the server, with the eDiscovery
 * manager role (who places and releases legal holds) given and taken by a switch, after a
 * confirmation.
 */
export function PortalUsers({ organisationId }: { organisationId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const online = useOnline();
  const queryClient = useQueryClient();
  const [state, setState] = useListState({ pageSize: 10, sort: 'displayName' });
  const list = useQuery(portalUsersQuery(api, organisationId, state));
  const [changing, setChanging] = useState<{ user: PortalUser; manager: boolean } | null>(null);
  // A switch flips as it is clicked; until the change is confirmed and stored it is put back (made anew).
  const [shown, setShown] = useState(0);
  const close = () => {
    setChanging(null);
    setShown((n) => n + 1);
  };
  const change = useMutation({
    mutationFn: ({ user, manager }: { user: PortalUser; manager: boolean }) =>
      manager
        ? api.legacy.user.grantEdiscoveryManager({ userId: user.userId }, { disableToast: true })
        : api.legacy.user.revokeEdiscoveryManager({ userId: user.userId }, { disableToast: true }),
    onSuccess: (user) => {
      close();
      showToast(
        'success',
        t(user.ediscoveryManager ? 'configuration:usersList.granted' : 'configuration:usersList.revoked', {
          name: user.displayName,
        }),
      );
      void queryClient.invalidateQueries({ queryKey: configurationKeys.users(organisationId) });
    },
  });
  const columns: Column<PortalUser>[] = [
    { key: 'displayName', header: t('configuration:displayName'), cell: (u) => u.displayName, sortable: true },
    { key: 'email', header: t('configuration:email'), cell: (u) => u.email, sortable: true, hideBelow: 'md' },
    {
      key: 'role',
      header: t('configuration:usersList.role'),
      cell: (u) => t(`configuration:usersList.roles.${u.role}`),
      sortable: true,
      hideBelow: 'lg',
    },
    {
      key: 'twoFactorEnabled',
      header: t('configuration:usersList.twoFactor'),
      cell: (u) =>
        u.twoFactorEnabled ? (
          <Badge colorPalette="green">{t('configuration:usersList.twoFactorOn')}</Badge>
        ) : (
          <Badge colorPalette="gray">{t('configuration:usersList.twoFactorOff')}</Badge>
        ),
      sortable: true,
      hideBelow: 'md',
    },
    {
      key: 'ediscoveryManager',
      header: t('configuration:usersList.manager'),
      cell: (u) => (
        <Switch.Root
          key={`${u.ediscoveryManager}-${shown}`}
          size="sm"
          colorPalette="blue"
          checked={u.ediscoveryManager}
          disabled={!online}
          onCheckedChange={(e) => setChanging({ user: u, manager: e.checked })}
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label srOnly>{t('configuration:usersList.managerLabel', { name: u.displayName })}</Switch.Label>
        </Switch.Root>
      ),
      sortable: true,
    },
    {
      key: 'createdAt',
      header: t('configuration:usersList.created'),
      cell: (u) => formatDate(u.createdAt, i18n.language),
      sortable: true,
      hideBelow: 'lg',
    },
  ];
  const target = changing?.user.displayName ?? '';
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Stack gap="1">
          <Text as="h2" fontWeight="semibold">
            {t('configuration:usersList.title')}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {t('configuration:usersList.intro')}
          </Text>
        </Stack>
        <QueryDataTable
          query={list}
          label={t('configuration:usersList.title')}
          columns={columns}
          rowKey={(u) => u.userId}
          state={state}
          onStateChange={setState}
          emptyText={t('configuration:usersList.empty')}
          errorText={t('configuration:usersList.failed')}
          searchPlaceholder={t('configuration:usersList.search')}
        />
        <ConfirmDialog
          open={!!changing}
          title={
            changing?.manager
              ? t('configuration:usersList.grantTitle', { name: target })
              : t('configuration:usersList.revokeTitle', { name: target })
          }
          confirmLabel={changing?.manager ? t('configuration:usersList.grant') : t('configuration:usersList.revoke')}
          destructive={!changing?.manager}
          pending={change.isPending}
          onConfirm={() => changing && change.mutate(changing)}
          onCancel={() => {
            close();
            change.reset();
          }}
        >
          <Stack gap="3">
            <Text>
              {changing?.manager ? t('configuration:usersList.grantText') : t('configuration:usersList.revokeText')}
            </Text>
            {change.error ? (
              <StatusAlert status="error">
                {failureText(t, t('configuration:usersList.changeFailed'), change.error)}
              </StatusAlert>
            ) : null}
          </Stack>
        </ConfirmDialog>
      </Card.Body>
    </Card.Root>
  );
}
