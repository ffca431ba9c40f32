import { useMemo, useSyncExternalStore } from 'react';
import { readWorker, storedWorkerText, subscribeWorker } from './storage';

/** The selected customer worker, re-read whenever it is chosen or cleared. */
export function useWorker() {
  const text = useSyncExternalStore(subscribeWorker, storedWorkerText, () => null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cookie text is the worker's identity.
  return useMemo(() => readWorker(), [text]);
}
