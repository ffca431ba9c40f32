import type { Client } from '@compliance-portal/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type NavigateOptions, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/ui/toaster';
import { storeWorker } from '../../session/storage';
import { partnerKeys } from './api/keys';

/**
 * Working as a client: the one way the fleet's "Work as", its issues and the header's switcher choose
 * a client. The client's worker becomes the selected one (the worker cookie), as if chosen at sign-in;
 * what was cached for the previous client goes (the partner's own lists stay); then the page opens.
 */
export function useSwitchClient() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (client: Client, destination: NavigateOptions) => {
      if (storeWorker(client.worker)) {
        // Everything cached belongs to the previous client.
        queryClient.removeQueries({ predicate: (q) => !partnerKeys.isClients(q.queryKey) });
        showToast('success', t('partnerSetup:workingAs', { name: client.name }));
      }
      await navigate(destination);
    },
    [queryClient, navigate, t],
  );
}
