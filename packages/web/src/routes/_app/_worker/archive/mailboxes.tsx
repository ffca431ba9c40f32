import { createFileRoute } from '@tanstack/react-router';
import { MailboxesPage } from '../../../../features/archive/mailboxes-page';

export const Route = createFileRoute('/_app/_worker/archive/mailboxes')({ component: MailboxesPage });
