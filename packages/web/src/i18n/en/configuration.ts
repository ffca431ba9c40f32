/** English texts of this area (namespaces spread into ../en.ts). */
export const configurationNamespaces = {
  configuration: { title: 'Configuration' },
} as const;
