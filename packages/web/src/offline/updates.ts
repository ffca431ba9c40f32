/**
 * A new version of the portal waiting to take over: the service worker registration offers it here,
 * the update prompt shows it and applies it. Kept apart from the registration so screens and tests
 * need no service worker.
 */
type Apply = () => Promise<void>;

let waiting: Apply | null = null;
let dismissed = false;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export const appUpdate = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Whether the prompt is to be shown. */
  pending(): boolean {
    return waiting !== null && !dismissed;
  },
  /** The registration found a new version; `apply` lets it take over and reloads the page. */
  offer(apply: Apply) {
    waiting = apply;
    dismissed = false;
    notify();
  },
  async accept() {
    const apply = waiting;
    waiting = null;
    notify();
    await apply?.();
  },
  /** Later: the prompt goes until the next version is found (or the next visit). */
  dismiss() {
    dismissed = true;
    notify();
  },
};
