import { Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { PendingAction } from './api/mutations';

/** What removing a job that stores no backups does, by its type (a backup's text says its backups go). */
const REMOVE_TEXTS = {
  exchangeArchive: 'confirmations:removeJob.archive',
  teamsArchive: 'confirmations:removeJob.archive',
  archiveDeletion: 'confirmations:removeJob.archiveDeletion',
  versionCleanup: 'confirmations:removeJob.versionCleanup',
} as const;

/**
 * The confirmation of a job's start, stop or removal, in the action's own words, and what the area
 * says beside them (`details`: what a deletion started now deletes).
 */
export function JobActionDialog({
  pending,
  busy,
  details,
  onConfirm,
  onCancel,
}: {
  pending: PendingAction | null;
  busy: boolean;
  details?: ReactNode;
  onConfirm: (pending: PendingAction) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={!!pending}
      title={pending ? t(`backup:confirm.${pending.action}Title`, { name: pending.job.name }) : ''}
      confirmLabel={pending ? t(`backup:${pending.action}`) : ''}
      destructive={pending?.action !== 'start'}
      pending={busy}
      onConfirm={() => pending && onConfirm(pending)}
      onCancel={() => !busy && onCancel()}
    >
      <Stack gap="2">
        {details}
        <Text>
          {pending
            ? pending.action === 'remove' && pending.job.type in REMOVE_TEXTS
              ? t(REMOVE_TEXTS[pending.job.type as keyof typeof REMOVE_TEXTS])
              : t(`backup:confirm.${pending.action}Text`, { name: pending.job.name })
            : ''}
        </Text>
      </Stack>
    </ConfirmDialog>
  );
}
