/**
 * The one alert for a failure of Microsoft 365: each cause's own sentence with its remedy in English
 * and German, what names it further (a permission and who needs it, the wait Microsoft asks for, the
 * address not reached), the technical details, and "Copy details" by keyboard with its confirmation,
 * or the details opened to select when the clipboard refuses.
 */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import {
  apiErrorFor,
  englishErrorMessages,
  germanErrorMessages,
  MICROSOFT365_FAILURE_CODES,
  type Microsoft365Failure,
} from '@compliance-portal/sdk';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n, loadLanguage } from '../i18n';
import { M365FailureAlert } from './m365-failure';

const i18n = createI18n('en');
beforeAll(async () => {
  await loadLanguage(i18n, 'en');
  await loadLanguage(i18n, 'de');
});
afterEach(async () => {
  await i18n.changeLanguage('en');
  vi.restoreAllMocks();
});

const show = (props: Parameters<typeof M365FailureAlert>[0]) =>
  render(
    <ChakraProvider value={defaultSystem}>
      <I18nextProvider i18n={i18n}>
        <M365FailureAlert {...props} />
      </I18nextProvider>
    </ChakraProvider>,
  );

const context = { method: 'GET', url: 'http://portal.test/apollo-beta/api/t/discovery/l/users', disableToast: true };
/** A 502 as the server answers a failure of Microsoft 365, with the portal's request id. */
const refusal = (microsoft365: Microsoft365Failure) =>
  apiErrorFor(
    502,
    { title: 'Bad Gateway', status: 502, code: microsoft365.code, microsoft365, traceId: 'req-portal-1' },
    context,
    { get: (name: string) => (name === 'request-id' ? 'req-portal-1' : null) },
  );

describe('a failure of Microsoft 365', () => {
  it('says each cause in its own sentence, in English and in German', async () => {
    const seen = { en: new Set<string>(), de: new Set<string>() };
    for (const code of MICROSOFT365_FAILURE_CODES) {
      const { unmount } = show({ title: 'The OneDrive accounts could not be loaded.', failure: { code } });
      const alert = screen.getByRole('alert', { name: 'The OneDrive accounts could not be loaded.' });
      expect(alert.getAttribute('data-cause')).toBe(code);
      const cause = within(alert).getByTestId('m365-cause');
      expect(cause.textContent).toBe(englishErrorMessages[code]);
      seen.en.add(cause.textContent ?? '');
      await i18n.changeLanguage('de');
      expect(await within(alert).findByText(germanErrorMessages[code])).toBeTruthy();
      seen.de.add(germanErrorMessages[code]);
      await i18n.changeLanguage('en');
      unmount();
    }
    expect(seen.en.size).toBe(MICROSOFT365_FAILURE_CODES.length);
    expect(seen.de.size).toBe(MICROSOFT365_FAILURE_CODES.length);
  });

  it('names the permission missing and every area needing it, how long to wait, and the address not reached', async () => {
    const { unmount } = show({
      title: 'The mailboxes could not be loaded.',
      failure: {
        code: 'm365PermissionMissing',
        status: 403,
        missingPermissions: [{ permission: 'User.Read.All', areas: ['backup', 'mailArchive'] }],
      },
    });
    expect(screen.getByRole('listitem').textContent).toBe('Missing: User.Read.All, needed by Backup and Mail archive.');
    await i18n.changeLanguage('de');
    expect(await screen.findByText('Es fehlt: User.Read.All, benötigt für Sicherung und E-Mail-Archiv.')).toBeTruthy();
    await i18n.changeLanguage('en');
    unmount();

    const throttled = show({ title: 'x', failure: { code: 'm365Throttled', status: 429, retryAfter: 30 } });
    expect(screen.getByText('Microsoft asks to wait 30 seconds before the next try.')).toBeTruthy();
    throttled.unmount();
    const long = show({ title: 'x', failure: { code: 'm365Throttled', retryAfter: 600 } });
    expect(screen.getByText('Microsoft asks to wait 10 minutes before the next try.')).toBeTruthy();
    long.unmount();

    const dns = show({ title: 'x', failure: { code: 'm365HostNotFound', error: 'ENOTFOUND', host: 'login.example' } });
    expect(screen.getByText('Address: login.example')).toBeTruthy();
    dns.unmount();
    // An address says nothing about a refused secret.
    show({ title: 'x', failure: { code: 'm365SecretWrong', host: 'login.example', aadsts: 'AADSTS7000215' } });
    expect(screen.queryByText('Address: login.example')).toBeNull();
  });

  it('copies Microsoft’s ids and the portal’s request id by keyboard, and confirms it', async () => {
    // user-event puts a clipboard of its own in the page; what is written there is read back.
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const retried = vi.fn();
    show({
      title: 'The connection to contoso.onmicrosoft.com failed.',
      error: refusal({
        code: 'm365SecretExpired',
        status: 401,
        aadsts: 'AADSTS7000222',
        error: 'invalid_client',
        requestId: 'ms-req-7',
        clientRequestId: 'client-req-7',
        correlationId: 'corr-7',
        traceId: 'trace-7',
        timestamp: '2026-11-28 19:57:10Z',
      }),
      onRetry: retried,
    });
    const copy = screen.getByRole('button', { name: 'Copy details' });
    // Keyboard only: Tab to "Try again", then to "Copy details", then Enter.
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Try again');
    await user.keyboard('{Enter}');
    expect(retried).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(document.activeElement).toBe(copy);
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledTimes(1);
    const copied = await navigator.clipboard.readText();
    expect(copied.split('\n')).toEqual([
      'Microsoft 365 failure: The connection to contoso.onmicrosoft.com failed.',
      englishErrorMessages.m365SecretExpired,
      'Cause: m365SecretExpired',
      'HTTP status: 401',
      'AADSTS code: AADSTS7000222',
      'Error code: invalid_client',
      'Request ID: ms-req-7',
      'Client request ID: client-req-7',
      'Correlation ID: corr-7',
      'Trace ID: trace-7',
      'Time at Microsoft: 2026-11-28 19:57:10Z',
      'Portal HTTP status: 502',
      'Portal request ID: req-portal-1',
    ]);
    expect(screen.getByRole('status').textContent).toBe('Details copied. Paste them into your request to support.');
  });

  it('opens the details to be selected when the clipboard refuses', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    const { container } = show({
      title: 'x',
      failure: { code: 'm365TlsFailed', error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', host: 'graph.example' },
    });
    const details = container.querySelector('details');
    expect(details?.open).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Copy details' }));
    expect(await screen.findByText(/could not be copied/)).toBeTruthy();
    expect(details?.open).toBe(true);
    expect(within(details as HTMLElement).getByText('UNABLE_TO_VERIFY_LEAF_SIGNATURE')).toBeTruthy();
  });

  it('says a failure of the portal itself in the catalogue’s words, with its request id', () => {
    show({
      title: 'The teams could not be loaded.',
      error: apiErrorFor(500, { title: 'Internal', status: 500 }, context, {
        get: (name: string) => (name === 'request-id' ? 'req-9' : null),
      }),
    });
    const alert = screen.getByRole('alert', { name: 'The teams could not be loaded.' });
    expect(alert.getAttribute('data-cause')).toBe('none');
    expect(within(alert).getByTestId('m365-cause').textContent).toBe('Internal server error');
    expect(within(alert).getByText('req-9')).toBeTruthy();
  });
});
