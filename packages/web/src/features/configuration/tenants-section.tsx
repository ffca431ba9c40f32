import { Badge, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { ApiError, type MissingPermission, type ProvisioningTask, type Tenant } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FormDialog } from '../../components/ui/form-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { useListState } from '../../components/ui/list-state';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import type { en } from '../../i18n/en';
import { useServerAction } from '../../offline/online';
import { readWorker, storeWorker } from '../../session/storage';
import { useApi } from '../../shared/tenant';
import { MissingPermissions } from './missing-permissions';

/** A Microsoft Entra ID (application, tenant, object): 00000000-0000-0000-0000-000000000000. */
const GUID = /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/** An action with a failure text of its own (`configuration:failures.<action>`). */
type FailureAction = keyof (typeof en)['configuration']['failures'];

/** The message of a failed call: the catalogue's text under the action's own failure. */
export function useFailure() {
  const { t } = useTranslation();
  return (error: unknown, action: FailureAction) =>
    error
      ? `${t(`configuration:failures.${action}`)}${error instanceof ApiError ? ` ${t(`apiErrors:${error.messageKey}`)}` : ''}`
      : null;
}

function TenantForm({
  tenant,
  organisationId,
  onClose,
}: {
  tenant?: Tenant;
  organisationId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const failure = useFailure();
  const [touched, setTouched] = useState(false);
  const [values, setValues] = useState({
    tenantName: tenant?.tenantName ?? '',
    applicationId: tenant?.applicationId ?? '',
    clientSecret: '',
    tenantId: tenant?.tenantId ?? '',
    objectId: tenant?.objectId ?? '',
    redirectUri: tenant?.redirectUri ?? '',
    organisationId: tenant?.organisationId ?? organisationId,
  });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  const check = useValidator();
  const guid = (value: string) => check(value, rules.required(), rules.pattern(GUID));
  const errors = {
    tenantName: check(values.tenantName, rules.required(), rules.maxLength(120)),
    applicationId: guid(values.applicationId),
    // Editing keeps the stored secret unless a new one is typed.
    clientSecret: tenant ? null : check(values.clientSecret, rules.required()),
    tenantId: guid(values.tenantId),
    objectId: guid(values.objectId),
    redirectUri: check(values.redirectUri, rules.required(), rules.url()),
    organisationId: check(values.organisationId, rules.required()),
  };
  const save = useMutation({
    mutationFn: () => {
      const v = Object.fromEntries(Object.entries(values).map(([k, x]) => [k, x.trim()])) as typeof values;
      return tenant
        ? api.apollo.tenants.update(
            {
              tenantId: tenant.tenantId,
              body: {
                tenantName: v.tenantName,
                applicationId: v.applicationId,
                objectId: v.objectId,
                redirectUri: v.redirectUri,
                ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}),
              },
            },
            { disableToast: true },
          )
        : api.apollo.tenants.create({ body: v }, { disableToast: true });
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['tenants'] });
      showToast('success', t('configuration:created', { name: saved.tenantName }));
      onClose();
    },
  });
  const field = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={set(key)}
      error={errors[key]}
      showError={touched}
      {...extra}
    />
  );
  return (
    <FormDialog
      title={t(tenant ? 'configuration:editTenant' : 'configuration:createTenant')}
      formId="tenant-form"
      onSubmit={() => {
        setTouched(true);
        if (Object.values(errors).every((e) => e === null)) save.mutate();
      }}
      submitLabel={t('common:save')}
      pending={save.isPending}
      onClose={onClose}
    >
      <Stack gap="4">
        {field('tenantName', t('configuration:tenantName'), { maxLength: 120 })}
        {field('applicationId', t('configuration:applicationId'))}
        {field('clientSecret', t(tenant ? 'configuration:clientSecretKeep' : 'configuration:clientSecret'), {
          type: 'password',
          autoComplete: 'new-password',
          required: !tenant,
        })}
        {field('tenantId', t('configuration:tenantId'), { disabled: !!tenant })}
        {field('objectId', t('configuration:objectId'))}
        {field('redirectUri', t('configuration:redirectUri'), { type: 'url' })}
        {field('organisationId', t('configuration:organisationId'), { disabled: !!tenant })}
        {save.error ? (
          <StatusAlert status="error">{failure(save.error, tenant ? 'update' : 'create')}</StatusAlert>
        ) : null}
      </Stack>
    </FormDialog>
  );
}

/** Follows a provisioning task until it ends, with its progress. */
function TaskProgress({ task, name, onEnd }: { task: ProvisioningTask; name: string; onEnd: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const ended = useRef(false);
  const status = useQuery({
    // Not under ['tenants']: the tenant list refreshed at the end must not fetch the task again.
    queryKey: ['provisioning-task', task.tenantId, task.taskId],
    queryFn: async ({ signal }) => {
      const now = await api.apollo.tenants.task({ tenantId: task.tenantId, taskId: task.taskId }, { signal });
      if ((now.status === 'succeeded' || now.status === 'failed') && !ended.current) {
        ended.current = true;
        onEnd();
      }
      return now;
    },
    initialData: task,
    refetchInterval: (q) => (q.state.data?.status === 'succeeded' || q.state.data?.status === 'failed' ? false : 1000),
  });
  const s = status.data;
  const label = t('configuration:taskTitle', { kind: t(`configuration:taskKinds.${s.kind}`), name });
  return (
    <Stack gap="1" borderWidth="1px" borderRadius="md" p="3" data-testid="task-progress" aria-live="polite">
      <Text fontWeight="medium">{label}</Text>
      <Progress.Root value={s.progress} colorPalette={s.status === 'failed' ? 'red' : 'blue'} size="sm">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
        <Progress.Label srOnly>{label}</Progress.Label>
      </Progress.Root>
      <Text fontSize="sm" data-testid="task-status">
        {t(`configuration:taskStatus.${s.status}`)} · {s.progress} %{s.message ? ` · ${s.message}` : ''}
      </Text>
    </Stack>
  );
}

type Pending = { tenant: Tenant; action: 'remove' | 'deprovision' } | null;

export function TenantsSection({ organisationId }: { organisationId: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const failure = useFailure();
  const [state, setState] = useListState({ sort: 'tenantName', pageSize: 10 });
  const [editing, setEditing] = useState<Tenant | 'new' | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [tasks, setTasks] = useState<{ task: ProvisioningTask; name: string }[]>([]);
  const [tested, setTested] = useState<{
    ok: boolean;
    text: string;
    name: string;
    missing: MissingPermission[];
  } | null>(null);
  const serverAction = useServerAction();
  const tenants = useQuery({
    queryKey: ['tenants'],
    queryFn: ({ signal }) => api.apollo.tenants.list(undefined, { signal }),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['tenants'] });
  const action = useMutation({
    mutationFn: async ({
      tenant,
      kind,
    }: {
      tenant: Tenant;
      kind: 'switch' | 'provision' | 'deprovision' | 'remove' | 'test';
    }) => {
      const tenantId = tenant.tenantId;
      // Failures are shown next to the action, not in a toast as well.
      const quiet = { disableToast: true };
      if (kind === 'switch') {
        await api.apollo.configuration.switchTenant({ body: { tenantId } }, quiet);
        // The worker now acts for this tenant: every tenant-scoped page follows it.
        const worker = readWorker();
        if (worker)
          storeWorker({
            ...worker,
            stagingtenant_id: tenantId,
            cloud_portal_license: worker.cloud_portal_license === 'trial' ? 'trial' : 'full',
          });
      } else if (kind === 'remove') await api.apollo.tenants.delete({ tenantId }, quiet);
      else if (kind === 'test') {
        const result = await api.apollo.configuration.testOnedriveConnection({ body: { tenantId } }, quiet);
        setTested({
          ok: result.ok,
          text: result.ok
            ? t('configuration:testOk', { name: tenant.tenantName, ms: result.latencyMs })
            : t('configuration:testFailed', { name: tenant.tenantName, reason: result.message ?? '' }),
          name: tenant.tenantName,
          missing: result.missingPermissions ?? [],
        });
      } else {
        const task =
          kind === 'provision'
            ? await api.apollo.tenants.provision({ tenantId }, quiet)
            : await api.apollo.tenants.deprovision({ tenantId }, quiet);
        setTasks((list) => [...list.filter((x) => x.task.tenantId !== tenantId), { task, name: tenant.tenantName }]);
      }
      return { tenant, kind };
    },
    onSuccess: ({ tenant, kind }) => {
      setPending(null);
      if (kind === 'switch') showToast('success', t('configuration:switched', { name: tenant.tenantName }));
      if (kind === 'remove') showToast('success', t('configuration:removed', { name: tenant.tenantName }));
      refresh();
    },
  });
  const rows = (tenants.data ?? []).filter((x) => x.organisationId === organisationId);
  const columns: Column<Tenant>[] = [
    {
      key: 'tenantName',
      header: t('configuration:tenantName'),
      cell: (x) => (
        <HStack gap="2" wrap="wrap">
          <Text>{x.tenantName}</Text>
          {x.isActive ? <Badge colorPalette="green">{t('configuration:active')}</Badge> : null}
        </HStack>
      ),
    },
    { key: 'tenantId', header: t('configuration:tenantId'), cell: (x) => x.tenantId, hideBelow: 'lg' },
    {
      key: 'provisioning',
      header: t('configuration:state'),
      cell: (x) => t(`configuration:states.${x.provisioning}`),
      hideBelow: 'sm',
    },
    {
      key: 'actions',
      header: '',
      align: 'end',
      cell: (x) => (
        <HStack
          gap="1"
          wrap="wrap"
          justify="flex-end"
          role="group"
          aria-label={t('configuration:actionsFor', { name: x.tenantName })}
        >
          {!x.isActive ? (
            <Button
              size="xs"
              variant="outline"
              onClick={() => action.mutate({ tenant: x, kind: 'switch' })}
              {...serverAction}
            >
              {t('configuration:switch')}
            </Button>
          ) : null}
          {x.provisioning === 'provisioned' ? (
            <Button
              size="xs"
              variant="outline"
              onClick={() => setPending({ tenant: x, action: 'deprovision' })}
              {...serverAction}
            >
              {t('configuration:deprovision')}
            </Button>
          ) : (
            <Button
              size="xs"
              variant="outline"
              onClick={() => action.mutate({ tenant: x, kind: 'provision' })}
              {...serverAction}
              disabled={
                serverAction.disabled || x.provisioning === 'provisioning' || x.provisioning === 'deprovisioning'
              }
            >
              {t('configuration:provision')}
            </Button>
          )}
          <Button
            size="xs"
            variant="outline"
            onClick={() => action.mutate({ tenant: x, kind: 'test' })}
            {...serverAction}
          >
            {t('configuration:test')}
          </Button>
          <Button size="xs" variant="ghost" onClick={() => setEditing(x)} {...serverAction}>
            {t('configuration:edit')}
          </Button>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            onClick={() => setPending({ tenant: x, action: 'remove' })}
            {...serverAction}
          >
            {t('configuration:remove')}
          </Button>
        </HStack>
      ),
    },
  ];
  return (
    <Stack gap="4">
      <DataTable
        label={t('configuration:tenants')}
        columns={columns}
        rows={tenants.data ? rows.slice((state.page - 1) * state.pageSize, state.page * state.pageSize) : undefined}
        total={rows.length}
        rowKey={(x) => x.tenantId}
        state={state}
        onStateChange={setState}
        loading={tenants.isFetching}
        error={tenants.error}
        errorText={t('configuration:failed')}
        onRetry={() => tenants.refetch()}
        emptyText={t('configuration:noTenants')}
        toolbar={
          <Button size="sm" colorPalette="blue" onClick={() => setEditing('new')} {...serverAction}>
            {t('configuration:addTenant')}
          </Button>
        }
      />
      {tasks.map(({ task, name }) => (
        <TaskProgress key={task.taskId} task={task} name={name} onEnd={refresh} />
      ))}
      {tested ? (
        <StatusAlert status={tested.ok ? 'success' : 'error'}>
          <span data-testid="connection-result">{tested.text}</span>
        </StatusAlert>
      ) : null}
      {tested && tested.missing.length > 0 ? <MissingPermissions name={tested.name} missing={tested.missing} /> : null}
      {action.error && !pending ? (
        <StatusAlert status="error">{failure(action.error, action.variables?.kind ?? 'update')}</StatusAlert>
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
          <Text>
            {t(pending?.action === 'remove' ? 'configuration:removeTenantText' : 'configuration:deprovisionText', {
              name: pending?.tenant.tenantName ?? '',
            })}
          </Text>
          {action.error && pending ? (
            <StatusAlert status="error">{failure(action.error, pending.action)}</StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}
