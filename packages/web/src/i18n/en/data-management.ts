/** English texts of this area (namespaces spread into ../en.ts). */
export const dataManagementNamespaces = {
  dataManagement: { title: 'Data management' },
} as const;
