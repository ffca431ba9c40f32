import type { PortalClient } from '@compliance-portal/sdk';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import type { SessionActor } from '../session/runtime';
import type { AppConfig } from './api';

export interface RouterContext {
  queryClient: QueryClient;
  api: PortalClient;
  session: SessionActor;
  i18n: i18n;
  /** What the server said at start (/app-config.json): whether sign-up is open, and whom to ask. */
  config: AppConfig;
}
