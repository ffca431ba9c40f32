import { Alert, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { StatusAlert } from '../../../components/ui/form-field';
import { formatBytes, formatNumber } from '../../../components/ui/format';
import { M365FailureAlert } from '../../../shared/m365-failure';
import type { BrowserState } from './use-browser-state';

/**
 * What the preview of a clean-up found: a failure said by its cause, "nothing to remove" when the rule
 * removes no version of the selection, else the versions, files, space and saving to confirm.
 */
export function CleanupConfirm({
  state: { preview, previewing, cleanUp, startCleanUp, closePreview, failure },
}: {
  state: Pick<BrowserState, 'preview' | 'previewing' | 'cleanUp' | 'startCleanUp' | 'closePreview' | 'failure'>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <>
      {previewing.isError ? <M365FailureAlert title={t('m365:preview')} error={previewing.error} /> : null}
      {preview && preview.eligibleVersions === 0 ? (
        <Alert.Root status="info" data-testid="nothing-to-remove">
          <Alert.Indicator />
          <Alert.Title>{t('dataManagement:nothingToRemove')}</Alert.Title>
        </Alert.Root>
      ) : null}
      <ConfirmDialog
        open={!!preview && preview.eligibleVersions > 0}
        title={t('dataManagement:confirmTitle')}
        confirmLabel={t('dataManagement:confirm')}
        destructive
        pending={cleanUp.isPending}
        onConfirm={startCleanUp}
        onCancel={closePreview}
      >
        <Stack gap="2">
          <Text data-testid="cleanup-confirm-text">
            {preview
              ? t('dataManagement:confirmText', {
                  count: preview.eligibleVersions,
                  versions: formatNumber(preview.eligibleVersions, lang),
                  files: t('dataManagement:fileCount', { count: preview.files, n: formatNumber(preview.files, lang) }),
                  size: formatBytes(preview.reclaimableBytes, lang),
                  saving: new Intl.NumberFormat(lang, { style: 'currency', currency: preview.currency }).format(
                    preview.monthlySaving,
                  ),
                })
              : ''}
          </Text>
          {cleanUp.isError ? (
            <StatusAlert status="error">{failure(cleanUp.error) ?? t('apiErrors:generic')}</StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
    </>
  );
}
