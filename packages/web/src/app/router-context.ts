import type { PortalClient } from '@compliance-portal/sdk';
import type { QueryClient } from '@tanstack/react-query';
import type { SessionActor } from '../session/runtime';

export interface RouterContext {
  queryClient: QueryClient;
  api: PortalClient;
  session: SessionActor;
}
