import type { Microsoft365Failure, MissingPermission, ProvisioningTask, Tenant } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/ui/toaster';
import { useOrganisationChanged } from '../../session/context';
import { useApi } from '../../shared/tenant';
import { useUrlListState } from '../../shared/url-state';
import { configurationKeys } from './api/keys';
import { tenantsQuery } from './api/queries';

/** The tenant list's defaults: by name, ten a page (its page and page size are in the address). */
const TENANTS_LIST = { sort: 'tenantName', pageSize: 10 } as const;

/** What a tenant's row can do. */
export type TenantActionKind = 'switch' | 'provision' | 'deprovision' | 'remove' | 'test';

/** An action that asks first: removing or deprovisioning a tenant. */
export type Pending = { tenant: Tenant; action: 'remove' | 'deprovision' } | null;

/** The outcome of the last connection test. */
export interface TestOutcome {
  ok: boolean;
  text: string;
  name: string;
  missing: MissingPermission[];
  /** Why it failed: the cause and Microsoft's details. */
  failure?: Microsoft365Failure;
}

/**
 * The tenants tab's state: the organisation's tenants and the list's page, the form and the
 * confirmation open, the provisioning tasks followed, the last connection test and the row actions.
 */
export function useTenantsState(organisationId: string) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [list, setList] = useUrlListState('/_app/_worker/configuration', TENANTS_LIST);
  const [editing, setEditing] = useState<Tenant | 'new' | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [tasks, setTasks] = useState<{ task: ProvisioningTask; name: string }[]>([]);
  const [tested, setTested] = useState<TestOutcome | null>(null);
  const tenants = useQuery(tenantsQuery(api));
  const organisationChanged = useOrganisationChanged();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
  const action = useMutation({
    mutationFn: async ({ tenant, kind }: { tenant: Tenant; kind: TenantActionKind }) => {
      const tenantId = tenant.tenantId;
      // Failures are shown next to the action, not in a toast as well.
      const quiet = { disableToast: true };
      if (kind === 'switch') await api.apollo.configuration.switchTenant({ body: { tenantId } }, quiet);
      else if (kind === 'remove') await api.apollo.tenants.delete({ tenantId }, quiet);
      else if (kind === 'test') {
        const result = await api.apollo.configuration.testOnedriveConnection({ body: { tenantId } }, quiet);
        setTested({
          ok: result.ok,
          text: result.ok
            ? t('configuration:testOk', { name: tenant.tenantName, ms: result.latencyMs })
            : t('configuration:testFailed', { name: tenant.tenantName, reason: result.message ?? '' }),
          name: tenant.tenantName,
          missing: result.missingPermissions ?? [],
          ...(result.failure ? { failure: result.failure } : {}),
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
      // The worker acts for the organisation's active tenant: switching or removing one may change it,
      // and testing it may read its domain anew, which the header shows.
      if (kind === 'switch' || kind === 'remove' || (kind === 'test' && tenant.isActive)) organisationChanged();
      if (kind === 'switch') showToast('success', t('configuration:switched', { name: tenant.tenantName }));
      if (kind === 'remove') showToast('success', t('configuration:removed', { name: tenant.tenantName }));
      refresh();
    },
  });
  // The tenants of the organisation only; the list is paged here, not by the server.
  const rows = (tenants.data ?? []).filter((x) => x.organisationId === organisationId);
  const page = tenants.data ? rows.slice((list.page - 1) * list.pageSize, list.page * list.pageSize) : undefined;
  return {
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
  };
}
