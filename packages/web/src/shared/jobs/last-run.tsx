import { Badge, Stack, Text } from '@chakra-ui/react';
import type { Job, JobLastRun } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/ui/format';
import { STATUS_PALETTE, WARNINGS_PALETTE } from '../../components/ui/status-badge';

/** How a last run ended, as its badge says it: a finished run with failed items has warnings. */
export function lastRunOutcome(run: JobLastRun): keyof typeof OUTCOME_PALETTE {
  return run.status === 'finished' && run.itemsFailed > 0 ? 'warnings' : run.status;
}

/** Colours follow the outcome: green, amber with warnings, red failed, grey stopped. */
const OUTCOME_PALETTE = {
  finished: STATUS_PALETTE.finished,
  warnings: WARNINGS_PALETTE,
  failed: STATUS_PALETTE.failed,
  stopped: STATUS_PALETTE.pending,
} as const;

/** A job's last run in a list cell: how it ended (badge) and when; "Not run yet" without one. */
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
  const outcome = lastRunOutcome(run);
  return (
    <Stack gap="0.5" align="start" data-testid="last-run">
      <Badge colorPalette={OUTCOME_PALETTE[outcome]} variant="subtle" data-status={outcome}>
        {t(`jobRuns:lastRunStatus.${outcome}`)}
      </Badge>
      <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
        {formatDateTime(run.finished, i18n.language)}
      </Text>
    </Stack>
  );
}
