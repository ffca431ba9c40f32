import { germanErrorMessages } from '@compliance-portal/sdk';
import { accountNamespaces } from './de/account';
import { accountSecurityNamespaces } from './de/account-security';
import { administrationNamespaces } from './de/administration';
import { archiveNamespaces } from './de/archive';
import { archiveBrowseNamespaces } from './de/archive-browse';
import { backupNamespaces } from './de/backup';
import { configurationNamespaces } from './de/configuration';
import { confirmationsNamespaces } from './de/confirmations';
import { coreNamespaces } from './de/core';
import { dataManagementNamespaces } from './de/data-management';
import { documentsNamespaces } from './de/documents';
import { ediscoveryNamespaces } from './de/ediscovery';
import { figuresNamespaces } from './de/figures';
import { jobRunsNamespaces } from './de/job-runs';
import { locationsNamespaces } from './de/locations';
import { m365Namespaces } from './de/m365';
import { offlineNamespaces } from './de/offline';
import { overviewNamespaces } from './de/overview';
import { partnerNamespaces } from './de/partner';
import { runsNamespaces } from './de/runs';
import { sharedNamespaces } from './de/shared';
import { shellNamespaces } from './de/shell';
import { signUpNamespaces } from './de/sign-up';
import { teamsNamespaces } from './de/teams';
import { tenantConnectionNamespaces } from './de/tenant-connection';
import type { Resources } from './en';

/** German resources; the type makes a missing or extra key a compile error. */
export const de: Resources = {
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
};

/** The SDK's error catalogue in German (the `apiErrors` namespace), loaded with the rest of German. */
export const germanApiErrors: Record<string, string> = { ...germanErrorMessages };
