import { CloseButton, Drawer, HStack, Portal, Stack } from '@chakra-ui/react';
import type { JobRun } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { isRunActive } from './api/queries';
import { RunAccountsTable } from './run-accounts';
import { hasRunActions, RunActions } from './run-actions';
import { RunFigures, RunMessage, RunProgress, RunStatusBadge, ThrottleNote } from './run-status';

/**
 * One run of the monitor in a drawer: its state and progress, Microsoft 365's throttling while it
 * waits, its message in the colour of its status, its figures and its accounts (polled while it runs).
 */
export function RunDetail({ tenantId, run, onClose }: { tenantId: string; run: JobRun; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      // It closes by Escape, its close button or a click beside it, never because focus moved: when a
      // retry hands the drawer over to the new run, the old drawer's content takes focus as it leaves.
      onFocusOutside={(e) => e.preventDefault()}
      size={{ base: 'full', md: 'lg' }}
    >
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
                  <RunStatusBadge run={run} />
                  <RunProgress run={run} label={t('backup:columns.progress')} size="sm" />
                </HStack>
                <ThrottleNote run={run} />
                <RunMessage run={run} />
                <RunFigures run={run} />
                <RunAccountsTable
                  label={t('backup:runAccounts')}
                  tenantId={tenantId}
                  from="monitoring"
                  reportId={run.reportId}
                  poll={isRunActive(run)}
                />
              </Stack>
            </Drawer.Body>
            {/* At the foot, always in view: a toast (top right, as the spec places it) never covers them. */}
            {hasRunActions(run) ? (
              <Drawer.Footer justifyContent="start" borderTopWidth="1px">
                <RunActions run={run} tenantId={tenantId} size="sm" />
              </Drawer.Footer>
            ) : null}
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
