import { cleanup, configure } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import { clearAllCookies } from '../session/storage';
import { takeTwinButtons, watchTwinButtons } from './twin-buttons';

// A screen found by findBy… or waitFor within 15 s rather than Testing Library's 1 s: a whole portal route
// rendered in jsdom takes about 0.3 s on an idle 2-core machine, but more than 1 s with the machine busy
// (the mailboxes list's first row missed the 1 s in two runs of three at a load of 5), and pnpm test runs
// this suite beside the browser tests (loads of 5 to 7). A screen that never comes still fails, 14 s later.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no scrolling; the router restores scroll positions.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// A dialog's button named as the page's button that opened it, both on the screen (twin-buttons.ts).
watchTwinButtons();

afterEach(() => {
  const twins = takeTwinButtons();
  cleanup();
  localStorage.clear();
  clearAllCookies();
  expect(twins, 'buttons a person sees twice on one screen').toEqual([]);
});
