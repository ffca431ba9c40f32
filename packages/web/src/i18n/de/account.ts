import type { Leaves } from '../en';
import type { accountNamespaces as En } from '../en/account';

/** German texts of this area: the same keys as the English ones. */
export const accountNamespaces: Leaves<typeof En> = {
  account: { title: 'Account' },
};
