import { englishErrorMessages, germanErrorMessages } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { readStoredUser, storeUser } from '../../session/storage';
import { testClient } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const user = { email: 'adele@contoso.example', role: 'admin' as const };
const offered = respond('legacy.auth.signInOptions', { microsoft: true });
const AUTHORIZE = 'https://login.example/tenant/oauth2/v2.0/authorize?client_id=app';

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('"Sign in with Microsoft" on the sign-in page', () => {
  it('is not shown when the server does not offer it', async () => {
    await renderPortal('/signin', {
      'legacy.auth.signInOptions': respond('legacy.auth.signInOptions', { microsoft: false }),
    });
    await screen.findByRole('button', { name: en.auth.signIn });
    await waitFor(() => expect(screen.queryByTestId('microsoft-sign-in')).toBeNull());
  });

  it('asks for the address first, then sends the browser to the authorization URL with the return path kept', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    let sent: unknown;
    const { user: u } = await renderPortal('/signin?redirect=%2Freports', {
      'legacy.auth.signInOptions': offered,
      'legacy.auth.microsoftStart': async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ authorizationUrl: AUTHORIZE });
      },
    });
    const button = await screen.findByRole('button', { name: en.auth.withMicrosoft });
    await u.click(button);
    expect(screen.getAllByText(en.validation.required).length).toBeGreaterThan(0);
    expect(screen.getByText(en.auth.microsoftNeedsEmail)).toBeTruthy();
    expect(sent).toBeUndefined();
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(AUTHORIZE));
    expect(sent).toEqual({ email: user.email });
    expect(sessionStorage.getItem('portal.microsoftReturnTo')).toBe('/reports');
  });

  it('says why it cannot start, in English and in German', async () => {
    const notAvailable = {
      'legacy.auth.signInOptions': offered,
      'legacy.auth.microsoftStart': () =>
        refuse(400, { message: 'Sign in with Microsoft is not turned on.', code: 'entraNotAvailable' }),
    } as const;
    const first = await renderPortal('/signin', notAvailable);
    await first.user.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await first.user.click(await screen.findByRole('button', { name: en.auth.withMicrosoft }));
    expect(await screen.findByText(englishErrorMessages.entraNotAvailable)).toBeTruthy();
    first.view.unmount();

    localStorage.setItem('language', 'de');
    const second = await renderPortal('/signin', notAvailable);
    await second.user.type(screen.getByLabelText(de.auth.email, { exact: false }), user.email);
    await second.user.click(await screen.findByRole('button', { name: de.auth.withMicrosoft }));
    expect(await screen.findByText(germanErrorMessages.entraNotAvailable)).toBeTruthy();
  });
});

describe('/signin/microsoft, where the identity platform returns', () => {
  it('redeems the code and signs in, back where the user was going', async () => {
    sessionStorage.setItem('portal.microsoftReturnTo', '/reports');
    let sent: unknown;
    const { path } = await renderPortal('/signin/microsoft?code=the-code&state=the-state&session_state=x', {
      'legacy.auth.microsoftComplete': async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ token: 'session-token', user });
      },
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
    });
    await waitFor(() => expect(path()).toBe('/reports'));
    expect(sent).toEqual({ code: 'the-code', state: 'the-state' });
    expect(readStoredUser()?.token).toBe('session-token');
    expect(sessionStorage.getItem('portal.microsoftReturnTo')).toBeNull();
  });

  it.each([
    ['en', 'entraOtherTenant', englishErrorMessages, en],
    ['de', 'entraOtherTenant', germanErrorMessages, de],
    ['en', 'entraBadSignature', englishErrorMessages, en],
    ['de', 'entraReplayed', germanErrorMessages, de],
  ] as const)('shows a refusal in %s (%s) and the way back', async (language, code, messages, texts) => {
    localStorage.setItem('language', language);
    const { path } = await renderPortal('/signin/microsoft?code=c&state=s', {
      'legacy.auth.microsoftComplete': () => refuse(400, { message: 'refused', code }),
    });
    expect(await screen.findByText(messages[code])).toBeTruthy();
    expect(screen.getByRole('heading', { name: texts.auth.microsoftFailed })).toBeTruthy();
    expect(screen.getByRole('link', { name: texts.auth.backToSignIn }).getAttribute('href')).toBe('/signin');
    expect(path()).toBe('/signin/microsoft');
    expect(readStoredUser()).toBeNull();
  });

  it('finishes the confirming sign-in of a signed-in member and goes back to the settings with the new session', async () => {
    storeUser({ token: 'old-session', user });
    sessionStorage.setItem('portal.microsoftReturnTo', '/account/settings?tab=security');
    const { path } = await renderPortal('/signin/microsoft?code=the-code&state=the-state', {
      'legacy.auth.microsoftComplete': () => HttpResponse.json({ token: 'new-session', user }),
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
    });
    await waitFor(() => expect(path()).toBe('/account/settings'));
    expect(readStoredUser()?.token).toBe('new-session');
  });

  it('keeps the signed-in session when the confirming sign-in is refused, with the way back to the portal', async () => {
    storeUser({ token: 'old-session', user });
    sessionStorage.setItem('portal.microsoftReturnTo', '/account/settings?tab=security');
    localStorage.setItem('language', 'de');
    const { path } = await renderPortal('/signin/microsoft?code=c&state=s', {
      'legacy.auth.microsoftComplete': () => refuse(409, { message: 'taken', code: 'entraTenantTaken' }),
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
    });
    expect(await screen.findByText(germanErrorMessages.entraTenantTaken)).toBeTruthy();
    expect(screen.getByRole('link', { name: de.auth.backToPortal }).getAttribute('href')).toBe(
      '/account/settings?tab=security',
    );
    expect(path()).toBe('/signin/microsoft');
    expect(readStoredUser()?.token).toBe('old-session');
  });

  it('sends a signed-in member who opens it without a code to the portal', async () => {
    storeUser({ token: 'old-session', user });
    const { path } = await renderPortal('/signin/microsoft', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
    });
    await waitFor(() => expect(path()).toBe('/'));
  });

  it("shows the identity platform's own refusal without its trace", async () => {
    await renderPortal(
      '/signin/microsoft?error=access_denied&error_description=AADSTS65004%3A+User+declined+to+consent.+Trace+ID%3A+abc',
    );
    expect(
      await screen.findByText(
        en.auth.microsoftCancelled.replace('{{reason}}', 'AADSTS65004: User declined to consent.'),
      ),
    ).toBeTruthy();
  });
});
