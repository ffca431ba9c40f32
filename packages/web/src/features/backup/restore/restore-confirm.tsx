import { Box, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDateTime } from '../../../components/ui/format';
import type { RestoreState } from './use-restore-state';

/** The confirmation of a restore: how many items of which source and date, where they go, and on conflict. */
export function RestoreConfirm({ restore }: { restore: RestoreState }) {
  const { t, i18n } = useTranslation();
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
            count: restore.selected.size,
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
