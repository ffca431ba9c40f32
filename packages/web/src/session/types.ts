import type { SessionUser } from '@compliance-portal/sdk';

/** The signed-in user as stored in the `user` cookie and in local storage under `user`. */
export interface StoredUser {
  token: string;
  user: SessionUser;
}

/** The customer worker as stored in the `worker` cookie. */
export interface StoredWorker {
  workerId: string;
  workerIp: string;
  indexIp: string;
  clientId: string;
  organisationName: string;
  abbr: string;
  stagingtenant_id: string | null;
  /** Set from stagingtenant_id when the worker is chosen. */
  tenant_id: string | null;
  /** Lower-cased: trial or full. */
  cloud_portal_license: string;
  /** The default domain of the active tenant's Microsoft 365 organisation, once the server has read it. */
  tenantDomain?: string;
}

/** Inactivity: the warning at 14 min 30 s, the logout at 15 min. */
export const INACTIVITY_WARNING_MS = 870_000;
export const INACTIVITY_LOGOUT_MS = 900_000;
