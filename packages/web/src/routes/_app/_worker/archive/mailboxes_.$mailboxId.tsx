import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { mailboxItemsQuery, mailItemsQuery } from '../../../../features/archive/api/browse-queries';
import {
  DELETED_FILTERS,
  itemListState,
  itemsBrowseRequest,
  KIND_OF_TAB,
  MAILBOX_TABS,
  mailBrowseRequest,
  mailListState,
} from '../../../../features/archive/api/browse-search';
import { MailboxArchivePage } from '../../../../features/archive/mailbox-archive-page';
import { listSearchValidator } from '../../../../shared/url-state';

function MailboxArchiveRoute() {
  const { mailboxId } = Route.useParams();
  return <MailboxArchivePage mailboxId={mailboxId} />;
}

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const mailSearch = listSearchValidator({
  folder: [],
  from: [],
  to: [],
  attachments: ['with', 'without'],
  tab: MAILBOX_TABS,
  deleted: DELETED_FILTERS,
});

export const Route = createFileRoute('/_app/_worker/archive/mailboxes_/$mailboxId')({
  validateSearch: mailSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const kind = KIND_OF_TAB[deps.tab ?? 'mail'];
    if (kind)
      return loadQueries(context.queryClient, [
        mailboxItemsQuery(
          context.api,
          context.tenantId,
          itemsBrowseRequest(params.mailboxId, kind, itemListState(kind, deps), {
            ...(deps.deleted ? { deleted: deps.deleted } : {}),
          }),
        ),
      ]);
    return loadQueries(context.queryClient, [
      mailItemsQuery(
        context.api,
        context.tenantId,
        mailBrowseRequest(params.mailboxId, mailListState(deps), {
          ...(deps.folder ? { folder: deps.folder } : {}),
          ...(deps.from ? { from: deps.from } : {}),
          ...(deps.to ? { to: deps.to } : {}),
          ...(deps.attachments ? { attachments: deps.attachments } : {}),
        }),
      ),
    ]);
  },
  component: MailboxArchiveRoute,
});
