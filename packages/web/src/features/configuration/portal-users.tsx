import { Badge, Button, Card, chakra, Stack, Text } from '@chakra-ui/react';
import { type PortalUser, USER_STATUSES, type UserStatus } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatDateTime } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { actionState, type RowActions } from '../../components/ui/row-actions';
import { showToast } from '../../components/ui/toaster';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { useApi } from '../../shared/tenant';
import { useResendInvitation, useSetActive } from './api/mutations';
import { fetchPortalUsersPage, portalUsersListQuery, portalUsersQuery } from './api/queries';
import { DeactivateUserDialog, DeleteUserDialog, failureOf, InviteUserDialog, RoleDialog } from './user-dialogs';

const STATUS_COLOURS: Record<UserStatus, string> = { invited: 'blue', active: 'green', deactivated: 'gray' };

/** What a dialog of the list is open for. */
type Open = { kind: 'invite' } | { kind: 'role' | 'deactivate' | 'delete'; user: PortalUser } | null;

/**
 * The organisation's portal users, searched, filtered by state, sorted and paged on the server and
 * exported: name, address, role (with the eDiscovery manager role), two-factor sign-in, last sign-in
 * and state. Invite one; per user change the role, send the invitation again, deactivate or
 * reactivate, delete. The caller's own account cannot be deactivated or deleted, nor (the server
 * says so) the organisation's last active administrator.
 */
export function PortalUsers({ organisationId }: { organisationId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const serverAction = useServerAction();
  const { context } = useSession();
  const ownEmail = context.user?.user.email?.toLowerCase();
  const [state, setState] = useListState({ pageSize: 10, sort: 'displayName' });
  const [status, setStatus] = useState<UserStatus | ''>('');
  const list = useQuery(portalUsersQuery(api, organisationId, state, status));
  const [open, setOpen] = useState<Open>(null);
  const setActive = useSetActive(api, organisationId);
  const resend = useResendInvitation(api, organisationId);
  const close = () => setOpen(null);

  const roleText = (u: PortalUser) => t(`userAdmin:roles.${u.role}`);
  const statusText = (u: PortalUser) => t(`userAdmin:statuses.${u.status}`);
  const lastSignIn = (u: PortalUser) => (u.lastSignInAt ? formatDateTime(u.lastSignInAt, lang) : t('userAdmin:never'));
  const isOwn = (u: PortalUser) => u.email.toLowerCase() === ownEmail;

  const reactivate = (user: PortalUser) =>
    setActive.mutate(
      { user, active: true },
      {
        onSuccess: () => showToast('success', t('userAdmin:reactivated', { name: user.displayName })),
        onError: () => showToast('error', t('userAdmin:actionFailed')),
      },
    );
  const sendAgain = (user: PortalUser) =>
    resend.mutate(user, {
      onSuccess: () => showToast('success', t('userAdmin:resent', { email: user.email })),
      onError: (error) => showToast('error', failureOf(t, error)),
    });

  const columns: Column<PortalUser>[] = [
    {
      key: 'displayName',
      header: t('userAdmin:columns.name'),
      cell: (u) => (
        <Stack gap="0">
          <Text fontWeight="medium">
            {u.displayName}
            {isOwn(u) ? (
              <Text as="span" color="fg.muted" fontWeight="normal">
                {` (${t('userAdmin:you')})`}
              </Text>
            ) : null}
          </Text>
        </Stack>
      ),
      sortable: true,
    },
    {
      key: 'email',
      header: t('userAdmin:columns.email'),
      cell: (u) => <chakra.span wordBreak="break-all">{u.email}</chakra.span>,
      sortable: true,
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'role',
      header: t('userAdmin:columns.role'),
      cell: (u) => (
        <Stack gap="1" align="flex-start">
          <Text>{roleText(u)}</Text>
          {u.ediscoveryManager ? (
            <Badge colorPalette="purple" variant="subtle">
              {t('userAdmin:ediscoveryManager')}
            </Badge>
          ) : null}
        </Stack>
      ),
      sortable: true,
      hideBelow: 'lg',
    },
    {
      key: 'twoFactorEnabled',
      header: t('userAdmin:columns.twoFactor'),
      cell: (u) =>
        u.twoFactorEnabled ? (
          <Badge colorPalette="green">{t('userAdmin:twoFactorOn')}</Badge>
        ) : (
          <Badge colorPalette="gray">{t('userAdmin:twoFactorOff')}</Badge>
        ),
      sortable: true,
      hideBelow: 'lg',
    },
    {
      key: 'lastSignInAt',
      header: t('userAdmin:columns.lastSignIn'),
      cell: (u) => lastSignIn(u),
      sortable: true,
      hideBelow: 'md',
    },
    {
      key: 'status',
      header: t('userAdmin:columns.status'),
      cell: (u) => (
        <Badge colorPalette={STATUS_COLOURS[u.status]} variant="subtle">
          {statusText(u)}
        </Badge>
      ),
      sortable: true,
      hideBelow: 'sm',
      stack: true,
    },
  ];

  // One's own account is neither deactivated nor deleted here: the actions say why.
  const notOwn = (u: PortalUser) =>
    actionState(serverAction, { disabled: isOwn(u), reason: t('userAdmin:notForYourself') });
  const rowActions: RowActions<PortalUser> = {
    header: t('userAdmin:columns.actions'),
    rowLabel: (u) => u.displayName,
    actions: (u) => [
      {
        key: 'role',
        label: t('userAdmin:actions.changeRole'),
        onSelect: () => setOpen({ kind: 'role', user: u }),
        ...actionState(serverAction),
      },
      ...(u.status === 'invited'
        ? [
            {
              key: 'resend',
              label: t('userAdmin:actions.resend'),
              loading: resend.isPending && resend.variables?.userId === u.userId,
              onSelect: () => sendAgain(u),
              ...actionState(serverAction),
            },
          ]
        : []),
      u.status === 'deactivated'
        ? {
            key: 'reactivate',
            label: t('userAdmin:actions.reactivate'),
            loading: setActive.isPending && setActive.variables?.user.userId === u.userId,
            onSelect: () => reactivate(u),
            ...actionState(serverAction),
          }
        : {
            key: 'deactivate',
            label: t('userAdmin:actions.deactivate'),
            onSelect: () => setOpen({ kind: 'deactivate', user: u }),
            ...notOwn(u),
          },
      {
        key: 'delete',
        label: t('userAdmin:actions.delete'),
        palette: 'red',
        onSelect: () => setOpen({ kind: 'delete', user: u }),
        ...notOwn(u),
      },
    ],
  };

  const exportColumns: ExportColumn<PortalUser>[] = [
    { header: t('userAdmin:columns.name'), value: (u) => u.displayName },
    { header: t('userAdmin:columns.email'), value: (u) => u.email },
    {
      header: t('userAdmin:columns.role'),
      value: (u) => (u.ediscoveryManager ? `${roleText(u)}, ${t('userAdmin:ediscoveryManager')}` : roleText(u)),
    },
    {
      header: t('userAdmin:columns.twoFactor'),
      value: (u) => (u.twoFactorEnabled ? t('userAdmin:twoFactorOn') : t('userAdmin:twoFactorOff')),
    },
    { header: t('userAdmin:columns.lastSignIn'), value: (u) => u.lastSignInAt ?? '' },
    { header: t('userAdmin:columns.status'), value: statusText },
  ];

  return (
    // On a phone the list is not framed, as the portal's other lists are: the table and its buttons
    // (the export buttons' German labels above all) need the width.
    <Card.Root as="section" aria-labelledby="portal-users-title" borderWidth={{ base: '0', sm: '1px' }}>
      <Card.Body gap="3" p={{ base: '0', sm: '6' }}>
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ sm: 'flex-start' }} gap="3">
          <Stack gap="1">
            <Text as="h2" id="portal-users-title" fontWeight="semibold">
              {t('userAdmin:title')}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {t('userAdmin:intro')}
            </Text>
          </Stack>
          <Button
            size="sm"
            colorPalette="blue"
            flexShrink={0}
            onClick={() => setOpen({ kind: 'invite' })}
            {...serverAction}
          >
            {t('userAdmin:invite')}
          </Button>
        </Stack>
        <QueryDataTable
          query={list}
          label={t('userAdmin:title')}
          columns={columns}
          rowActions={rowActions}
          rowKey={(u) => u.userId}
          state={state}
          onStateChange={setState}
          emptyText={t('userAdmin:empty')}
          errorText={t('userAdmin:failed')}
          searchPlaceholder={t('userAdmin:search')}
          toolbar={
            <>
              <FilterSelect
                label={t('userAdmin:statusFilter')}
                value={status}
                all={t('userAdmin:allStatuses')}
                options={USER_STATUSES.map((s) => ({ value: s, label: t(`userAdmin:statuses.${s}`) }))}
                onChange={(next) => {
                  setStatus(next);
                  setState({ page: 1 });
                }}
              />
              <ExportButtons
                title={t('userAdmin:export')}
                columns={exportColumns}
                fetchPage={({ page, pageSize }) =>
                  fetchPortalUsersPage(api, portalUsersListQuery(organisationId, { ...state, page, pageSize }, status))
                }
              />
            </>
          }
        />
        {open?.kind === 'invite' ? <InviteUserDialog organisationId={organisationId} onClose={close} /> : null}
        {open?.kind === 'role' ? <RoleDialog organisationId={organisationId} user={open.user} onClose={close} /> : null}
        {open?.kind === 'deactivate' ? (
          <DeactivateUserDialog organisationId={organisationId} user={open.user} onClose={close} />
        ) : null}
        {open?.kind === 'delete' ? (
          <DeleteUserDialog organisationId={organisationId} user={open.user} onClose={close} />
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}
