import {
  type ConflictPolicy,
  type DiscoveryNode,
  type Job,
  type RestoreSpec,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/ui/format';
import { showToast } from '../../../components/ui/toaster';
import { sourceNamesQuery } from '../../../shared/api/queries';
import { useApi } from '../../../shared/tenant';
import { useRestoreArchiveDownload, useStartRestore } from '../api/mutations';
import { backupsQuery, restoreProgressQuery, restoresUsedQuery, snapshotsQuery } from '../api/queries';

/**
 * The state of a restore: the backup, the source, the snapshot, the items chosen in its tree, where
 * they go and what happens on a conflict; then the restore job made of them, its progress and its
 * archive. Choosing another backup, source or snapshot empties the selection.
 */
export function useRestoreState(tenantId: string, trial: boolean) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const [jobId, setJobId] = useState('');
  const [sourceId, setSourceId] = useState('');
  const [snapshot, setSnapshot] = useState('');
  const [selected, setSelected] = useState(new Map<string, DiscoveryNode>());
  const [target, setTarget] = useState<RestoreSpec['target']>('original');
  const [targetId, setTargetId] = useState('');
  const [policy, setPolicy] = useState<ConflictPolicy>('keepBoth');
  const [confirming, setConfirming] = useState(false);
  const [restoreJob, setRestoreJob] = useState<Job | null>(null);

  const backups = useQuery(backupsQuery(api, tenantId));
  const job = backups.data?.items.find((j) => j.jobId === jobId);
  const names = useQuery({
    ...sourceNamesQuery(api, tenantId, job?.locationId ?? '', job?.application ?? 'onedrive'),
    enabled: !!job?.locationId,
  });
  const name = (id: string) => names.data?.get(id) ?? id;
  const snapshots = useQuery(snapshotsQuery(api, tenantId, jobId));
  const restoresUsed = useQuery(restoresUsedQuery(api, tenantId, job?.application, !!job && trial));
  const restoresLeft = trial
    ? Math.max(0, TRIAL_LIMITS.restoresPerApplication - (restoresUsed.data?.total ?? 0))
    : null;
  const teams = job?.application === 'teams';
  // Teams are only downloaded.
  const effectiveTarget = teams ? 'download' : target;

  const create = useStartRestore(api, tenantId, {
    onSuccess: (created) => {
      setConfirming(false);
      setRestoreJob(created);
      showToast('success', t('backup:restoreQueued'));
    },
    onError: () => setConfirming(false),
  });
  /** Makes the restore job of the choices; without a backup chosen there is nothing to restore. */
  const start = () => {
    if (!job) return setConfirming(false);
    const restore: RestoreSpec = {
      sourceJobId: job.jobId,
      snapshot,
      sourceId,
      nodeIds: [...selected.keys()],
      target: effectiveTarget,
      ...(effectiveTarget === 'other' ? { targetId } : {}),
      conflictPolicy: policy,
    };
    create.mutate({
      name: t('backup:restoreName', { source: name(sourceId), date: formatDateTime(snapshot, lang) }).slice(0, 120),
      type: 'restore',
      application: job.application,
      sources: [sourceId],
      restore,
    });
  };
  const progress = useQuery(restoreProgressQuery(api, tenantId, restoreJob));
  const download = useRestoreArchiveDownload(api, restoreJob?.jobId ?? '');

  const ready =
    !!job &&
    !!sourceId &&
    !!snapshot &&
    selected.size > 0 &&
    (effectiveTarget !== 'other' || !!targetId) &&
    restoresLeft !== 0;

  return {
    backups: backups.data?.items ?? [],
    job,
    jobId,
    sourceId,
    snapshot,
    snapshots: snapshots.data,
    selected,
    setSelected,
    /** Every account, site or team of the backup's application, as id → name. */
    names: names.data,
    name,
    target: effectiveTarget,
    setTarget,
    teams,
    targetId,
    setTargetId,
    policy,
    setPolicy,
    restoresLeft,
    ready,
    confirming,
    setConfirming,
    create,
    /** Starts the restore confirmed. */
    start,
    /** The restore job made, as last asked about; null before one is made. */
    progress: restoreJob ? (progress.data ?? restoreJob) : null,
    download,
    chooseJob: (id: string) => {
      setJobId(id);
      setSourceId('');
      setSnapshot('');
      setSelected(new Map());
    },
    chooseSource: (id: string) => {
      setSourceId(id);
      setSelected(new Map());
    },
    chooseSnapshot: (date: string) => {
      setSnapshot(date);
      setSelected(new Map());
    },
    /** Back to the choices for another restore, the backup, source and snapshot kept. */
    startOver: () => {
      setRestoreJob(null);
      setSelected(new Map());
    },
  };
}

export type RestoreState = ReturnType<typeof useRestoreState>;
