import { createFileRoute } from '@tanstack/react-router';
import { DataManagementDashboardPage } from '../../../../features/data-management/dashboard-page';

export const Route = createFileRoute('/_app/_worker/compliance/dashboard')({ component: DataManagementDashboardPage });
