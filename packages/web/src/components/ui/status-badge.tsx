import { Badge } from '@chakra-ui/react';
import type { JobStatus } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';

/** Product-spec.md section 4: the four job statuses, each with its colour. */
export const STATUS_PALETTE: Record<JobStatus, string> = {
  finished: 'green',
  running: 'blue',
  failed: 'red',
  pending: 'orange',
};

export function StatusBadge({ status }: { status: JobStatus }) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} variant="subtle" data-status={status}>
      {t(`status:${status}`)}
    </Badge>
  );
}
