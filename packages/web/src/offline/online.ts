/**
 * Whether the browser is online, as TanStack Query sees it (queries pause offline and refetch when the
 * connection returns), and the props that disable an action needing the server while offline.
 */
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

/** The element that says why actions are disabled (the offline banner's text). */
export const OFFLINE_REASON_ID = 'offline-reason';

const subscribe = (listener: () => void) => onlineManager.subscribe(() => listener());
const isOnline = () => onlineManager.isOnline();

/**
 * TanStack Query starts online and only follows the `online`/`offline` events; a portal opened
 * without a network must start offline, or its first fetches fail instead of pausing.
 */
export function syncOnlineState() {
  if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

export interface ServerActionProps {
  disabled?: boolean;
  title?: string;
  'aria-describedby'?: string;
}

/**
 * Spread onto a button that needs the server: offline it is disabled, says why on hover and points
 * to the banner's reason. `disabled` combines the caller's own reason to be disabled.
 */
export function useServerAction(disabled = false): ServerActionProps {
  const online = useOnline();
  const { t } = useTranslation('offline');
  if (online) return { disabled };
  return { disabled: true, title: t('actionDisabled'), 'aria-describedby': OFFLINE_REASON_ID };
}
