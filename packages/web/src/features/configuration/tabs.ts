/** The configuration page's tabs, in order; the first opens when the address names none. */
export const CONFIGURATION_TABS = ['tenants', 'locations', 'users', 'licence'] as const;
export type ConfigurationTab = (typeof CONFIGURATION_TABS)[number];
