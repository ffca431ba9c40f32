import { Button, Dialog, List, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markTrialDialogSeen, readWorker, trialDialogSeen } from '../session/storage';

/** Shown once to a trial organisation, listing the trial limits; logout clears the seen flag. */
export function TrialDialog() {
  const { t } = useTranslation('trial');
  const [open, setOpen] = useState(() => readWorker()?.cloud_portal_license === 'trial' && !trialDialogSeen());
  const close = () => {
    markTrialDialogSeen();
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
