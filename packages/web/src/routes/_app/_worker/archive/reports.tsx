import { createFileRoute } from '@tanstack/react-router';
import { ArchiveReportsPage } from '../../../../features/archive/run-pages';

export const Route = createFileRoute('/_app/_worker/archive/reports')({ component: ArchiveReportsPage });
