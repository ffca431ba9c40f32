import { createFileRoute } from '@tanstack/react-router';
import { DataManagementReportsPage } from '../../../../features/data-management/run-pages';

export const Route = createFileRoute('/_app/_worker/compliance/reporting')({ component: DataManagementReportsPage });
