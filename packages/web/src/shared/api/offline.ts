import type { QueryMeta } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /**
       * Saved in IndexedDB for offline reading (dashboards, reports and the lists that lead to them).
       * Only queries that say so are saved: search results, previews, browsing and settings are not.
       */
      offline?: boolean;
    };
  }
}

/** The meta of a query that is kept for offline reading. */
export const OFFLINE = { offline: true } as const;

/** Whether a query is kept for offline reading: its options say so in `meta.offline`. */
export function isOfflineQuery(query: { meta?: QueryMeta | undefined }): boolean {
  return query.meta?.offline === true;
}
