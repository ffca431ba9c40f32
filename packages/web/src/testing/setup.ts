import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearAllCookies } from '../session/storage';

// jsdom has no scrolling; the router restores scroll positions.
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  clearAllCookies();
});
