import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useCallback, useContext } from 'react';
import { isAuthenticated } from './machine';
import type { SessionActor } from './runtime';

const SessionContext = createContext<SessionActor | null>(null);

export function SessionProvider({ actor, children }: { actor: SessionActor; children: ReactNode }) {
  return <SessionContext.Provider value={actor}>{children}</SessionContext.Provider>;
}

function useSessionActor(): SessionActor {
  const actor = useContext(SessionContext);
  if (!actor) throw new Error('useSessionActor outside SessionProvider');
  return actor;
}

/** The session's state for rendering: what the user sees follows the machine. */
export function useSession() {
  const actor = useSessionActor();
  const snapshot = useSelector(actor, (s) => s);
  return {
    state: snapshot.value,
    context: snapshot.context,
    authenticated: isAuthenticated(snapshot.value),
    matches: (value: Parameters<typeof snapshot.matches>[0]) => snapshot.matches(value),
    send: actor.send,
  };
}

/**
 * Tells the session that this tab changed the organisation's tenants (added, changed, removed,
 * switched): the stored worker is read again, here and in every other tab.
 */
export function useOrganisationChanged(): () => void {
  const actor = useSessionActor();
  return useCallback(() => actor.send({ type: 'session.organisationChanged' }), [actor]);
}
