import { createFileRoute } from '@tanstack/react-router';
import { TeamsMonitorPage } from '../../../../features/archive/run-pages';

export const Route = createFileRoute('/_app/_worker/teams/job-monitor')({ component: TeamsMonitorPage });
