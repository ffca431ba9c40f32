import { Button, HStack } from '@chakra-ui/react';
import type { JobRun, RunRetry } from '@compliance-portal/sdk';
import { createContext, type MouseEvent, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../components/ui/format';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useRetryRun, useRunDownload, useStopRun } from './api/mutations';
import { isRunActive } from './api/queries';

/**
 * Where a retry is announced with a way to the new run: the monitor provides it (its notice opens the
 * new run), so the same buttons in a row and in the run's drawer lead to the same place.
 */
export const RunRetriedContext = createContext<((retry: RunRetry, run: JobRun) => void) | null>(null);

/** A queued or running run: one that has not ended (a stopped run is "pending" too, but ended). */
const canStop = (run: JobRun) => isRunActive(run) && run.finished === null;

/** Whether anything can be done with the run now: stop, retry or download. */
export const hasRunActions = (run: JobRun) => canStop(run) || Boolean(run.retryable) || Boolean(run.download);

/** Buttons inside a clickable row act alone: the row does not open as well. */
const alone = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/**
 * What can be done with a run where it is shown (a monitor row, its drawer): stop it while it is
 * queued or running, retry it when it failed, was stopped or has failed items, and download what a
 * restore as a download prepared. Each says what happened: a toast, and for a retry the monitor's
 * notice with a link to the new run.
 */
export function RunActions({
  run,
  tenantId,
  size = 'xs',
}: {
  run: JobRun;
  tenantId: string;
  /** Small in a table row; larger in the drawer's footer. */
  size?: 'xs' | 'sm';
}) {
  const { t, i18n } = useTranslation();
  const serverAction = useServerAction();
  const onRetried = useContext(RunRetriedContext);
  const name = run.jobName;
  // One toast per stop: "stopping" becomes "stopped" (or the failure) in place, not a second toast
  // over the first (on a phone the two covered the drawer's head).
  const stopToast = `stop:${run.reportId}`;
  const stop = useStopRun(tenantId, () => showToast('info', t('jobRuns:stopping', { name }), { id: stopToast }));
  const retry = useRetryRun(tenantId);
  const download = useRunDownload();
  const stoppable = canStop(run);
  if (!hasRunActions(run)) return null;
  return (
    <HStack gap="1" role="group" aria-label={t('jobRuns:actionsOf', { name })} flexWrap="wrap">
      {stoppable ? (
        <Button
          size={size}
          variant="outline"
          loading={stop.isPending}
          onClick={alone(() =>
            stop.mutate(run, {
              onSuccess: (task) => {
                if (task.status === 'failed') showToast('error', t('jobRuns:stopFailed', { name }), { id: stopToast });
                else if (task.status === 'succeeded')
                  showToast('success', t('jobRuns:stopped', { name }), { id: stopToast });
              },
              onError: (error) =>
                showToast('error', failureText(t, t('jobRuns:stopFailed', { name }), error), { id: stopToast }),
            }),
          )}
          {...serverAction}
        >
          {t('jobRuns:stop')}
        </Button>
      ) : null}
      {run.retryable ? (
        <Button
          size={size}
          variant="outline"
          colorPalette="blue"
          loading={retry.isPending}
          onClick={alone(() =>
            retry.mutate(run, {
              onSuccess: (result) => {
                const text = t(`jobRuns:retried.${result.scope}`, { name, count: result.count });
                showToast('success', text);
                onRetried?.(result, run);
              },
              onError: (error) => showToast('error', failureText(t, t('jobRuns:retryFailed', { name }), error)),
            }),
          )}
          {...serverAction}
        >
          {t('jobRuns:retry')}
        </Button>
      ) : null}
      {run.download ? (
        <Button
          size={size}
          variant="outline"
          loading={download.isPending}
          onClick={alone(() =>
            download.mutate(run, {
              onError: (error) => showToast('error', failureText(t, t('jobRuns:downloadFailed', { name }), error)),
            }),
          )}
          {...serverAction}
        >
          {t('jobRuns:download', { size: formatBytes(run.download.size, i18n.language) })}
        </Button>
      ) : null}
    </HStack>
  );
}
