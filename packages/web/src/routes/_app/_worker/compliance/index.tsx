import { createFileRoute } from '@tanstack/react-router';
import { FileManagerPage } from '../../../../features/data-management/file-manager-page';

export const Route = createFileRoute('/_app/_worker/compliance/')({ component: FileManagerPage });
