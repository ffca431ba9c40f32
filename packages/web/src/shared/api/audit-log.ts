import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { readWorker } from '../../session/storage';
import { sharedKeys } from './keys';

/**
 * Reads the audit log of the organisation worked for again (its pages, its chain check, the overview's
 * connection tests): every audited change adds an entry, a refused attempt too, so a change calls it
 * once it settled. Only that organisation's log is cached: choosing another client drops the rest.
 */
export function useAuditLogRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const organisationId = readWorker()?.clientId;
    if (organisationId) await queryClient.invalidateQueries({ queryKey: sharedKeys.auditLog(organisationId) });
  }, [queryClient]);
}
