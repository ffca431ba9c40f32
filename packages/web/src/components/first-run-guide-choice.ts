/**
 * Whether a user chose to hide the overview's first-run guide or to show it again (from the help
 * center), per user and organisation, in local storage under one key. Without a choice the guide
 * shows while a setup step is left. A preference, not cached data: logout removes the session's own
 * keys and the saved answers, and leaves this, so a guide hidden stays hidden at the next sign-in.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useSession } from '../session/context';
import { useWorker } from '../session/use-worker';

export const FIRST_RUN_GUIDE_KEY = 'firstRunGuide';

/** `hidden`: the user closed the guide; `shown`: the user asked for it again, done or not. */
export type FirstRunGuideChoice = 'hidden' | 'shown';

const listeners = new Set<() => void>();

function readAll(): Record<string, FirstRunGuideChoice> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(FIRST_RUN_GUIDE_KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, FirstRunGuideChoice>) : {};
  } catch {
    return {};
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === FIRST_RUN_GUIDE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The key of one user's choice for one organisation. */
function choiceScope(email: string, organisationId: string) {
  return `${email.toLowerCase()}\u0000${organisationId}`;
}

function readFirstRunGuideChoice(scope: string): FirstRunGuideChoice | undefined {
  const choice = readAll()[scope];
  return choice === 'hidden' || choice === 'shown' ? choice : undefined;
}

function writeFirstRunGuideChoice(scope: string, choice: FirstRunGuideChoice) {
  localStorage.setItem(FIRST_RUN_GUIDE_KEY, JSON.stringify({ ...readAll(), [scope]: choice }));
  for (const listener of listeners) listener();
}

/** The signed-in user's choice for the selected organisation, and a setter. */
export function useFirstRunGuideChoice() {
  const { context } = useSession();
  const worker = useWorker();
  const scope = choiceScope(context.user?.user.email ?? '', worker?.clientId ?? '');
  const choice = useSyncExternalStore(
    subscribe,
    () => readFirstRunGuideChoice(scope),
    () => undefined,
  );
  const choose = useCallback((next: FirstRunGuideChoice) => writeFirstRunGuideChoice(scope, next), [scope]);
  return [choice, choose] as const;
}
