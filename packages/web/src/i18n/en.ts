import { accountNamespaces } from './en/account';
import { accountSecurityNamespaces } from './en/account-security';
import { administrationNamespaces } from './en/administration';
import { archiveNamespaces } from './en/archive';
import { archiveBrowseNamespaces } from './en/archive-browse';
import { backupNamespaces } from './en/backup';
import { configurationNamespaces } from './en/configuration';
import { confirmationsNamespaces } from './en/confirmations';
import { coreNamespaces } from './en/core';
import { dataManagementNamespaces } from './en/data-management';
import { documentsNamespaces } from './en/documents';
import { ediscoveryNamespaces } from './en/ediscovery';
import { figuresNamespaces } from './en/figures';
import { jobRunsNamespaces } from './en/job-runs';
import { locationsNamespaces } from './en/locations';
import { m365Namespaces } from './en/m365';
import { offlineNamespaces } from './en/offline';
import { overviewNamespaces } from './en/overview';
import { partnerNamespaces } from './en/partner';
import { runsNamespaces } from './en/runs';
import { sharedNamespaces } from './en/shared';
import { shellNamespaces } from './en/shell';
import { signUpNamespaces } from './en/sign-up';
import { teamsNamespaces } from './en/teams';
import { tenantConnectionNamespaces } from './en/tenant-connection';

/** English resources, one namespace per area. German (de.ts) must have exactly the same keys. */
export const en = {
  ...coreNamespaces,
  ...shellNamespaces,
  ...sharedNamespaces,
  ...backupNamespaces,
  ...runsNamespaces,
  ...ediscoveryNamespaces,
  ...archiveNamespaces,
  ...archiveBrowseNamespaces,
  ...teamsNamespaces,
  ...partnerNamespaces,
  ...documentsNamespaces,
  ...offlineNamespaces,
  ...configurationNamespaces,
  ...accountNamespaces,
  ...accountSecurityNamespaces,
  ...dataManagementNamespaces,
  ...overviewNamespaces,
  ...signUpNamespaces,
  ...locationsNamespaces,
  ...tenantConnectionNamespaces,
  ...m365Namespaces,
  ...administrationNamespaces,
  ...jobRunsNamespaces,
  ...figuresNamespaces,
  ...confirmationsNamespaces,
} as const;

export type Leaves<T> = { [K in keyof T]: T[K] extends string ? string : Leaves<T[K]> };
/** The shape every language must fill: the same namespaces and keys, any text. */
export type Resources = Leaves<typeof en>;
