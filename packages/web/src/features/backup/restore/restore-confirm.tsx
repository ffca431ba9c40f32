import { Box, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDateTime } from '../../../components/ui/format';
import { useSelectionText } from './selection-summary';
import type { RestoreState } from './use-restore-state';

/** The confirmation of a restore: how many files, list items and pages of which source and date, where they go, and on conflict. */
export function RestoreConfirm({ restore }: { restore: RestoreState }) {
  const { t, i18n } = useTranslation();
  const what = useSelectionText();
  const { create, name, snapshot, target, policy } = restore;
  return (
    <ConfirmDialog
      open={restore.confirming}
      title={t('backup:confirm.restoreTitle')}
      confirmLabel={t('backup:restoreButton')}
      pending={create.isPending}
      onConfirm={restore.start}
      onCancel={() => !create.isPending && restore.setConfirming(false)}
    >
      <Box>
        <Text>
          {t('backup:confirm.restoreText', {
            what: what(restore.selected),
            source: name(restore.sourceId),
            date: snapshot ? formatDateTime(snapshot, i18n.language) : '',
          })}
        </Text>
        <Text mt="2" fontWeight="medium">
          {target === 'other'
            ? t('backup:confirm.restoreOther', {
                target: name(restore.targetId),
                policy: t(`backup:policies.${policy}`),
              })
            : target === 'download'
              ? t('backup:confirm.restoreDownload')
              : t('backup:confirm.restoreOriginal', { policy: t(`backup:policies.${policy}`) })}
        </Text>
      </Box>
    </ConfirmDialog>
  );
}
