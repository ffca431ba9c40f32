/**
 * Sign-in and security: the email address, the password, the authenticator app and new recovery
 * codes, each changed with the current password again (and a code while two-factor sign-in is on),
 * through apollo's /manage/info and /manage/2fa with the portal's session token.
 */
import { Stack } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { twoFactorStateQuery } from './api/queries';
import { AuthenticatorSection } from './authenticator-section';
import { EmailSection } from './email-section';
import { OrganisationSignInSection } from './organisation-sign-in-section';
import { PasswordSection } from './password-section';

/** The security tab: email, password and the authenticator. */
export function SecuritySection() {
  const { api } = useRouteContext({ from: '__root__' });
  const state = useQuery(twoFactorStateQuery(api));
  return (
    <Stack gap="4" maxW="3xl">
      {/* Until the two-factor state is known, the email form asks for a code: the safe guess. */}
      <EmailSection twoFactorOn={state.data?.isTwoFactorEnabled ?? true} />
      <PasswordSection />
      <AuthenticatorSection />
      <OrganisationSignInSection />
    </Stack>
  );
}
