import { Badge, CloseButton, Dialog, Portal, Table, Text } from '@chakra-ui/react';
import type { CleanupRule, DataManagementApplication, FileNode } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDateTime } from '../../../components/ui/format';
import { M365FailureAlert } from '../../../shared/m365-failure';
import { useApi } from '../../../shared/tenant';
import { versionsQuery } from '../api/queries';

/** A file's versions, newest first, with those the rule removes marked. */
export function VersionsDialog({
  tenantId,
  application,
  sourceId,
  file,
  rule,
  onClose,
}: {
  tenantId: string;
  application: DataManagementApplication;
  sourceId: string;
  file: FileNode;
  rule: CleanupRule;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const versions = useQuery(versionsQuery(api, tenantId, application, sourceId, file.nodeId, rule));
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => (e.open ? undefined : onClose())}
      placement="center"
      size="lg"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('dataManagement:versionsOf', { name: file.name })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {versions.isError ? (
                <M365FailureAlert
                  title={t('m365:versions', { name: file.name })}
                  error={versions.error}
                  onRetry={() => void versions.refetch()}
                />
              ) : !versions.data ? (
                <Text aria-busy="true">{t('common:loading')}</Text>
              ) : (
                <Table.ScrollArea tabIndex={0}>
                  <Table.Root size="sm" aria-label={t('dataManagement:versionsOf', { name: file.name })}>
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeader>{t('dataManagement:columns.versions')}</Table.ColumnHeader>
                        <Table.ColumnHeader>{t('dataManagement:columns.modified')}</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">{t('dataManagement:columns.size')}</Table.ColumnHeader>
                        <Table.ColumnHeader />
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {versions.data.map((v) => (
                        <Table.Row key={v.versionId} data-testid="version-row">
                          <Table.Cell>{v.versionId}</Table.Cell>
                          <Table.Cell>{formatDateTime(v.modified, i18n.language)}</Table.Cell>
                          <Table.Cell textAlign="end">{formatBytes(v.sizeBytes, i18n.language)}</Table.Cell>
                          <Table.Cell>
                            {v.current ? (
                              <Badge colorPalette="blue">{t('dataManagement:current')}</Badge>
                            ) : v.eligible ? (
                              <Badge colorPalette="orange">{t('dataManagement:eligibleBadge')}</Badge>
                            ) : (
                              <Badge colorPalette="gray">{t('dataManagement:kept')}</Badge>
                            )}
                          </Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Table.ScrollArea>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
