import { createFileRoute } from '@tanstack/react-router';
import { TeamsDashboardPage } from '../../../../features/archive/teams-pages';

export const Route = createFileRoute('/_app/_worker/teams/dashboard')({ component: TeamsDashboardPage });
