import { createFileRoute } from '@tanstack/react-router';
import { ArchiveDashboardPage } from '../../../../features/archive/archive-dashboard-page';

export const Route = createFileRoute('/_app/_worker/archive/dashboard')({ component: ArchiveDashboardPage });
