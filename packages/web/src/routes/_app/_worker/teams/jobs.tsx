import { createFileRoute } from '@tanstack/react-router';
import { TeamsJobsPage } from '../../../../features/archive/teams-pages';

export const Route = createFileRoute('/_app/_worker/teams/jobs')({ component: TeamsJobsPage });
