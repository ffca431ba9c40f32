import { createFileRoute } from '@tanstack/react-router';
import { TeamsReportsPage } from '../../../../features/archive/run-pages';

export const Route = createFileRoute('/_app/_worker/teams/reporting')({ component: TeamsReportsPage });
