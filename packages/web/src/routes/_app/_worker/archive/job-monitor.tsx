import { createFileRoute } from '@tanstack/react-router';
import { ArchiveMonitorPage } from '../../../../features/archive/run-pages';

export const Route = createFileRoute('/_app/_worker/archive/job-monitor')({ component: ArchiveMonitorPage });
