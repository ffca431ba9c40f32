import { Stack, Text } from '@chakra-ui/react';
import type { DeletionPreview, Job, Recurrence, Retention } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { useRecurrenceText } from '../../components/ui/recurrence-editor';
import { useApi } from '../../shared/tenant';
import { deletionPreviewQuery } from './api/queries';

/** What a deletion removes, in the preview's numbers, and what legal holds keep of it. */
function DeletionWhat({ preview }: { preview: DeletionPreview }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <>
      <Text fontWeight="semibold" data-testid="deletion-confirm-what">
        {preview.items === 0
          ? t('confirmations:deletion.nothing', { before: formatDate(preview.before, lang) })
          : t('confirmations:deletion.what', {
              count: preview.items,
              items: formatNumber(preview.items, lang),
              size: formatBytes(preview.bytes, lang),
              mailboxes: t('confirmations:deletion.mailboxes', {
                count: preview.sources,
                n: formatNumber(preview.sources, lang),
              }),
              before: formatDate(preview.before, lang),
            })}
      </Text>
      {preview.held > 0 ? (
        <Text data-testid="deletion-confirm-held">
          {t('confirmations:deletion.kept', { count: preview.held, items: formatNumber(preview.held, lang) })}
        </Text>
      ) : null}
    </>
  );
}

/**
 * Beside the confirmation of a deletion job's start: what the run started now deletes, in the numbers
 * of the server's preview for the job's mailboxes and retention.
 */
export function DeletionStartDetails({ tenantId, job }: { tenantId: string; job: Job }) {
  const { t } = useTranslation();
  const api = useApi();
  const retention: Retention = job.retention ?? { unit: 'year', value: 1 };
  const preview = useQuery(deletionPreviewQuery(api, tenantId, { sources: [...job.sources].sort(), retention }));
  if (preview.data) return <DeletionWhat preview={preview.data} />;
  return preview.isError ? (
    <StatusAlert status="error">{t('confirmations:deletion.startPreviewFailed')}</StatusAlert>
  ) : (
    <Text color="fg.muted">{t('confirmations:deletion.loading')}</Text>
  );
}

/**
 * The last step before a deletion job is saved: what it deletes, in the numbers of the server's
 * preview for exactly the mailboxes and retention chosen (how many mails, their size, from how many
 * mailboxes, archived before which day; what legal holds keep), when it runs, and that it cannot be
 * undone. Cancel returns to the form; nothing is saved until the preview is there.
 */
export function DeletionConfirm({
  tenantId,
  open,
  editing,
  name,
  sources,
  retention,
  recurrence,
  pending,
  failure,
  onConfirm,
  onCancel,
}: {
  tenantId: string;
  open: boolean;
  /** An existing job is saved rather than created. */
  editing: boolean;
  name: string;
  sources: readonly string[];
  retention: Retention;
  recurrence: Recurrence;
  pending: boolean;
  /** Why the last save failed, in words. */
  failure: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const recurrenceText = useRecurrenceText();
  // The same key as the form's debounced preview once it has settled: usually answered from the cache.
  const preview = useQuery({
    ...deletionPreviewQuery(api, tenantId, { sources: [...sources].sort(), retention }),
    enabled: open && sources.length > 0,
  });
  const data = preview.data;
  return (
    <ConfirmDialog
      open={open}
      title={t(editing ? 'confirmations:deletion.editTitle' : 'confirmations:deletion.createTitle', { name })}
      confirmLabel={t(editing ? 'confirmations:deletion.save' : 'confirmations:deletion.create')}
      destructive
      pending={pending || (open && !data && !preview.isError)}
      onConfirm={() => {
        if (data) onConfirm();
      }}
      onCancel={onCancel}
    >
      <Stack gap="2" data-testid="deletion-confirm">
        {data ? (
          <>
            <DeletionWhat preview={data} />
            <Text data-testid="deletion-confirm-when">
              {recurrence.kind === 'afterCreation'
                ? t('confirmations:deletion.atOnce')
                : t('confirmations:deletion.scheduled', { schedule: recurrenceText(recurrence) })}
            </Text>
          </>
        ) : preview.isError ? (
          <StatusAlert status="error">{t('confirmations:deletion.previewFailed')}</StatusAlert>
        ) : (
          <Text color="fg.muted">{t('confirmations:deletion.loading')}</Text>
        )}
        {failure ? <StatusAlert status="error">{failure}</StatusAlert> : null}
      </Stack>
    </ConfirmDialog>
  );
}
