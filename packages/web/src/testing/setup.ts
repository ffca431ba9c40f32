import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearAllCookies } from '../session/storage';

afterEach(() => {
  cleanup();
  localStorage.clear();
  clearAllCookies();
});
