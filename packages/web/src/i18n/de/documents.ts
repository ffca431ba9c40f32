import type { Leaves } from '../en';
import type { documentsNamespaces as En } from '../en/documents';

/** German texts of this area: the same keys as the English ones. */
export const documentsNamespaces: Leaves<typeof En> = {
  documents: { title: 'Documents' },
};
