import {
  englishErrorMessages,
  germanErrorMessages,
  type SignInSettings,
  type SignInSettingsChange,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../components/ui/format';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const TENANT = '3c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const EMAIL = 'admin@contoso.example';
const SINCE = '2026-11-02T08:00:00.000Z';
const UNTIL = '2026-11-09T08:00:00.000Z';

/** The settings as the server answers them: nothing set, and a change must be confirmed. */
function answer(more: Partial<SignInSettings> = {}): SignInSettings {
  return {
    microsoft: false,
    entraTenantId: null,
    password: true,
    entraTenant: null,
    reauthentication: { needed: true, microsoftUntil: null, secondFactor: true },
    ...more,
  };
}

const pending = (more: Partial<SignInSettings['entraTenant'] & object> = {}) =>
  answer({
    microsoft: true,
    entraTenantId: TENANT,
    entraTenant: {
      tenantId: TENANT,
      state: 'pending',
      since: SINCE,
      expiresAt: UNTIL,
      by: EMAIL,
      proof: null,
      ...more,
    },
  });

function resolvers(extra: Resolvers = {}): Resolvers {
  storeUser({ token: 'session-token', user: { email: EMAIL, role: 'admin' } });
  storeWorker(testWorker());
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.auth.info': respond('apollo.auth.info', { email: EMAIL, isEmailConfirmed: true }),
    'apollo.auth.twoFactor': respond('apollo.auth.twoFactor', {
      sharedKey: null,
      recoveryCodesLeft: 10,
      isTwoFactorEnabled: true,
      isMachineRemembered: false,
    }),
    'legacy.auth.signInOptions': respond('legacy.auth.signInOptions', { microsoft: true }),
    'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', answer()),
    ...extra,
  };
}

const section = () => within(screen.getByTestId('organisation-sign-in'));
/** Types into a field at once (pasting): a tenant id typed key by key takes seconds in jsdom. */
async function fillIn(
  user: { click(e: Element): Promise<void>; paste(text: string): Promise<void> },
  field: HTMLElement,
  text: string,
) {
  await user.click(field);
  await user.paste(text);
}
const texts = en.accountSecurity.organisationSignIn;
/** i18next's interpolation, for the expected texts. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

describe("the organisation's sign-in settings", () => {
  it('checks the tenant id, asks for the password and a code, saves, and shows the tenant as pending', async () => {
    let sent: SignInSettingsChange | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.updateSignInSettings': async ({ request }) => {
          sent = (await request.json()) as SignInSettingsChange;
          return HttpResponse.json(pending());
        },
      }),
    );
    await user.click(await section().findByRole('checkbox', { name: texts.microsoft }));
    const field = section().getByLabelText(new RegExp(texts.tenantId));
    await user.type(field, 'not-a-tenant');
    await user.click(section().getByRole('button', { name: texts.save }));
    expect(section().getByText(texts.tenantInvalid)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.clear(field);
    await fillIn(user, field, TENANT);
    await user.click(section().getByRole('button', { name: texts.save }));

    const dialog = within(await screen.findByRole('dialog', { name: texts.reauthTitle }));
    expect(dialog.getByText(texts.reauthIntro)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: texts.reauthSubmit }));
    expect(sent).toBeUndefined();
    await fillIn(user, dialog.getByLabelText(new RegExp(en.accountSecurity.currentPassword)), 'Demo-Passw0rd!');
    await user.type(dialog.getByLabelText(new RegExp(en.accountSecurity.code)), '123456');
    await user.click(dialog.getByRole('button', { name: texts.reauthSubmit }));

    expect(await section().findByText(texts.saved)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual({
      microsoft: true,
      entraTenantId: TENANT,
      password: true,
      oldPassword: 'Demo-Passw0rd!',
      twoFactorCode: '123456',
    });
    const status = within(section().getByTestId('tenant-status'));
    expect(status.getByText(`${texts.tenantStatus}: ${texts.pendingTitle}`)).toBeTruthy();
    expect(status.getByText(TENANT)).toBeTruthy();
    const words = { since: formatDateTime(SINCE), until: formatDateTime(UNTIL), by: EMAIL };
    expect(status.getByText(fill(texts.pending, words))).toBeTruthy();
    expect(status.getByText(texts.pendingWhy)).toBeTruthy();
    expect(status.getByRole('button', { name: texts.confirm })).toBeTruthy();
  });

  it('confirms with a recovery code instead of a code', async () => {
    let sent: SignInSettingsChange | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.updateSignInSettings': async ({ request }) => {
          sent = (await request.json()) as SignInSettingsChange;
          return HttpResponse.json(answer({ password: true }));
        },
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', answer({ password: false })),
      }),
    );
    await user.click(await section().findByRole('checkbox', { name: texts.password }));
    await user.click(section().getByRole('button', { name: texts.save }));
    const dialog = within(await screen.findByRole('dialog'));
    await fillIn(user, dialog.getByLabelText(new RegExp(en.accountSecurity.currentPassword)), 'Demo-Passw0rd!');
    await user.click(dialog.getByRole('button', { name: en.accountSecurity.useRecoveryCode }));
    await user.type(dialog.getByLabelText(new RegExp(en.accountSecurity.recoveryCode)), 'abcde-fghjk');
    await user.click(dialog.getByRole('button', { name: texts.reauthSubmit }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toMatchObject({ password: true, oldPassword: 'Demo-Passw0rd!', twoFactorRecoveryCode: 'ABCDE-FGHJK' });
  });

  it('asks for nothing within 10 minutes of a sign-in with Microsoft, and says until when', async () => {
    let sent: SignInSettingsChange | undefined;
    const until = '2026-11-02T08:10:00.000Z';
    const recent = {
      ...pending({ state: 'bound', expiresAt: null, proof: 'microsoftSignIn' }),
      reauthentication: { needed: false, microsoftUntil: until, secondFactor: true },
    };
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', recent),
        'legacy.auth.updateSignInSettings': async ({ request }) => {
          sent = (await request.json()) as SignInSettingsChange;
          return HttpResponse.json({ ...recent, password: false });
        },
      }),
    );
    expect(await section().findByText(fill(texts.microsoftRecent, { until: formatDateTime(until) }))).toBeTruthy();
    await user.click(section().getByRole('checkbox', { name: texts.password }));
    await user.click(section().getByRole('button', { name: texts.save }));
    expect(await section().findByText(texts.saved)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual({ microsoft: true, entraTenantId: TENANT, password: false });
  });

  it('opens the dialog after all when the sign-in with Microsoft has become too old', async () => {
    const recent = {
      ...answer(),
      reauthentication: { needed: false, microsoftUntil: '2026-11-02T08:10:00.000Z', secondFactor: true },
    };
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', recent),
        'legacy.auth.updateSignInSettings': () => refuse(403, { message: 'confirm', code: 'reauthenticationRequired' }),
      }),
    );
    await user.click(await section().findByRole('checkbox', { name: texts.microsoft }));
    await fillIn(user, section().getByLabelText(new RegExp(texts.tenantId)), TENANT);
    await user.click(section().getByRole('button', { name: texts.save }));
    const dialog = within(await screen.findByRole('dialog', { name: texts.reauthTitle }));
    expect(dialog.getByText(englishErrorMessages.reauthenticationRequired)).toBeTruthy();
  });

  it.each([
    ['en', 'reauthenticationPasswordWrong', englishErrorMessages, en],
    ['de', 'reauthenticationPasswordWrong', germanErrorMessages, de],
    ['en', 'reauthenticationCodeWrong', englishErrorMessages, en],
    ['de', 'reauthenticationCodeWrong', germanErrorMessages, de],
    ['de', 'accountLocked', germanErrorMessages, de],
  ] as const)(
    'shows a refused confirmation in %s (%s) in the dialog and keeps what was typed',
    async (language, code, messages, t) => {
      localStorage.setItem('language', language);
      const { user } = await renderPortal(
        '/account/settings?tab=security',
        resolvers({ 'legacy.auth.updateSignInSettings': () => refuse(403, { message: 'refused', code }) }),
      );
      const own = t.accountSecurity.organisationSignIn;
      await user.click(await section().findByRole('checkbox', { name: own.microsoft }));
      await fillIn(user, section().getByLabelText(new RegExp(own.tenantId)), TENANT);
      await user.click(section().getByRole('button', { name: own.save }));
      const dialog = within(await screen.findByRole('dialog', { name: own.reauthTitle }));
      await fillIn(user, dialog.getByLabelText(new RegExp(t.accountSecurity.currentPassword)), 'Wrong-Passw0rd!');
      await user.type(dialog.getByLabelText(new RegExp(t.accountSecurity.code)), '000000');
      await user.click(dialog.getByRole('button', { name: own.reauthSubmit }));
      expect(await dialog.findByText(messages[code])).toBeTruthy();
      expect(screen.getByRole('dialog')).toBeTruthy();
      await user.click(dialog.getByRole('button', { name: t.common.cancel }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // What the form held is still there, to try again.
      expect((section().getByLabelText(new RegExp(own.tenantId)) as HTMLInputElement).value).toBe(TENANT);
      expect((section().getByRole('checkbox', { name: own.microsoft }) as HTMLInputElement).checked).toBe(true);
    },
  );

  it("shows the server's refusal to turn passwords off, in German, under the form", async () => {
    localStorage.setItem('language', 'de');
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', {
          ...pending(),
          reauthentication: { needed: false, microsoftUntil: '2026-11-02T08:10:00.000Z', secondFactor: true },
        }),
        'legacy.auth.updateSignInSettings': () =>
          refuse(400, { message: 'refused', code: 'passwordOffNeedsBoundTenant' }),
      }),
    );
    const own = de.accountSecurity.organisationSignIn;
    await user.click(await section().findByRole('checkbox', { name: own.password }));
    await user.click(section().getByRole('button', { name: own.save }));
    expect(await section().findByText(germanErrorMessages.passwordOffNeedsBoundTenant)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('starts the confirming sign-in with Microsoft for the member and comes back to the settings', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    let sent: unknown;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', pending()),
        'legacy.auth.microsoftStart': async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json({ authorizationUrl: `https://login.example/${TENANT}/oauth2/v2.0/authorize` });
        },
      }),
    );
    await user.click(await section().findByRole('button', { name: texts.confirm }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`https://login.example/${TENANT}/oauth2/v2.0/authorize`));
    expect(sent).toEqual({ email: EMAIL });
    expect(sessionStorage.getItem('portal.microsoftReturnTo')).toBe('/account/settings?tab=security');
  });

  it('shows an expired tenant as such, and starts it again after the confirmation', async () => {
    let sent: SignInSettingsChange | undefined;
    localStorage.setItem('language', 'de');
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', pending({ state: 'expired' })),
        'legacy.auth.updateSignInSettings': async ({ request }) => {
          sent = (await request.json()) as SignInSettingsChange;
          return HttpResponse.json(pending({ since: UNTIL, expiresAt: '2026-11-16T08:00:00.000Z' }));
        },
      }),
    );
    const own = de.accountSecurity.organisationSignIn;
    const status = within(await section().findByTestId('tenant-status'));
    expect(status.getByText(`${own.tenantStatus}: ${own.expiredTitle}`)).toBeTruthy();
    expect(
      status.getByText(fill(own.expired, { since: formatDateTime(SINCE, 'de'), until: formatDateTime(UNTIL, 'de') })),
    ).toBeTruthy();
    expect(status.queryByRole('button', { name: own.confirm })).toBeNull();
    await user.click(status.getByRole('button', { name: own.startAgain }));
    const dialog = within(await screen.findByRole('dialog', { name: own.reauthTitle }));
    await fillIn(user, dialog.getByLabelText(new RegExp(de.accountSecurity.currentPassword)), 'Demo-Passw0rd!');
    await user.type(dialog.getByLabelText(new RegExp(de.accountSecurity.code)), '123456');
    await user.click(dialog.getByRole('button', { name: own.reauthSubmit }));
    await waitFor(() => expect(section().getByTestId('tenant-status').getAttribute('data-state')).toBe('pending'));
    expect(sent).toMatchObject({ microsoft: true, entraTenantId: TENANT, twoFactorCode: '123456' });
  });

  it('shows a confirmed tenant with since when and by whom, or by the operator', async () => {
    const bound = (by: string | null, proof: 'microsoftSignIn' | 'operator') =>
      pending({ state: 'bound', expiresAt: null, by, proof });
    const first = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond(
          'legacy.auth.signInSettings',
          bound('adele@contoso.example', 'microsoftSignIn'),
        ),
      }),
    );
    const status = within(await section().findByTestId('tenant-status'));
    expect(status.getByText(`${texts.tenantStatus}: ${texts.boundTitle}`)).toBeTruthy();
    expect(
      status.getByText(fill(texts.bound, { since: formatDateTime(SINCE), by: 'adele@contoso.example' })),
    ).toBeTruthy();
    expect(status.queryByRole('button')).toBeNull();
    first.view.unmount();

    await renderPortal(
      '/account/settings?tab=security',
      resolvers({ 'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', bound(null, 'operator')) }),
    );
    expect(
      await within(await section().findByTestId('tenant-status')).findByText(
        fill(texts.boundByOperator, { since: formatDateTime(SINCE) }),
      ),
    ).toBeTruthy();
  });

  it('cannot turn Microsoft sign-in on where the server is not registered with Entra ID', async () => {
    await renderPortal(
      '/account/settings?tab=security',
      resolvers({ 'legacy.auth.signInOptions': respond('legacy.auth.signInOptions', { microsoft: false }) }),
    );
    expect(await section().findByText(texts.notOffered)).toBeTruthy();
    await waitFor(() =>
      expect(section().getByRole('checkbox', { name: texts.microsoft }).hasAttribute('disabled')).toBe(true),
    );
  });
});
