import { Button, CloseButton, chakra, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OfflineNote } from '../../offline/offline-note';
import { useOnline } from '../../offline/online';

/**
 * A form in a dialog: title and an optional line under it, the form,
 * what goes beside it (`aside`: help with controls of its own, outside the form so that Enter in them
 * does not submit it), a first button (Cancel unless given) and the submit button. As tall as its
 * content up to the window's height less its margins, the form scrolling inside beyond that (a wizard's
 * steps each take their own height); full screen on phones (below 600 px).
 */
export function FormDialog({
  title,
  subtitle,
  formId,
  onSubmit,
  submitLabel,
  submitPalette = 'blue',
  pending,
  pendingLabel,
  cancel,
  onClose,
  children,
  aside,
}: {
  title: string;
  subtitle?: ReactNode;
  formId: string;
  onSubmit: () => void;
  submitLabel: string;
  submitPalette?: string;
  pending?: boolean;
  /** What the submit button says while pending (its spinner alone unless given). */
  pendingLabel?: string;
  /** The first button; Cancel (closing the dialog) unless given. */
  cancel?: { label: string; onClick: () => void };
  onClose: () => void;
  children: ReactNode;
  aside?: ReactNode;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const offlineId = `${formId}-offline`;
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      size={{ base: 'full', sm: 'xl' }}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {/* Full screen on phones only: the `full` size's height, margin and corners would outlive it. A
              tablet's window keeps a margin either side. */}
          <Dialog.Content
            minH={{ base: '100dvh', sm: 'auto' }}
            maxW={{ sm: 'min(56rem, calc(100dvw - 2rem))' }}
            my={{ base: '0', sm: 'var(--dialog-base-margin)' }}
            borderRadius={{ base: '0', sm: 'l3' }}
          >
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
              <Dialog.Title>{title}</Dialog.Title>
              {subtitle}
            </Dialog.Header>
            <Dialog.Body>
              <chakra.form
                id={formId}
                // The form's own messages, translated, rather than the browser's.
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  onSubmit();
                }}
              >
                {children}
              </chakra.form>
              {aside}
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <OfflineNote id={offlineId} />
              <Button variant="outline" onClick={cancel?.onClick ?? onClose}>
                {cancel?.label ?? t('common:cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette={submitPalette}
                loading={pending}
                loadingText={pendingLabel}
                disabled={!online}
                aria-describedby={online ? undefined : offlineId}
              >
                {submitLabel}
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
