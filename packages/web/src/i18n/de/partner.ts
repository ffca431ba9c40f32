import type { Leaves } from '../en';
import type { partnerNamespaces as En } from '../en/partner';

/** German texts of the partner’s choice of client organisation: the same keys as the English ones. */
export const partnerNamespaces: Leaves<typeof En> = {
  partner: {
    chooseClient: 'Wählen Sie die Kundenorganisation, für die Sie arbeiten möchten.',
    workAs: 'Als {{name}} arbeiten',
    noClients: 'Es gibt noch keine Kundenorganisationen.',
    licence: 'Lizenz: {{licence}}',
  },
};
