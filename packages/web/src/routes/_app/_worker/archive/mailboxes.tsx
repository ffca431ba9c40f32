import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { listQuery } from '../../../../components/ui/list-state';
import { mailboxesQuery } from '../../../../features/archive/api/queries';
import { MailboxesPage, mailboxesListState } from '../../../../features/archive/mailboxes-page';
import { listSearchValidator } from '../../../../shared/url-state';

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const mailboxesSearch = listSearchValidator();

export const Route = createFileRoute('/_app/_worker/archive/mailboxes')({
  validateSearch: mailboxesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, [
      mailboxesQuery(context.api, context.worker.workerIp, context.worker.indexIp, listQuery(mailboxesListState(deps))),
    ]),
  component: MailboxesPage,
});
