import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from './machine';
import { ACTIVITY_THROTTLE_MS, connectSession } from './runtime';

function actorSpy() {
  const events: string[] = [];
  const actor = createActor(
    sessionMachine.provide({
      actors: { logoutApi: fromPromise(async () => {}) },
      actions: {
        persistUser: () => {},
        clearUserData: () => events.push('clearUserData'),
        clearTrialDialogFlag: () => {},
        writeLogoutMarker: () => {},
        clearAllCookies: () => {},
        navigate: (_, p) => events.push(`navigate:${p.to}`),
        showError: () => {},
        showInactivityWarning: () => {},
        dismissInactivityWarning: () => {},
        logLogoutFailure: () => {},
      },
      guards: { notOnSignin: () => true },
    }),
    { input: { storedUser: { token: 't', user: { email: 'a@b.example', role: 'admin' } } } },
  );
  actor.start();
  return { actor, events };
}

afterEach(() => vi.useRealTimers());

describe('connectSession', () => {
  it('logs out when another tab writes the logout marker', () => {
    const { actor, events } = actorSpy();
    const stop = connectSession(actor);
    window.dispatchEvent(new StorageEvent('storage', { key: 'logout', newValue: String(Date.now()) }));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(events).toEqual(['clearUserData', 'navigate:/logout']);
    stop();
  });

  it("shares this tab's activity through local storage, throttled, and hears the other tabs'", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-02T08:00:00Z'));
    const { actor } = actorSpy();
    const stop = connectSession(actor);
    document.body.click();
    const first = Number(localStorage.getItem('lastActivity'));
    expect(first).toBe(Date.now());
    vi.advanceTimersByTime(ACTIVITY_THROTTLE_MS - 1);
    document.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first);
    vi.advanceTimersByTime(1);
    document.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first + ACTIVITY_THROTTLE_MS);

    window.dispatchEvent(new StorageEvent('storage', { key: 'lastActivity', newValue: String(Date.now() + 1000) }));
    expect(actor.getSnapshot().context.lastActivity).toBe(Date.now() + 1000);
    stop();
    document.body.click();
    vi.advanceTimersByTime(ACTIVITY_THROTTLE_MS * 2);
    document.body.click();
    expect(Number(localStorage.getItem('lastActivity'))).toBe(first + ACTIVITY_THROTTLE_MS);
  });
});
