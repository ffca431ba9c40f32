/**
 * Admin consent for a tenant's app registration: starting one (a new tenant, or a connected one
 * again) answers the link to Microsoft's consent page; finishing one with Microsoft's answer may
 * connect a tenant, so it reads the tenants and the session's worker again, and the audit log.
 */
import type { TenantConsentAnswer, TenantConsentStart } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useOrganisationChanged } from '../../../session/context';
import { useOrganisationRefresh } from '../../../shared/api/organisation';
import { useApi } from '../../../shared/tenant';
import { configurationKeys } from './keys';

/** Failures are shown where the consent is, not in a toast as well. */
const QUIET = { disableToast: true };

/** Starts connecting a new tenant by admin consent. */
export function useStartConsent() {
  const api = useApi();
  return useMutation({
    mutationFn: (body: TenantConsentStart) => api.apollo.tenants.startConsent({ body }, QUIET),
  });
}

/** Starts an admin consent again for a connected tenant's app registration. */
export function useRenewConsent() {
  const api = useApi();
  return useMutation({
    mutationFn: (tenantId: string) => api.apollo.tenants.renewConsent({ tenantId }, QUIET),
  });
}

/** Finishes an admin consent with the answer Microsoft sent to the portal's page. */
export function useFinishConsent() {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisationChanged = useOrganisationChanged();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (answer: TenantConsentAnswer) => api.apollo.tenants.finishConsent({ body: answer }, QUIET),
    onSuccess: (outcome) => {
      if (outcome.outcome !== 'granted') return;
      // A tenant connected, or its consent recorded; an organisation's first tenant is its worker's
      // from now on, so the session reads its worker again (as after the tenant form).
      void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
      organisationChanged();
    },
    // The consent is audited however it ended, and the connection test that follows one too.
    onSettled: organisation.auditLog,
  });
}
