import { CloseButton, Drawer, HStack, Portal, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { JobRun } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { StatusBadge } from '../../components/ui/status-badge';
import { isRunActive } from './api/queries';
import { RunAccountsTable } from './run-accounts';

/** One run of the monitor in a drawer: its progress, figures, message and accounts (polled while it runs). */
export function RunDetail({ tenantId, run, onClose }: { tenantId: string; run: JobRun; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{run.jobName}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <HStack gap="3">
                  <StatusBadge status={run.status} warnings={run.itemsFailed > 0} />
                  <Progress.Root value={run.progress} size="sm" flex="1" aria-label={t('backup:columns.progress')}>
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                  <Text fontSize="sm">{run.progress}%</Text>
                </HStack>
                <SimpleGrid columns={2} gap="2" fontSize="sm">
                  <Text color="fg.muted">{t('backup:columns.started')}</Text>
                  <Text>{formatDateTime(run.started, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.finished')}</Text>
                  <Text>{formatDateTime(run.finished, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.items')}</Text>
                  <Text>{formatNumber(run.itemsProcessed, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.failures')}</Text>
                  <Text>{formatNumber(run.itemsFailed, lang)}</Text>
                  <Text color="fg.muted">{t('figures:bytesRead.short')}</Text>
                  <Text>{formatBytes(run.bytesProcessed, lang)}</Text>
                </SimpleGrid>
                {run.message ? (
                  <Text color="fg.error" fontSize="sm">
                    {run.message}
                  </Text>
                ) : null}
                <RunAccountsTable
                  label={t('backup:runAccounts')}
                  tenantId={tenantId}
                  from="monitoring"
                  reportId={run.reportId}
                  poll={isRunActive(run)}
                />
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
