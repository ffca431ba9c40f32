import type { PortalClient } from '@compliance-portal/sdk';
import { partialMatchKey, type QueryClient } from '@tanstack/react-query';
import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { isAuthenticated } from '../session/machine';
import type { SessionActor } from '../session/runtime';
import { readWorker, storeWorker, toStoredWorker } from '../session/storage';
import type { StoredWorker } from '../session/types';
import { sharedKeys } from '../shared/api/keys';

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
 *
 * A link that names a client (`client`, as the notification mails' links do) opens its page as that
 * client when the user may act for it: its worker becomes the selected one and what was cached for
 * the previous client goes, as when the client is chosen in the portal. The parameter then leaves
 * the address; a client the user may not act for changes nothing.
 *
 * Answers the selected worker, which the `_worker` route gives its loaders in the router context.
 */
export async function requireWorker(
  session: SessionActor,
  api: PortalClient,
  queryClient?: QueryClient,
  location?: Pick<ParsedLocation, 'pathname' | 'searchStr' | 'hash'>,
): Promise<StoredWorker> {
  const wanted = location ? new URLSearchParams(location.searchStr).get('client') : null;
  if (wanted && location) {
    if (readWorker()?.clientId !== wanted) {
      const client = (await api.legacy.workers.clients()).find((c) => c.clientId === wanted);
      if (client && storeWorker(client.worker)) {
        // Everything cached belongs to the previous client; the partner's own client lists stay.
        queryClient?.removeQueries({ predicate: (q) => !partialMatchKey(q.queryKey, sharedKeys.clients()) });
      }
    }
    const rest = new URLSearchParams(location.searchStr);
    rest.delete('client');
    const search = rest.toString();
    throw redirect({
      href: `${location.pathname}${search ? `?${search}` : ''}${location.hash ? `#${location.hash}` : ''}`,
      replace: true,
    });
  }
  const selected = readWorker();
  if (selected) return selected;
  const role = session.getSnapshot().context.user?.user.role;
  if (role !== 'admin') throw redirect({ to: '/partner-setup' });
  const client = await api.legacy.workers.client();
  return storeWorker(client.worker) ?? toStoredWorker(client.worker);
}

export function requireRole(session: SessionActor, roles: readonly string[]) {
  const role = session.getSnapshot().context.user?.user.role;
  if (!role || !roles.includes(role)) throw redirect({ to: '/' });
}
