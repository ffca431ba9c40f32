import { refuse } from '@compliance-portal/sdk/testing';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';
import { renderSignIn } from './prerender';
import { findPrerenderedSignIn, resetPrerenderedSignIn } from './prerendered';

startMsw();
restoreOnline();

describe('the sign-in page prerendered at build time', () => {
  it('is the page in the language asked for, its form marked as prerendered', async () => {
    for (const [language, texts] of [
      ['en', en],
      ['de', de],
    ] as const) {
      const html = await renderSignIn(language);
      const page = document.createElement('div');
      page.innerHTML = html;
      expect(page.querySelector('h1')?.textContent).toBe(texts.auth.signInTitle);
      expect(page.querySelector('form')?.hasAttribute('data-prerendered')).toBe(true);
      expect(page.querySelector('input[name="email"]')?.getAttribute('autocomplete')).toBe('username');
      expect(page.querySelector('a[href="/forgot-password"]')?.textContent).toBe(texts.auth.forgotPasswordLink);
      expect(page.querySelector<HTMLSelectElement>('[data-testid="language-switch"]')?.value).toBe(language);
      // The offer to sign up is there, its line kept but invisible until the boot script learns
      // whether sign-up is open (the browser test sees it shown, and taken out when closed).
      const offer = page.querySelector<HTMLElement>('[data-sign-up]');
      expect(offer?.hidden).toBe(false);
      expect(offer?.textContent).toBe(`${texts.auth.noAccount} ${texts.auth.createAccount}`);
      expect(offer?.querySelector('a[href="/signup"]')?.textContent).toBe(texts.auth.createAccount);
    }
  });
});

describe('the sign-in page after the prerendered one', () => {
  // As the boot script puts it into #root.
  const prerendered = document.createElement('div');
  prerendered.id = 'root';
  afterEach(() => {
    prerendered.remove();
    resetPrerenderedSignIn();
  });

  function typeIntoPrerendered(email: string, password: string, submitted: boolean, language = 'en') {
    prerendered.innerHTML = `<header><select><option value="en">English</option><option value="de">Deutsch</option></select></header><form data-prerendered ${submitted ? 'data-submitted' : ''}><input name="email"><input name="password" type="password"></form>`;
    const select = prerendered.querySelector('select');
    if (select) select.value = language;
    document.body.append(prerendered);
    const [emailInput, passwordInput] = prerendered.querySelectorAll('input');
    if (!emailInput || !passwordInput) throw new Error('no inputs');
    emailInput.value = email;
    passwordInput.value = password;
    passwordInput.focus();
    resetPrerenderedSignIn();
  }

  /** Renders /signin, whose sign-in is refused; what the app sent to sign in, once it says so. */
  async function signInSent(): Promise<unknown> {
    let sent: unknown;
    await renderPortal('/signin', {
      'legacy.auth.signin': async ({ request }) => {
        sent = await request.json();
        return refuse(401, { message: 'Invalid credentials.', code: 'invalidCredentials' });
      },
    });
    expect((await screen.findByTestId('signin-error')).textContent).toBe(en.auth.invalidCredentials);
    return sent;
  }

  it('keeps what was typed into it and the focus', async () => {
    typeIntoPrerendered('admin@contoso.example', 'typed early', false);
    await renderPortal('/signin');
    // In the browser, React's first render replaces it.
    prerendered.remove();
    const email = await screen.findByDisplayValue('admin@contoso.example');
    expect(email.getAttribute('name')).toBe('email');
    const password = screen.getByDisplayValue('typed early');
    expect(password.closest('form')?.hasAttribute('data-prerendered')).toBe(false);
    expect(document.activeElement).toBe(password);
    // The page's own fields, not the prerendered ones.
    expect(screen.getByLabelText(en.auth.password, { exact: false })).toBe(password);
  });

  it('gives the focus to the field focused when it is replaced, not when the app began to render', async () => {
    typeIntoPrerendered('admin@contoso.example', '', false);
    const [emailInput, passwordInput] = prerendered.querySelectorAll('input');
    emailInput?.focus();
    // The app's first render (a transition) finds the page with the email field focused and yields;
    // meanwhile the password field is focused, and what is typed next must go there.
    findPrerenderedSignIn();
    passwordInput?.focus();
    await renderPortal('/signin');
    prerendered.remove();
    await screen.findByDisplayValue('admin@contoso.example');
    const password = screen.getByLabelText(en.auth.password, { exact: false });
    expect(password.closest('form')?.hasAttribute('data-prerendered')).toBe(false);
    expect(document.activeElement).toBe(password);
  });

  it('signs in with what was typed when it was submitted before the app was there', async () => {
    typeIntoPrerendered('admin@contoso.example', 'Passw0rd!', true);
    expect(await signInSent()).toEqual({ email: 'admin@contoso.example', password: 'Passw0rd!' });
  });

  it('signs in with what was submitted into it when #root was cleared before the page rendered', async () => {
    typeIntoPrerendered('admin@contoso.example', 'Early-Passw0rd!', true);
    // As the boot script keeps it; then a first commit of something else removes it from the document.
    const kept = window as { prerenderedSignIn?: Element | null };
    kept.prerenderedSignIn = prerendered.querySelector('form');
    prerendered.remove();
    try {
      expect(await signInSent()).toEqual({ email: 'admin@contoso.example', password: 'Early-Passw0rd!' });
    } finally {
      kept.prerenderedSignIn = undefined;
    }
  });

  it('switches to the language chosen in it', async () => {
    typeIntoPrerendered('', '', false, 'de');
    // The app starts in English: the language was chosen only in the prerendered page.
    expect(localStorage.getItem('language')).toBeNull();
    await renderPortal('/signin');
    prerendered.remove();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(de.auth.signInTitle));
    expect(localStorage.getItem('language')).toBe('de');
  });
});
