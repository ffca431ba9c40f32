/**
 * Offline checks for the feature tests: the connection switched as TanStack Query sees it, and a
 * server action's button disabled with the reason while offline (enabled again online).
 */
import { onlineManager } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { afterEach, expect } from 'vitest';

const OFFLINE_REASON = 'Not available offline: this needs the server.';

/** Registers, for the file, that every test ends online again. */
export function restoreOnline() {
  afterEach(() => {
    onlineManager.setOnline(true);
  });
}

export function setOnline(online: boolean) {
  act(() => onlineManager.setOnline(online));
}

/** The button is disabled with the offline reason (offline), or enabled without it (online). */
export function expectServerAction(button: HTMLElement, offline: boolean) {
  expect((button as HTMLButtonElement).disabled, button.textContent ?? '').toBe(offline);
  if (offline) {
    expect(button.getAttribute('title')).toBe(OFFLINE_REASON);
    expect(button.getAttribute('aria-describedby')).toBe('offline-reason');
  } else expect(button.getAttribute('title')).not.toBe(OFFLINE_REASON);
}
