import type { PortalClient } from '@compliance-portal/sdk';
import { redirect } from '@tanstack/react-router';
import { isAuthenticated } from '../session/machine';
import type { SessionActor } from '../session/runtime';
import { readWorker, storeWorker } from '../session/storage';

/** An unauthenticated user goes to /signin and comes back here after signing in. */
export function requireSignedIn(session: SessionActor, href: string) {
  const snapshot = session.getSnapshot();
  if (!isAuthenticated(snapshot.value) || !snapshot.context.user) {
    throw redirect({ to: '/signin', search: { redirect: href } });
  }
  return snapshot.context.user;
}

/**
 * Without a selected customer worker the pages are not reachable: a customer administrator's own
 * worker is selected for them; a partner or operator chooses a client first.
 */
export async function requireWorker(session: SessionActor, api: PortalClient) {
  if (readWorker()) return;
  const role = session.getSnapshot().context.user?.user.role;
  if (role !== 'admin') throw redirect({ to: '/partner-setup' });
  const client = await api.legacy.workers.client();
  storeWorker(client.worker);
}

export function requireRole(session: SessionActor, roles: readonly string[]) {
  const role = session.getSnapshot().context.user?.user.role;
  if (!role || !roles.includes(role)) throw redirect({ to: '/' });
}
