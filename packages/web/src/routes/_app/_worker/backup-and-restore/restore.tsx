import { createFileRoute } from '@tanstack/react-router';
import { RestorePage } from '../../../../features/backup/restore-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/restore')({ component: RestorePage });
