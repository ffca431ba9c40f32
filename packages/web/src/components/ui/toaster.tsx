import { Toaster as ChakraToaster, createToaster, Portal, Stack, Toast } from '@chakra-ui/react';

/** Product-spec.md section 9: toasts auto-close after 5000 ms, top-right. */
export const TOAST_DURATION_MS = 5000;

export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 5 });

export type ToastKind = 'error' | 'warning' | 'success' | 'info';

export function showToast(kind: ToastKind, description: string, options: { id?: string; duration?: number } = {}) {
  return toaster.create({
    type: kind,
    description,
    duration: options.duration ?? TOAST_DURATION_MS,
    closable: true,
    ...(options.id ? { id: options.id } : {}),
  });
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
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
            {toast.closable ? <Toast.CloseTrigger /> : null}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
