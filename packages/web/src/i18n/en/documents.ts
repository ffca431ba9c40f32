/** English texts of this area (namespaces spread into ../en.ts). */
export const documentsNamespaces = {
  documents: { title: 'Documents' },
} as const;
