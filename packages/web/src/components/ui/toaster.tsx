/**
 * Toasts for the whole portal. The toaster's code (./toaster-view) loads after the first screen so
 * that sign-in does not wait for it; what is shown or dismissed before then is handed over in order.
 */

/** Toasts show at the top right and close by themselves after 5000 ms. */
export const TOAST_DURATION_MS = 5000;

export type ToastKind = 'error' | 'warning' | 'success' | 'info';

interface ToastOptions {
  type: ToastKind;
  description: string;
  duration: number;
  closable: boolean;
  id?: string;
}

/** The part of Chakra's toaster store the portal uses. */
export interface ToasterStore {
  create(options: ToastOptions): string;
  dismiss(id?: string): void;
  remove(id?: string): void;
}

let store: ToasterStore | null = null;
const waiting: ((s: ToasterStore) => void)[] = [];

function withStore(call: (s: ToasterStore) => void) {
  if (store) call(store);
  else waiting.push(call);
}

/** Called once by ./toaster-view when it loads. */
export function attachToaster(real: ToasterStore) {
  store = real;
  for (const call of waiting.splice(0)) call(real);
}

export const toaster = {
  dismiss: (id?: string) => withStore((s) => s.dismiss(id)),
  remove: (id?: string) => withStore((s) => s.remove(id)),
};

export function showToast(kind: ToastKind, description: string, options: { id?: string; duration?: number } = {}) {
  withStore((s) =>
    s.create({
      type: kind,
      description,
      duration: options.duration ?? TOAST_DURATION_MS,
      closable: true,
      ...(options.id ? { id: options.id } : {}),
    }),
  );
}
