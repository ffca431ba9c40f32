import { Button, Dialog, List, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markTrialDialogSeen, readWorker, trialDialogSeen } from '../session/storage';

/**
 * Shown once per session to each trial organisation, listing the trial limits: a partner switching
 * between clients sees it once for each trial client; logout clears what was seen.
 */
export function TrialDialog() {
  const { t } = useTranslation('trial');
  const [worker] = useState(readWorker);
  const [open, setOpen] = useState(() => worker?.cloud_portal_license === 'trial' && !trialDialogSeen(worker.workerId));
  const close = () => {
    if (worker) markTrialDialogSeen(worker.workerId);
    setOpen(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(e) => (e.open ? setOpen(true) : close())} role="alertdialog">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="trial-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text mb="3">{t('intro')}</Text>
              <List.Root gap="1" ps="5">
                <List.Item>{t('jobs')}</List.Item>
                <List.Item>{t('sources')}</List.Item>
                <List.Item>{t('edit')}</List.Item>
                <List.Item>{t('noDelete')}</List.Item>
                <List.Item>{t('restores')}</List.Item>
              </List.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="blue" onClick={close}>
                {t('ok')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
