/**
 * The toasts themselves (Chakra's toaster and its store), loaded after the first screen: ./toaster
 * hands over whatever was shown before.
 */
import { Toaster as ChakraToaster, createToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { attachToaster } from './toaster';

const store = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 5 });
attachToaster(store);

export function Toaster() {
  const { t } = useTranslation();
  return (
    <Portal>
      <ChakraToaster toaster={store} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root
            width={{ md: 'sm' }}
            role={toast.type === 'error' || toast.type === 'warning' ? 'alert' : 'status'}
          >
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title ? <Toast.Title>{toast.title}</Toast.Title> : null}
              {toast.description ? <Toast.Description opacity={1}>{toast.description}</Toast.Description> : null}
            </Stack>
            {/* An icon: named in the portal's language (the library's own name is English). */}
            {toast.closable ? <Toast.CloseTrigger aria-label={t('common:close')} /> : null}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
