import { Alert, Stack, Text } from '@chakra-ui/react';
import { TRIAL_LIMITS } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { RequireTenant, useTenant } from '../../shared/tenant';
import { RestoreChoices } from './restore/restore-choices';
import { RestoreConfirm } from './restore/restore-confirm';
import { RestoreProgress } from './restore/restore-progress';
import { RestoreTarget } from './restore/restore-target';
import { SnapshotBrowser } from './restore/snapshot-browser';
import { useRestoreState } from './restore/use-restore-state';

function Restore({ tenantId, trial }: { tenantId: string; trial: boolean }) {
  const { t } = useTranslation();
  const restore = useRestoreState(tenantId, trial);
  const { job, sourceId, snapshot, restoresLeft } = restore;

  if (restore.progress)
    return (
      <RestoreProgress
        job={restore.progress}
        downloading={restore.download.isPending}
        onDownload={() => restore.download.mutate()}
        onNew={restore.startOver}
      />
    );

  return (
    <Stack gap="5">
      {trial && job ? (
        <Alert.Root status={restoresLeft === 0 ? 'error' : 'info'} data-testid="restores-left">
          <Alert.Indicator />
          <Alert.Title>
            {restoresLeft === 0
              ? t('apiErrors:trialRestores')
              : t('backup:restoresLeft', { count: restoresLeft ?? 0, limit: TRIAL_LIMITS.restoresPerApplication })}
          </Alert.Title>
        </Alert.Root>
      ) : null}
      <RestoreChoices restore={restore} />
      {job && sourceId && snapshot ? (
        <SnapshotBrowser
          key={`${job.jobId}/${sourceId}/${snapshot}`}
          tenantId={tenantId}
          job={job}
          sourceId={sourceId}
          snapshot={snapshot}
          selected={restore.selected}
          onSelect={restore.setSelected}
        />
      ) : (
        <Text color="fg.muted">{t('backup:restoreHint')}</Text>
      )}
      {job ? <RestoreTarget restore={restore} /> : null}
      <RestoreConfirm restore={restore} />
    </Stack>
  );
}

/** Restore: a backup, a source, a snapshot date, items from its tree, and where they go. */
export function RestorePage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:restore')} help="backup.a2" />
      <RequireTenant>{(tenantId) => <Restore tenantId={tenantId} trial={trial} />}</RequireTenant>
    </>
  );
}
