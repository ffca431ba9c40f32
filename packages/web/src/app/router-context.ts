import type { PortalClient } from '@compliance-portal/sdk';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import type { SessionActor } from '../session/runtime';

export interface RouterContext {
  queryClient: QueryClient;
  api: PortalClient;
  session: SessionActor;
  i18n: i18n;
}
