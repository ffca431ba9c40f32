import { createFileRoute } from '@tanstack/react-router';
import { ArchiveJobsPage } from '../../../../features/archive/archive-jobs-page';

export const Route = createFileRoute('/_app/_worker/archive/jobs')({ component: ArchiveJobsPage });
