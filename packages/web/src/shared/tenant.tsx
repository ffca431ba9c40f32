import type { Application, PortalClient } from '@compliance-portal/sdk';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../components/ui/form-field';
import type { StoredWorker } from '../session/types';
import { useWorker } from '../session/use-worker';

export function useApi(): PortalClient {
  return useRouteContext({ from: '__root__' }).api;
}

/** The tenant of a selected client ('' when none is selected). */
export function tenantIdOf(worker: Pick<StoredWorker, 'tenant_id' | 'stagingtenant_id'> | null): string {
  return worker?.tenant_id ?? worker?.stagingtenant_id ?? '';
}

/** The selected client's active tenant and licence. */
export function useTenant() {
  const worker = useWorker();
  return {
    tenantId: tenantIdOf(worker),
    trial: worker?.cloud_portal_license === 'trial',
    workerIp: worker?.workerIp ?? '',
  };
}

/** Shows its children only when the client has a tenant configured. */
export function RequireTenant({ children }: { children: (tenantId: string) => ReactNode }) {
  const { t } = useTranslation();
  const { tenantId } = useTenant();
  if (!tenantId) return <StatusAlert status="error">{t('errors:noTenant')}</StatusAlert>;
  return <>{children(tenantId)}</>;
}

export const locationsQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: ['tenant', tenantId, 'locations'],
    queryFn: ({ signal }) => api.apollo.locations.list({ tenantId }, { signal }),
    enabled: !!tenantId,
  });

/** Every account, site or team discovery found for an application, as id → name (for labels). */
export const sourceNamesQuery = (api: PortalClient, tenantId: string, locationId: string, application: Application) =>
  queryOptions({
    queryKey: ['tenant', tenantId, 'discovery', locationId, application, 'names'],
    queryFn: async ({ signal }) => {
      const names = new Map<string, string>();
      for (let page = 1; ; page++) {
        const answer = await api.apollo.discovery.users(
          { tenantId, locationId, query: { application, page, pageSize: 500 } },
          { signal, disableToast: true },
        );
        for (const s of answer.items) names.set(s.sourceId, s.displayName);
        if (page * 500 >= answer.total) break;
      }
      return names;
    },
    enabled: !!tenantId && !!locationId,
    staleTime: 5 * 60_000,
  });

export function useSourceNames(tenantId: string, locationId: string | null | undefined, application: Application) {
  const api = useApi();
  const names = useQuery(sourceNamesQuery(api, tenantId, locationId ?? '', application));
  return (id: string) => names.data?.get(id) ?? id;
}
