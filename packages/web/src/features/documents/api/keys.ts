import { scopeKeys } from '../../../shared/api/keys';

/** The keys of the organisation's documents (read live: not kept for offline reading). */
export const documentsKeys = {
  /** Every document of the organisation, of every type: one list, paged and filtered on screen. */
  all: (abbr: string) => [...scopeKeys.organisation(abbr), 'documents'] as const,
};
