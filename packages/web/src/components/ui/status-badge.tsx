import { Badge } from '@chakra-ui/react';
import type { JobStatus } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';

/**
 * The four job statuses, each with its colour. Waiting (queued or stopped)
 * is grey, so that amber means only a run that finished with warnings.
 */
export const STATUS_PALETTE: Record<JobStatus, string> = {
  finished: 'green',
  running: 'blue',
  failed: 'red',
  pending: 'gray',
};

/** The amber of a run that finished while some of its items could not be processed. */
export const WARNINGS_PALETTE = 'orange';

/** A status in words and colour; `warnings` makes a finished run "Finished with warnings" (amber). */
export function StatusBadge({ status, warnings = false }: { status: JobStatus; warnings?: boolean }) {
  const { t } = useTranslation();
  const withWarnings = warnings && status === 'finished';
  return (
    <Badge
      colorPalette={withWarnings ? WARNINGS_PALETTE : STATUS_PALETTE[status]}
      variant="subtle"
      data-status={withWarnings ? 'warnings' : status}
    >
      {withWarnings ? t('status:finishedWithWarnings') : t(`status:${status}`)}
    </Badge>
  );
}
