import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { OfflineNote } from '../../offline/offline-note';
import { useOnline } from '../../offline/online';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red confirm button: the action removes or stops something. */
  destructive?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before an action takes effect; Escape and Cancel leave everything as it was. The focus starts
 * on Cancel, the safe choice, so that Enter alone changes nothing.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  const online = useOnline();
  const offlineId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      open={props.open}
      role="alertdialog"
      initialFocusEl={() => cancelRef.current}
      onOpenChange={(e) => {
        if (!e.open) props.onCancel();
      }}
      placement="center"
      // As tall as what it asks about, a long list scrolling inside within the window.
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            {/* Room for the close button beside a long title. */}
            <Dialog.Header pe="12">
              <Dialog.Title>{props.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {typeof props.children === 'string' ? <Text>{props.children}</Text> : props.children}
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <OfflineNote id={offlineId} />
              <Button ref={cancelRef} variant="outline" onClick={props.onCancel}>
                {t('common:cancel')}
              </Button>
              <Button
                colorPalette={props.destructive ? 'red' : 'blue'}
                loading={props.pending}
                disabled={!online}
                aria-describedby={online ? undefined : offlineId}
                onClick={props.onConfirm}
                data-testid="confirm"
              >
                {props.confirmLabel}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
