/** English texts of this area (namespaces spread into ../en.ts). */
export const accountNamespaces = {
  account: { title: 'Account' },
} as const;
