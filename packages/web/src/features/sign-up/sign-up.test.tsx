import type { ConfirmEmailLinkRequest } from '@compliance-portal/sdk';
import { type EndpointResolver, refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const EMAIL = 'ada@newco.example';
const PASSWORD = 'Fresh-Passw0rd!';
/** Puts `text` into the field at once (typing key by key takes seconds on a busy machine). */
async function enter(u: UserEvent, field: HTMLElement, text: string) {
  await u.click(field);
  await u.paste(text);
}
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

/** A validation problem as apollo /register answers it. */
const problem = (errors: Record<string, string[]>, code?: string) =>
  refuse(400, {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
    ...(code ? { code } : {}),
  });

describe('the offer to sign up on /signin', () => {
  it('is a link to /signup while sign-up is open, and absent when it is closed', async () => {
    const { user: u, path } = await renderPortal('/signin');
    const offer = screen.getByTestId('sign-up-offer');
    expect(offer.textContent).toBe(`${en.auth.noAccount} ${en.auth.createAccount}`);
    await u.click(within(offer).getByRole('link', { name: en.auth.createAccount }));
    await waitFor(() => expect(path()).toBe('/signup'));
    expect(await screen.findByRole('heading', { name: en.signUp.title })).toBeTruthy();
  });

  it('is not there when the server says sign-up is closed', async () => {
    await renderPortal('/signin', {}, { config: { selfRegistration: 'closed' } });
    expect(screen.getByRole('button', { name: en.auth.signIn })).toBeTruthy();
    expect(screen.queryByTestId('sign-up-offer')).toBeNull();
    expect(screen.queryByRole('link', { name: en.auth.createAccount })).toBeNull();
  });

  it('sends /register to /signup', async () => {
    const { path } = await renderPortal('/register');
    await waitFor(() => expect(path()).toBe('/signup'));
    expect(await screen.findByTestId('sign-up-form')).toBeTruthy();
  });

  it('offers the confirmation mail again when the password is right but the address is not confirmed', async () => {
    const { user: u, path } = await renderPortal('/signin', {
      'legacy.auth.signin': () =>
        refuse(403, { message: 'The email address has not been confirmed yet.', code: 'emailNotConfirmed' }),
      'apollo.auth.resendConfirmationMail': respond('apollo.auth.resendConfirmationMail'),
    });
    await enter(u, screen.getByLabelText(en.auth.email, { exact: false }), EMAIL);
    await enter(u, screen.getByLabelText(en.auth.password, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(en.auth.emailNotConfirmed);
    await u.click(screen.getByRole('link', { name: en.auth.resendConfirmation }));
    await waitFor(() => expect(path()).toBe('/signup/check-mail'));
    expect((await screen.findByTestId('check-mail-address')).textContent).toBe(EMAIL);
  });
});

describe('signing up', () => {
  it('sends the address and password, then says where the link went and sends it again on asking', async () => {
    const sent: unknown[] = [];
    const { user: u, path } = await renderPortal('/signup', {
      'apollo.auth.register': async (info) => {
        sent.push(await info.request.clone().json());
        return respond('apollo.auth.register')(info);
      },
      'apollo.auth.resendConfirmationMail': async (info) => {
        sent.push(await info.request.clone().json());
        return respond('apollo.auth.resendConfirmationMail')(info);
      },
    });
    expect(screen.getByText(en.signUp.intro)).toBeTruthy();
    await enter(u, screen.getByLabelText(en.auth.email, { exact: false }), ` ${EMAIL} `);
    await enter(
      u,
      screen.getByLabelText(en.auth.password, { exact: false, selector: 'input[name="password"]' }),
      PASSWORD,
    );
    await enter(u, screen.getByLabelText(en.auth.confirmPassword, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: en.signUp.submit }));

    await waitFor(() => expect(path()).toBe('/signup/check-mail'));
    expect(sent).toEqual([{ email: EMAIL, password: PASSWORD }]);
    expect(screen.getByRole('heading', { name: en.signUp.checkMail.title })).toBeTruthy();
    expect(screen.getByTestId('check-mail-address').textContent).toBe(EMAIL);
    expect(screen.getByText(en.signUp.checkMail.next)).toBeTruthy();
    expect(screen.getByRole('link', { name: en.auth.backToSignIn }).getAttribute('href')).toBe('/signin');

    await u.click(screen.getByRole('button', { name: en.signUp.resend.button }));
    expect(await screen.findByText(en.signUp.resend.sent)).toBeTruthy();
    expect(sent[1]).toEqual({ email: EMAIL });
  });

  it('checks the address, the password rules and the confirmation before sending anything', async () => {
    let calls = 0;
    const { user: u } = await renderPortal('/signup', {
      'apollo.auth.register': (info) => {
        calls += 1;
        return respond('apollo.auth.register')(info);
      },
    });
    const passwordField = screen.getByLabelText(en.auth.password, { exact: false, selector: 'input[name="password"]' });
    await enter(u, screen.getByLabelText(en.auth.email, { exact: false }), 'not-an-address');
    await enter(u, passwordField, 'short');
    await enter(u, screen.getByLabelText(en.auth.confirmPassword, { exact: false }), 'other');
    await u.click(screen.getByRole('button', { name: en.signUp.submit }));
    expect(screen.getByText(en.validation.email)).toBeTruthy();
    // The rule is said above the fields and again as the field's error.
    expect(screen.getAllByText(en.auth.passwordRules)).toHaveLength(2);
    expect(screen.getByText(en.auth.passwordsDiffer)).toBeTruthy();
    expect(calls).toBe(0);
  });

  it("shows the server's refusals next to their fields until the field changes", async () => {
    const { user: u } = await renderPortal('/signup', {
      'apollo.auth.register': () =>
        problem({
          DuplicateUserName: [`Username '${EMAIL}' is already taken.`],
          PasswordRequiresDigit: ["Passwords must have at least one digit ('0'-'9')."],
          PasswordTooShort: ['Passwords must be at least 8 characters.'],
        }),
    });
    const email = screen.getByLabelText(en.auth.email, { exact: false });
    await enter(u, email, EMAIL);
    const passwordField = screen.getByLabelText(en.auth.password, { exact: false, selector: 'input[name="password"]' });
    await enter(u, passwordField, PASSWORD);
    await enter(u, screen.getByLabelText(en.auth.confirmPassword, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: en.signUp.submit }));

    expect(await screen.findByText(en.signUp.errors.DuplicateUserName)).toBeTruthy();
    const rules = fill(en.signUp.errors.passwordRules, {
      rules: `${en.signUp.errors.rules.PasswordTooShort} and ${en.signUp.errors.rules.PasswordRequiresDigit}`,
    });
    expect(screen.getByText(rules)).toBeTruthy();
    // Each next to its own field, and the first one refused has the focus.
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(passwordField.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);

    await enter(u, email, 'x');
    expect(screen.queryByText(en.signUp.errors.DuplicateUserName)).toBeNull();
    expect(screen.getByText(rules)).toBeTruthy();
  });

  it('says the refusals in German', async () => {
    localStorage.setItem('language', 'de');
    const { user: u } = await renderPortal('/signup', {
      'apollo.auth.register': () =>
        problem({ DuplicateUserName: ['taken'], PasswordRequiresUpper: ['upper'], PasswordRequiresLower: ['lower'] }),
    });
    expect(screen.getByRole('heading', { name: de.signUp.title })).toBeTruthy();
    await enter(u, screen.getByLabelText(de.auth.email, { exact: false }), EMAIL);
    await enter(
      u,
      screen.getByLabelText(de.auth.password, { exact: false, selector: 'input[name="password"]' }),
      PASSWORD,
    );
    await enter(u, screen.getByLabelText(de.auth.confirmPassword, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: de.signUp.submit }));
    expect(await screen.findByText(de.signUp.errors.DuplicateUserName)).toBeTruthy();
    expect(
      screen.getByText(
        fill(de.signUp.errors.passwordRules, {
          rules: `${de.signUp.errors.rules.PasswordRequiresLower} und ${de.signUp.errors.rules.PasswordRequiresUpper}`,
        }),
      ),
    ).toBeTruthy();
  });

  it('says when too many attempts came from here', async () => {
    const { user: u } = await renderPortal('/signup', {
      'apollo.auth.register': () => refuse(429, { title: 'Too Many Requests', status: 429 }),
    });
    await enter(u, screen.getByLabelText(en.auth.email, { exact: false }), EMAIL);
    await enter(
      u,
      screen.getByLabelText(en.auth.password, { exact: false, selector: 'input[name="password"]' }),
      PASSWORD,
    );
    await enter(u, screen.getByLabelText(en.auth.confirmPassword, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: en.signUp.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.signUp.errors.tooMany);
  });
});

describe('sign-up closed', () => {
  it('says so and whom to ask, without a form', async () => {
    await renderPortal('/signup', {}, { config: { selfRegistration: 'closed', supportEmail: 'ops@portal.example' } });
    const closed = screen.getByTestId('sign-up-closed');
    expect(within(closed).getByText(en.signUp.closed.title)).toBeTruthy();
    expect(within(closed).getByText(en.signUp.closed.colleagues)).toBeTruthy();
    expect(within(closed).getByText(en.signUp.closed.partner)).toBeTruthy();
    expect(within(closed).getByRole('link', { name: 'ops@portal.example' }).getAttribute('href')).toBe(
      'mailto:ops@portal.example',
    );
    expect(screen.queryByTestId('sign-up-form')).toBeNull();
  });

  it('says so when the server closed it after the page was opened', async () => {
    const { user: u } = await renderPortal('/signup', {
      'apollo.auth.register': () =>
        problem({ RegistrationClosed: ['Sign-up is closed on this portal.'] }, 'registrationClosed'),
    });
    await enter(u, screen.getByLabelText(en.auth.email, { exact: false }), EMAIL);
    await enter(
      u,
      screen.getByLabelText(en.auth.password, { exact: false, selector: 'input[name="password"]' }),
      PASSWORD,
    );
    await enter(u, screen.getByLabelText(en.auth.confirmPassword, { exact: false }), PASSWORD);
    await u.click(screen.getByRole('button', { name: en.signUp.submit }));
    expect(await screen.findByTestId('sign-up-closed')).toBeTruthy();
  });
});

describe('the confirmation page', () => {
  const LINK = '/confirm-email?userId=u-1&code=Y29kZQ';

  /** Renders the link's page with the confirmation answered so; what the page sent, and how often. */
  async function openLink(answer: EndpointResolver<'legacy.auth.confirmEmail'> | undefined, path = LINK) {
    const sent: ConfirmEmailLinkRequest[] = [];
    const view = await renderPortal(path, {
      'legacy.auth.confirmEmail': async (info) => {
        sent.push(await info.request.clone().json());
        return answer?.(info);
      },
      'apollo.auth.resendConfirmationMail': respond('apollo.auth.resendConfirmationMail'),
    });
    return { ...view, sent };
  }

  it('confirms once and leads to sign-in', async () => {
    const { sent } = await openLink(
      respond('legacy.auth.confirmEmail', { outcome: 'confirmed', email: EMAIL, emailChanged: false }),
    );
    const notice = await screen.findByTestId('confirm-confirmed');
    expect(notice.textContent).toContain(fill(en.signUp.confirm.confirmed, { email: EMAIL }));
    expect(notice.textContent).toContain(en.signUp.confirm.confirmedNext);
    expect(screen.getByRole('link', { name: en.auth.signIn }).getAttribute('href')).toBe('/signin');
    expect(sent).toEqual([{ userId: 'u-1', code: 'Y29kZQ' }]);
  });

  it('says "already confirmed", not an error, when the link is opened again', async () => {
    await openLink(
      respond('legacy.auth.confirmEmail', { outcome: 'alreadyConfirmed', email: EMAIL, emailChanged: false }),
    );
    const notice = await screen.findByTestId('confirm-alreadyConfirmed');
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.textContent).toContain(fill(en.signUp.confirm.alreadyConfirmed, { email: EMAIL }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: en.auth.signIn })).toBeTruthy();
  });

  it('confirms an email change with the new address, and signs out the old session on the way to sign-in', async () => {
    const { sent } = await openLink(
      respond('legacy.auth.confirmEmail', { outcome: 'confirmed', email: 'new@newco.example', emailChanged: true }),
      `${LINK}&changedEmail=new%40newco.example`,
    );
    const notice = await screen.findByTestId('confirm-confirmed');
    expect(notice.textContent).toContain(fill(en.signUp.confirm.changed, { email: 'new@newco.example' }));
    expect(notice.textContent).toContain(en.signUp.confirm.changedNext);
    expect(screen.getByRole('link', { name: en.auth.signIn }).getAttribute('href')).toBe('/logout');
    expect(sent).toEqual([{ userId: 'u-1', code: 'Y29kZQ', changedEmail: 'new@newco.example' }]);
  });

  it('says an expired link expired, and mails a new one to the address typed', async () => {
    const { user: u } = await openLink(() =>
      refuse(400, { message: 'This confirmation link has expired.', code: 'confirmationLinkExpired' }),
    );
    const notice = await screen.findByTestId('confirm-expired');
    expect(notice.textContent).toContain(en.signUp.confirm.expired);
    expect(notice.textContent).toContain(en.signUp.confirm.expiredNext);
    const resend = screen.getByTestId('resend-confirmation');
    await u.click(within(resend).getByRole('button', { name: en.signUp.resend.button }));
    expect(within(resend).getByText(en.validation.required)).toBeTruthy();
    await enter(u, within(resend).getByLabelText(en.auth.email, { exact: false }), EMAIL);
    await u.click(within(resend).getByRole('button', { name: en.signUp.resend.button }));
    expect(await within(resend).findByText(en.signUp.resend.sent)).toBeTruthy();
  });

  it('says a used link was used, offering a new one and sign-in', async () => {
    await openLink(() => refuse(400, { message: 'used', code: 'confirmationLinkUsed' }));
    const notice = await screen.findByTestId('confirm-used');
    expect(notice.textContent).toContain(en.signUp.confirm.used);
    expect(notice.textContent).toContain(en.signUp.confirm.usedNext);
    expect(screen.getByTestId('resend-confirmation')).toBeTruthy();
    expect(screen.getByRole('link', { name: en.auth.backToSignIn })).toBeTruthy();
  });

  it('says a link that is not valid is not, as for a link without its code (which asks nothing)', async () => {
    await openLink(() => refuse(400, { message: 'invalid', code: 'confirmationLinkInvalid' }));
    expect((await screen.findByTestId('confirm-invalid')).textContent).toContain(en.signUp.confirm.invalidNext);
    const { sent } = await openLink(undefined, '/confirm-email?userId=u-1');
    expect(screen.getAllByTestId('confirm-invalid').at(-1)?.textContent).toContain(en.signUp.confirm.invalid);
    expect(sent).toEqual([]);
  });

  it('asks for the change again, rather than a new mail, when an email change link expired', async () => {
    await openLink(
      () => refuse(400, { message: 'expired', code: 'confirmationLinkExpired' }),
      `${LINK}&changedEmail=new%40newco.example`,
    );
    expect((await screen.findByTestId('confirm-expired')).textContent).toContain(en.signUp.confirm.changeAgain);
    expect(screen.queryByTestId('resend-confirmation')).toBeNull();
  });

  it('says when the server could not be asked, and tries again on asking', async () => {
    let calls = 0;
    const { user: u, sent } = await openLink((info) =>
      ++calls === 1
        ? refuse(500, { message: 'Internal server error' })
        : respond('legacy.auth.confirmEmail', { outcome: 'confirmed', email: EMAIL, emailChanged: false })(info),
    );
    expect((await screen.findByTestId('confirm-failed')).textContent).toContain(en.signUp.confirm.failed);
    await u.click(screen.getByRole('button', { name: en.common.retry }));
    expect(await screen.findByTestId('confirm-confirmed')).toBeTruthy();
    expect(sent).toHaveLength(2);
  });

  it('reads in German', async () => {
    localStorage.setItem('language', 'de');
    await openLink(respond('legacy.auth.confirmEmail', { outcome: 'confirmed', email: EMAIL, emailChanged: false }));
    expect(screen.getByRole('heading', { name: de.signUp.confirm.title })).toBeTruthy();
    expect((await screen.findByTestId('confirm-confirmed')).textContent).toContain(
      fill(de.signUp.confirm.confirmed, { email: EMAIL }),
    );
    expect(screen.getByRole('link', { name: de.auth.signIn })).toBeTruthy();
  });
});
