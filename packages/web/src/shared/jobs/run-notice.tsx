import { Alert, Button, CloseButton, HStack } from '@chakra-ui/react';
import type { Job, RunRetry } from '@compliance-portal/sdk';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { monitorOf } from './areas';

/** A retry just queued, as the monitor announces it. */
export interface RunNotice {
  name: string;
  reportId: string;
  scope: RunRetry['scope'];
  count: number;
}

/** What a retry did, in words, with a button that opens the new run (kept until dismissed). */
export function RunNoticeAlert({
  notice,
  onOpen,
  onDismiss,
}: {
  notice: RunNotice;
  onOpen: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="success" role="status" mb="3" data-testid="run-notice">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t(`jobRuns:retried.${notice.scope}`, { name: notice.name, count: notice.count })}</Alert.Title>
        <HStack mt="1">
          <Button size="xs" variant="outline" colorPalette="blue" onClick={onOpen}>
            {t('jobRuns:openRun')}
          </Button>
        </HStack>
      </Alert.Content>
      <CloseButton size="sm" aria-label={t('jobRuns:dismiss')} onClick={onDismiss} />
    </Alert.Root>
  );
}

/** A job just started, as its list announces it, with a link that opens its run in the area's monitor. */
export function StartedNotice({ job, reportId, onDismiss }: { job: Job; reportId: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="success" role="status" data-testid="started-notice">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('jobRuns:startedNotice', { name: job.name })}</Alert.Title>
        <HStack mt="1">
          <Button asChild size="xs" variant="outline" colorPalette="blue">
            <Link to={monitorOf(job.type)} search={{ type: job.type, run: reportId }}>
              {t('jobRuns:openInMonitor')}
            </Link>
          </Button>
        </HStack>
      </Alert.Content>
      <CloseButton size="sm" aria-label={t('jobRuns:dismiss')} onClick={onDismiss} />
    </Alert.Root>
  );
}
