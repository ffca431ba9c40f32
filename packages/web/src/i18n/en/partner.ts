/** English texts of the partner’s choice of client organisation (namespaces spread into ../en.ts). */
export const partnerNamespaces = {
  partner: {
    chooseClient: 'Choose the client organisation to work for.',
    workAs: 'Work as {{name}}',
    noClients: 'There are no client organisations yet.',
    licence: 'Licence: {{licence}}',
  },
} as const;
