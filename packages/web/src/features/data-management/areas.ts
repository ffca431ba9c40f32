import type { DataManagementApplication } from '@compliance-portal/sdk';

/**
 * The applications a clean-up job works on. Apart from the form, so that the route's search check
 * (in the entry) does not pull the form and its components into the first load.
 */
export const CLEANUP_APPLICATIONS: readonly DataManagementApplication[] = ['sharepoint', 'onedrive'];
