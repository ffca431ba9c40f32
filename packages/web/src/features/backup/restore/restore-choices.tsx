import { NativeSelect, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/ui/format';
import { Field } from './field';
import type { RestoreState } from './use-restore-state';

/** The restore's first three choices: the backup, one of its sources and the snapshot's date. */
export function RestoreChoices({ restore }: { restore: RestoreState }) {
  const { t, i18n } = useTranslation();
  const { job, snapshots } = restore;
  return (
    <Stack direction={{ base: 'column', lg: 'row' }} gap="4">
      <Field id="restore-job" label={t('backup:restoreFrom')}>
        <NativeSelect.Root>
          <NativeSelect.Field
            id="restore-job"
            value={restore.jobId}
            onChange={(e) => restore.chooseJob(e.target.value)}
          >
            <option value="">{t('backup:chooseJob')}</option>
            {restore.backups.map((j) => (
              <option key={j.jobId} value={j.jobId}>
                {j.name} ({t(`backup:applications.${j.application}`)})
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field>
      <Field id="restore-source" label={t('backup:restoreSource')}>
        <NativeSelect.Root disabled={!job}>
          <NativeSelect.Field
            id="restore-source"
            value={restore.sourceId}
            onChange={(e) => restore.chooseSource(e.target.value)}
          >
            <option value="">{t('backup:chooseSource')}</option>
            {(job?.sources ?? []).map((s) => (
              <option key={s} value={s}>
                {restore.name(s)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field>
      <Field id="restore-snapshot" label={t('backup:snapshotDate')}>
        <NativeSelect.Root disabled={!job}>
          <NativeSelect.Field
            id="restore-snapshot"
            value={restore.snapshot}
            onChange={(e) => restore.chooseSnapshot(e.target.value)}
          >
            <option value="">{snapshots?.total === 0 ? t('backup:noSnapshots') : t('backup:chooseSnapshot')}</option>
            {(snapshots?.items ?? []).map((r) =>
              r.finished ? (
                <option key={r.reportId} value={r.finished}>
                  {formatDateTime(r.finished, i18n.language)}
                </option>
              ) : null,
            )}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field>
    </Stack>
  );
}
