import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { PendingAction } from './use-jobs-list';

/** The confirmation of a job's start, stop or removal, in the action's own words. */
export function JobActionDialog({
  pending,
  busy,
  onConfirm,
  onCancel,
}: {
  pending: PendingAction | null;
  busy: boolean;
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
      {pending ? t(`backup:confirm.${pending.action}Text`, { name: pending.job.name }) : ''}
    </ConfirmDialog>
  );
}
