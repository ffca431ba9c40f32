import { createFileRoute } from '@tanstack/react-router';
import { DocumentsPage } from '../../../features/documents/documents-page';

export const Route = createFileRoute('/_app/_worker/documents')({ component: DocumentsPage });
