import { createFileRoute } from '@tanstack/react-router';
import { DeletionJobsPage } from '../../../../features/archive/deletion-jobs-page';

export const Route = createFileRoute('/_app/_worker/archive/deletion-jobs')({ component: DeletionJobsPage });
