import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { CleanupRule, DataManagementApplication } from '@compliance-portal/sdk';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { QueryDataTable } from '../../../components/ui/query-data-table';
import { isNotFound } from '../../../errors/api-errors';
import { M365FailureAlert } from '../../../shared/m365-failure';
import { BrowserTrail } from './browser-trail';
import { CleanupConfirm } from './cleanup-confirm';
import { useFileColumns } from './file-columns';
import { useBrowserState } from './use-browser-state';
import type { BrowsedSource } from './use-file-manager-location';
import { VersionsDialog } from './versions-dialog';

/**
 * A source's folders and files with the versions the rule would remove; items selected (across
 * folders) are cleaned up after a preview and a confirmation.
 */
export function Browser({
  tenantId,
  application,
  source,
  rule,
  onBack,
}: {
  tenantId: string;
  application: DataManagementApplication;
  source: BrowsedSource;
  rule: CleanupRule | null;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const state = useBrowserState({ tenantId, application, source, rule });
  const { browse, selected } = state;
  const columns = useFileColumns(state.open);
  return (
    <Stack gap="3">
      <BrowserTrail sourceName={source.displayName} trail={state.trail} onBack={onBack} onGoUp={state.goUp} />
      {rule === null ? null : (
        <QueryDataTable
          query={browse}
          label={t('dataManagement:browse')}
          columns={columns}
          rowKey={(n) => n.path}
          state={state.list}
          onStateChange={state.setList}
          errorText={t('errors:noFolder')}
          renderError={(error) =>
            // A folder that is not there has its own text; a failure of Microsoft 365 its cause.
            isNotFound(error) ? undefined : (
              <M365FailureAlert
                title={t('dataManagement:failed')}
                error={error}
                onRetry={() => void browse.refetch()}
              />
            )
          }
          emptyText={t('dataManagement:empty')}
          selection={{
            selected,
            onChange: state.setSelected,
            rowLabel: (n) => t('table:selectRow', { name: n.name }),
          }}
          toolbar={
            <HStack gap="2" wrap="wrap">
              <Text fontSize="sm" color="fg.muted" aria-live="polite" data-testid="selected-count">
                {t('dataManagement:selected', { count: selected.size })}
              </Text>
              <Button
                size="sm"
                colorPalette="blue"
                loading={state.previewing.isPending}
                loadingText={t('dataManagement:previewing')}
                onClick={state.askPreview}
                {...state.cleanUpAction}
              >
                {t('dataManagement:cleanUp')}
              </Button>
            </HStack>
          }
        />
      )}
      <CleanupConfirm state={state} />
      {state.file && rule ? (
        <VersionsDialog
          tenantId={tenantId}
          application={application}
          sourceId={source.sourceId}
          file={state.file}
          rule={rule}
          onClose={state.closeFile}
        />
      ) : null}
      <Text fontSize="sm">
        <Link to="/compliance/monitoring">{t('pages:complianceMonitoring')}</Link>
      </Text>
    </Stack>
  );
}
