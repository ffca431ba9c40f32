import { Stack, Text } from '@chakra-ui/react';
import type { Recurrence, Retention } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatNumber } from '../../components/ui/format';
import { useRecurrenceText } from '../../components/ui/recurrence-editor';
import { useApi } from '../../shared/tenant';
import { deletionPreviewQuery } from './api/queries';

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
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
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
            <Text fontWeight="semibold" data-testid="deletion-confirm-what">
              {data.items === 0
                ? t('confirmations:deletion.nothing', { before: formatDate(data.before, lang) })
                : t('confirmations:deletion.what', {
                    count: data.items,
                    items: formatNumber(data.items, lang),
                    size: formatBytes(data.bytes, lang),
                    mailboxes: t('confirmations:deletion.mailboxes', {
                      count: data.sources,
                      n: formatNumber(data.sources, lang),
                    }),
                    before: formatDate(data.before, lang),
                  })}
            </Text>
            {data.held > 0 ? (
              <Text data-testid="deletion-confirm-held">
                {t('confirmations:deletion.kept', { count: data.held, items: formatNumber(data.held, lang) })}
              </Text>
            ) : null}
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
