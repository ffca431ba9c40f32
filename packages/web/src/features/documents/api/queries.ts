import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { documentsKeys } from './keys';

/** The organisation's documents, all types at once (the server does not page them). */
export const documentsQuery = (api: PortalClient, abbr: string) =>
  queryOptions({
    queryKey: documentsKeys.all(abbr),
    queryFn: ({ signal }) => api.legacy.files.documents({ abbr }, { signal }),
  });
