/**
 * /invitation/:token, the page an invitation mail links to: who is invited to which organisation,
 * a password chosen twice (the reset page's fields and rules), then the sign-in with it, which goes
 * on to the authenticator's QR setup as every first sign-in does. A link that is used, expired or
 * replaced says so; a browser signed in as someone else is asked to sign out first.
 */
import { Button, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ApiError } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { NewPasswordFields, useNewPassword } from '../../components/ui/new-password';
import { failureText } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { useAcceptInvitation } from './api/mutations';
import { invitationQuery } from './api/queries';

const isCode = (error: unknown, code: string) => error instanceof ApiError && error.code === code;

export function InvitationPage({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const { send, authenticated, context, matches } = useSession();
  const invitation = useQuery(invitationQuery(api, token));
  const fresh = useNewPassword();
  const { password, confirm } = fresh;
  const [touched, setTouched] = useState(false);
  // Signed in as someone else, the form waits until that session is signed out.
  const serverAction = useServerAction(authenticated);
  const accept = useAcceptInvitation(api, token);
  // The area texts load after the first screen's: until then the page waits rather than show keys.
  const ready = i18n.hasResourceBundle(i18n.language, 'invitation');
  const title = ready ? t('invitation:title') : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (fresh.passwordError || fresh.confirmError || serverAction.disabled) return;
    accept.mutate(
      { password, confirmPassword: confirm },
      // The password is set: the sign-in with it begins the authenticator's setup (/qr-setup).
      { onSuccess: ({ email }) => send({ type: 'session.login', email, password }) },
    );
  };

  if (!ready || invitation.isPending) {
    return (
      <PublicLayout title={title}>
        <Stack gap="3" aria-busy="true">
          {ready ? <Text color="fg.muted">{t('invitation:checking')}</Text> : null}
          <Skeleton height="5" />
          <Skeleton height="10" />
        </Stack>
      </PublicLayout>
    );
  }

  if (invitation.isError) {
    return (
      <PublicLayout title={title}>
        <Stack gap="4">
          <StatusAlert status="error">
            {isCode(invitation.error, 'invitationInvalid')
              ? t('invitation:invalid')
              : failureText(t, t('invitation:failed'), invitation.error)}
          </StatusAlert>
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
          </Link>
        </Stack>
      </PublicLayout>
    );
  }

  const { email, displayName, organisationName, expiresAt } = invitation.data;
  return (
    <PublicLayout title={title}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text>{t('invitation:intro', { organisation: organisationName, name: displayName, email })}</Text>
          <Text color="fg.muted" fontSize="sm">
            {t('invitation:steps')}
          </Text>
          {authenticated && context.user ? (
            <Stack gap="2" align="flex-start">
              <StatusAlert status="error">
                {t('invitation:signedInElsewhere', { email: context.user.user.email })}
              </StatusAlert>
              <Button size="sm" variant="outline" onClick={() => send({ type: 'session.logout' })}>
                {t('invitation:signOut')}
              </Button>
            </Stack>
          ) : null}
          {accept.isError ? (
            <StatusAlert status="error">
              {isCode(accept.error, 'invitationInvalid')
                ? t('invitation:invalid')
                : isCode(accept.error, 'passwordSignInOff')
                  ? t('invitation:microsoftOnly')
                  : failureText(t, t('invitation:failed'), accept.error)}
            </StatusAlert>
          ) : null}
          <Text color="fg.muted" fontSize="sm">
            {t('auth:passwordRules')}
          </Text>
          <NewPasswordFields
            state={fresh}
            passwordLabel={t('auth:newPassword')}
            confirmLabel={t('auth:confirmPassword')}
            passwordName="password"
            showErrors={touched}
          />
          <Button
            type="submit"
            colorPalette="blue"
            loading={accept.isPending || matches('signingIn')}
            {...serverAction}
          >
            {t('invitation:accept')}
          </Button>
          <Text color="fg.muted" fontSize="xs">
            {t('invitation:expires', { at: formatDateTime(expiresAt, i18n.language) })}
          </Text>
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
          </Link>
        </Stack>
      </form>
    </PublicLayout>
  );
}
