import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { readWorker } from '../../session/storage';
import { sharedKeys } from './keys';

/**
 * Reads again what is cached for the organisation worked for (the selected client's: choosing another
 * client drops the rest) after a change to it: its audit log (its pages, its chain check, the
 * overview's connection tests), to which every audited change adds an entry, a refused attempt too;
 * and its licence, which counts its backup jobs and restores.
 */
export function useOrganisationRefresh() {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const refresh = (key: (organisationId: string) => readonly unknown[]) => async () => {
      const organisationId = readWorker()?.clientId;
      if (organisationId) await queryClient.invalidateQueries({ queryKey: key(organisationId) });
    };
    return { auditLog: refresh(sharedKeys.auditLog), licence: refresh(sharedKeys.licence) };
  }, [queryClient]);
}
