import type { Microsoft365Failure, MissingPermission, ProvisioningTask, Tenant } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/ui/toaster';
import { useApi } from '../../shared/tenant';
import { useUrlListState } from '../../shared/url-state';
import { useProvisioningEnded, useTenantAction } from './api/mutations';
import { tenantsQuery } from './api/queries';

/** The tenant list's defaults: by name, ten a page (its page and page size are in the address). */
const TENANTS_LIST = { sort: 'tenantName', pageSize: 10 } as const;

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
  const [list, setList] = useUrlListState('/_app/_worker/configuration', TENANTS_LIST);
  const [editing, setEditing] = useState<Tenant | 'new' | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [tasks, setTasks] = useState<{ task: ProvisioningTask; name: string }[]>([]);
  const [tested, setTested] = useState<TestOutcome | null>(null);
  const tenants = useQuery(tenantsQuery(api));
  const refresh = useProvisioningEnded();
  const action = useTenantAction((outcome) => {
    const { tenant, kind } = outcome;
    if (outcome.kind === 'test') {
      const { result } = outcome;
      setTested({
        ok: result.ok,
        text: result.ok
          ? t('configuration:testOk', { name: tenant.tenantName, ms: result.latencyMs })
          : t('configuration:testFailed', { name: tenant.tenantName, reason: result.message ?? '' }),
        name: tenant.tenantName,
        missing: result.missingPermissions ?? [],
        ...(result.failure ? { failure: result.failure } : {}),
      });
    } else if (outcome.kind === 'provision' || outcome.kind === 'deprovision') {
      const { task } = outcome;
      setTasks((list) => [
        ...list.filter((x) => x.task.tenantId !== tenant.tenantId),
        { task, name: tenant.tenantName },
      ]);
    }
    setPending(null);
    if (kind === 'switch') showToast('success', t('configuration:switched', { name: tenant.tenantName }));
    if (kind === 'remove') showToast('success', t('configuration:removed', { name: tenant.tenantName }));
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
