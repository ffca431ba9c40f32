import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { Tenant } from '@compliance-portal/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CopyId } from '../../components/ui/copy-id';
import { type Column, DataTable } from '../../components/ui/data-table';
import { StatusAlert } from '../../components/ui/form-field';
import { actionState, type RowActions } from '../../components/ui/row-actions';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { ConsentDialog } from './consent-dialog';
import { MissingPermissions } from './missing-permissions';
import { TaskProgress } from './task-progress';
import { TenantForm } from './tenant-form';
import { TenantRemovalText } from './tenant-removal';
import { useFailure } from './use-failure';
import { useTenantsState } from './use-tenants-state';

/** The organisation's tenants: connect, edit, provision, test, make active and remove them. */
export function TenantsSection({ organisationId }: { organisationId: string }) {
  const { t } = useTranslation();
  const failure = useFailure();
  const serverAction = useServerAction();
  const {
    tenants,
    rows,
    page,
    list,
    setList,
    editing,
    setEditing,
    pending,
    setPending,
    tasks,
    tested,
    action,
    refresh,
  } = useTenantsState(organisationId);
  // Admin consent: for a new tenant (no tenant), or again for a connected one.
  const [consent, setConsent] = useState<{ tenant?: Tenant } | null>(null);
  const busy = (x: Tenant) => x.provisioning === 'provisioning' || x.provisioning === 'deprovisioning';
  const rowActions: RowActions<Tenant> = {
    header: t('table:actions'),
    rowLabel: (x) => x.tenantName,
    actions: (x) => [
      ...(!x.isActive
        ? [
            {
              key: 'switch',
              label: t('configuration:switch'),
              onSelect: () => action.mutate({ tenant: x, kind: 'switch' }),
              ...actionState(serverAction),
            },
          ]
        : []),
      // First (a button even where the row folds the rest into More): switching to the tenant, else testing it.
      {
        key: 'test',
        label: t('configuration:test'),
        onSelect: () => action.mutate({ tenant: x, kind: 'test' }),
        ...actionState(serverAction),
      },
      x.provisioning === 'provisioned'
        ? {
            key: 'deprovision',
            label: t('configuration:deprovisionTrigger'),
            onSelect: () => setPending({ tenant: x, action: 'deprovision' }),
            ...actionState(serverAction),
          }
        : {
            key: 'provision',
            label: t('configuration:provision'),
            onSelect: () => action.mutate({ tenant: x, kind: 'provision' }),
            ...actionState(serverAction, { disabled: busy(x) }),
          },
      {
        key: 'consent',
        label: t('tenantConnection:grantConsent'),
        onSelect: () => setConsent({ tenant: x }),
        ...actionState(serverAction),
      },
      {
        key: 'edit',
        label: t('configuration:edit'),
        quiet: true,
        onSelect: () => setEditing(x),
        ...actionState(serverAction),
      },
      {
        key: 'remove',
        label: t('configuration:removeTrigger'),
        quiet: true,
        palette: 'red',
        onSelect: () => setPending({ tenant: x, action: 'remove' }),
        ...actionState(serverAction),
      },
    ],
  };
  const columns: Column<Tenant>[] = [
    {
      key: 'tenantName',
      header: t('configuration:tenantName'),
      cell: (x) => (
        <HStack gap="2" wrap="wrap">
          <Text overflowWrap="anywhere">{x.tenantName}</Text>
          {x.isActive ? <Badge colorPalette="green">{t('configuration:active')}</Badge> : null}
        </HStack>
      ),
    },
    {
      key: 'tenantId',
      header: t('configuration:tenantId'),
      // The ID on demand, for Microsoft's support or the Entra admin centre; the name says which tenant.
      cell: (x) => <CopyId value={x.tenantId} what={`${t('configuration:tenantId')} ${x.tenantName}`} />,
      hideBelow: 'lg',
    },
    {
      key: 'provisioning',
      header: t('configuration:state'),
      cell: (x) => t(`configuration:states.${x.provisioning}`),
      hideBelow: 'sm',
    },
  ];
  return (
    <Stack gap="4">
      <DataTable
        label={t('configuration:tenants')}
        columns={columns}
        rowActions={rowActions}
        rows={page}
        total={rows.length}
        rowKey={(x) => x.tenantId}
        state={list}
        onStateChange={setList}
        loading={tenants.isFetching}
        error={tenants.error}
        errorText={t('configuration:failed')}
        onRetry={() => tenants.refetch()}
        emptyText={t('configuration:noTenants')}
        toolbar={
          <>
            <Button size="sm" colorPalette="blue" onClick={() => setConsent({})} {...serverAction}>
              {t('tenantConnection:connect')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setEditing('new')} {...serverAction}>
              {t('configuration:addTenant')}
            </Button>
          </>
        }
      />
      {tasks.map(({ task, name }) => (
        <TaskProgress key={task.taskId} task={task} name={name} onEnd={refresh} />
      ))}
      {tested?.failure ? (
        <M365FailureAlert title={t('m365:connectionFailed', { name: tested.name })} failure={tested.failure} />
      ) : tested ? (
        <StatusAlert status={tested.ok ? 'success' : 'error'}>
          <span data-testid="connection-result">{tested.text}</span>
        </StatusAlert>
      ) : null}
      {tested && tested.missing.length > 0 ? <MissingPermissions name={tested.name} missing={tested.missing} /> : null}
      {action.error && !pending ? (
        <StatusAlert status="error">{failure(action.error, action.variables?.kind ?? 'update')}</StatusAlert>
      ) : null}
      {consent ? (
        <ConsentDialog
          organisationId={organisationId}
          {...(consent.tenant ? { tenant: consent.tenant } : {})}
          onManual={() => {
            setConsent(null);
            setEditing('new');
          }}
          onClose={() => setConsent(null)}
        />
      ) : null}
      {editing ? (
        <TenantForm
          {...(editing === 'new' ? {} : { tenant: editing })}
          organisationId={organisationId}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={!!pending}
        title={t(pending?.action === 'remove' ? 'configuration:removeTenantTitle' : 'configuration:deprovisionTitle')}
        confirmLabel={t(pending?.action === 'remove' ? 'configuration:remove' : 'configuration:deprovision')}
        destructive
        pending={action.isPending}
        onConfirm={() => pending && action.mutate({ tenant: pending.tenant, kind: pending.action })}
        onCancel={() => {
          setPending(null);
          action.reset();
        }}
      >
        <Stack gap="2">
          {pending?.action === 'remove' ? (
            <TenantRemovalText tenant={pending.tenant} othersLeft={rows.length > 1} />
          ) : (
            <Text>{t('configuration:deprovisionText', { name: pending?.tenant.tenantName ?? '' })}</Text>
          )}
          {action.error && pending ? (
            <StatusAlert status="error">{failure(action.error, pending.action)}</StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}
