import { DOCUMENT_TYPES } from '@compliance-portal/sdk';
import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../app/loaders';
import { documentsQuery } from '../../../features/documents/api/queries';
import { DocumentsPage } from '../../../features/documents/documents-page';
import { listSearchValidator } from '../../../shared/url-state';

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const documentsSearch = listSearchValidator({ type: DOCUMENT_TYPES });

export const Route = createFileRoute('/_app/_worker/documents')({
  validateSearch: documentsSearch,
  // Every document is read at once and the list is paged and searched on screen: the address's list
  // state does not change what is read, so the loader depends on none of it.
  loader: ({ context }) => {
    const { abbr } = context.worker;
    // Without an organisation the page reads nothing: it says that one is needed.
    return loadQueries(context.queryClient, abbr ? [documentsQuery(context.api, abbr)] : []);
  },
  component: DocumentsPage,
});
