import { Stack, Text } from '@chakra-ui/react';
import type { Job, JobLastRun } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/ui/format';
import { type RunShownState, RunStateBadge } from './run-status';

/** How a last run ended, in the run model's words: a finished run with failed items has warnings. */
export function lastRunState(run: JobLastRun): RunShownState {
  return run.status === 'finished' && run.itemsFailed > 0 ? 'finishedWithWarnings' : run.status;
}

/** A job's last run in a list cell: how it ended (badge, as the monitor says it) and when; "Not run yet" without one. */
export function LastRunCell({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  const run = job.lastRun;
  if (!run) {
    return (
      <Text fontSize="sm" color="fg.muted">
        {t('jobRuns:neverRan')}
      </Text>
    );
  }
  return (
    <Stack gap="0.5" align="start" data-testid="last-run">
      <RunStateBadge state={lastRunState(run)} />
      <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
        {formatDateTime(run.finished, i18n.language)}
      </Text>
    </Stack>
  );
}
