import type { PortalClient } from '@compliance-portal/sdk';
import { useRouteContext } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../components/ui/form-field';
import { tenantIdOf } from '../session/tenant-id';
import { useWorker } from '../session/use-worker';

export function useApi(): PortalClient {
  return useRouteContext({ from: '__root__' }).api;
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
