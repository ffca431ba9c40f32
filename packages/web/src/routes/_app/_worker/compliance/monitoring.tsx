import { createFileRoute } from '@tanstack/react-router';
import { DataManagementMonitorPage } from '../../../../features/data-management/run-pages';

export const Route = createFileRoute('/_app/_worker/compliance/monitoring')({ component: DataManagementMonitorPage });
