import type { Leaves } from '../en';
import type { dataManagementNamespaces as En } from '../en/data-management';

/** German texts of this area: the same keys as the English ones. */
export const dataManagementNamespaces: Leaves<typeof En> = {
  dataManagement: { title: 'Data management' },
};
