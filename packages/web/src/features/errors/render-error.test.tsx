import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { storeUser } from '../../session/storage';
import { renderPortal, startMsw } from '../../testing/portal';

// A page that fails while rendering, as any screen might.
vi.mock('../account/notification-settings-page', () => ({
  NotificationSettingsForm: () => {
    throw new Error('render failed');
  },
}));

startMsw();

describe('a render error', () => {
  it('lands on /error-page, which offers the login page (through /logout) and the homepage', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    storeUser({ token: 'session-token', user: { email: 'partner@example.com', role: 'partner' } });
    const { path } = await renderPortal('/account/settings');
    await waitFor(() => expect(path()).toBe('/error-page'));
    expect(await screen.findByTestId('error-page')).toBeTruthy();
    expect(screen.getByRole('link', { name: en.errors.goToLogin }).getAttribute('href')).toBe('/logout');
    expect(screen.getByRole('link', { name: en.errors.goToHomepage }).getAttribute('href')).toBe('/');
  });
});
