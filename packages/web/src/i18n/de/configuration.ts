import type { Leaves } from '../en';
import type { configurationNamespaces as En } from '../en/configuration';

/** German texts of this area: the same keys as the English ones. */
export const configurationNamespaces: Leaves<typeof En> = {
  configuration: { title: 'Configuration' },
};
