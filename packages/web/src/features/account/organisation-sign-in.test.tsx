import { germanErrorMessages, type SignInSettings } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const TENANT = '3c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';

function resolvers(extra: Resolvers = {}): Resolvers {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.auth.info': respond('apollo.auth.info', { email: 'admin@contoso.example', isEmailConfirmed: true }),
    'apollo.auth.twoFactor': respond('apollo.auth.twoFactor', {
      sharedKey: null,
      recoveryCodesLeft: 10,
      isTwoFactorEnabled: true,
      isMachineRemembered: false,
    }),
    'legacy.auth.signInOptions': respond('legacy.auth.signInOptions', { microsoft: true }),
    'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', {
      microsoft: false,
      entraTenantId: null,
      password: true,
    }),
    ...extra,
  };
}

const section = () => within(screen.getByTestId('organisation-sign-in'));

describe("the organisation's sign-in settings", () => {
  it('checks the tenant id, saves Microsoft sign-in with it, and says so', async () => {
    let sent: SignInSettings | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.updateSignInSettings': async ({ request }) => {
          sent = (await request.json()) as SignInSettings;
          return HttpResponse.json(sent);
        },
      }),
    );
    const texts = en.accountSecurity.organisationSignIn;
    await user.click(await section().findByRole('checkbox', { name: texts.microsoft }));
    const field = section().getByLabelText(new RegExp(texts.tenantId));
    await user.type(field, 'not-a-tenant');
    await user.click(section().getByRole('button', { name: texts.save }));
    expect(section().getByText(texts.tenantInvalid)).toBeTruthy();
    expect(sent).toBeUndefined();
    await user.clear(field);
    await user.type(field, TENANT);
    await user.click(section().getByRole('button', { name: texts.save }));
    expect(await section().findByText(texts.saved)).toBeTruthy();
    expect(sent).toEqual({ microsoft: true, entraTenantId: TENANT, password: true });
  });

  it("shows the server's refusal to turn passwords off, in German", async () => {
    localStorage.setItem('language', 'de');
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      resolvers({
        'legacy.auth.signInSettings': respond('legacy.auth.signInSettings', {
          microsoft: true,
          entraTenantId: TENANT,
          password: true,
        }),
        'legacy.auth.updateSignInSettings': () =>
          refuse(400, { message: 'refused', code: 'passwordOffNeedsMicrosoft' }),
      }),
    );
    const texts = de.accountSecurity.organisationSignIn;
    await user.click(await section().findByRole('checkbox', { name: texts.password }));
    await user.click(section().getByRole('button', { name: texts.save }));
    expect(await section().findByText(germanErrorMessages.passwordOffNeedsMicrosoft)).toBeTruthy();
  });

  it('cannot turn Microsoft sign-in on where the server is not registered with Entra ID', async () => {
    await renderPortal(
      '/account/settings?tab=security',
      resolvers({ 'legacy.auth.signInOptions': respond('legacy.auth.signInOptions', { microsoft: false }) }),
    );
    const texts = en.accountSecurity.organisationSignIn;
    expect(await section().findByText(texts.notOffered)).toBeTruthy();
    await waitFor(() =>
      expect(section().getByRole('checkbox', { name: texts.microsoft }).hasAttribute('disabled')).toBe(true),
    );
  });
});
