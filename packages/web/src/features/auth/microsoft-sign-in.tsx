/**
 * "Sign in with Microsoft": the button under the sign-in form (shown when the server is registered
 * with Microsoft Entra ID) and the page the identity platform returns to, /signin/microsoft. The
 * address typed into the form names the organisation, and so the Entra tenant the server sends the
 * browser to; the server redeems the code it comes back with and the session machine signs in as
 * after a second factor.
 */
import { Box, Button, HStack, Link, Separator, Spinner, Stack, Text } from '@chakra-ui/react';
import { getRouteApi, Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { StatusAlert } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { takeMicrosoftReturn } from '../../session/storage';
import { useStartMicrosoftSignIn } from './api/mutations';
import { fetchSignInOptions } from './api/queries';

/** Microsoft's four squares, as its sign-in buttons show them. */
function MicrosoftLogo() {
  return (
    <svg width="18" height="18" viewBox="0 0 21 21" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}

export interface MicrosoftSignInProps {
  /** The address typed into the sign-in form. */
  email: string;
  /** Where a guard sent the user from. */
  returnTo?: string | undefined;
  /** Asks the form to show its field errors (the address is missing or not one). */
  onNeedEmail: () => void;
}

/** The "or" and the button; nothing while the server does not offer it (or is not yet known to). */
export function MicrosoftSignIn({ email, returnTo, onNeedEmail }: MicrosoftSignInProps) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const serverAction = useServerAction();
  const check = useValidator();
  const [offered, setOffered] = useState(false);
  const [askedForEmail, setAskedForEmail] = useState(false);
  useEffect(() => {
    let live = true;
    fetchSignInOptions(api).then(
      (options) => live && setOffered(options.microsoft),
      // Not offered as far as this page knows: the password form is there either way.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  const start = useStartMicrosoftSignIn(api, returnTo);
  if (!offered) return null;
  const invalid = check(email, rules.required(), rules.email());
  const failure = start.error ? messageKeyOf(start.error) : null;
  // Once the browser is on its way, the button stays busy until the page goes.
  const leaving = start.isPending || start.isSuccess;

  return (
    <Stack gap="3" data-testid="microsoft-sign-in">
      <HStack gap="3" color="fg.muted" fontSize="sm">
        <Separator flex="1" />
        <Text>{t('auth:or')}</Text>
        <Separator flex="1" />
      </HStack>
      {failure ? <StatusAlert status="error">{t(`apiErrors:${failure}`)}</StatusAlert> : null}
      <Button
        type="button"
        variant="outline"
        loading={leaving}
        loadingText={t('auth:toMicrosoft')}
        onClick={() => {
          if (invalid) {
            setAskedForEmail(true);
            onNeedEmail();
            return;
          }
          if (!serverAction.disabled) start.mutate(email.trim());
        }}
        {...serverAction}
      >
        <MicrosoftLogo />
        {t('auth:withMicrosoft')}
      </Button>
      {/* Only once asked for: text that appears late on the page is a late largest paint (LCP). */}
      {askedForEmail && invalid ? (
        <Text fontSize="sm" color="fg.muted">
          {t('auth:microsoftNeedsEmail')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** /signin/microsoft: finishes the sign-in, or says why it did not happen. */
export function MicrosoftCallbackPage() {
  const { t } = useTranslation();
  const search = getRouteApi('/signin_/microsoft').useSearch();
  const { send, context, matches } = useSession();
  const sent = useRef(false);
  // Signed in already: a member confirming the organisation's tenant, who goes back to the portal.
  const [back] = useState(() => (context.user ? { to: takeMicrosoftReturn() ?? '/' } : null));
  const { code, state, error } = search;

  useEffect(() => {
    if (sent.current || error || !code || !state) return;
    sent.current = true;
    const returnTo = back ? back.to : takeMicrosoftReturn();
    send({ type: 'session.completeMicrosoft', code, state, ...(returnTo ? { returnTo } : {}) });
  }, [code, state, error, send, back]);

  // The identity platform's own refusal: its description starts with the AADSTS code.
  const reason = error ? (search.error_description ?? error).split(' Trace ID:')[0] : null;
  const failure = reason
    ? t('auth:microsoftCancelled', { reason })
    : !code || !state
      ? t('apiErrors:entraReplayed')
      : // Only this visit's failure: an earlier one is cleared when the code is sent.
        sent.current && context.microsoftFailure
        ? t(`apiErrors:${context.microsoftFailure}`)
        : null;

  return (
    <PublicLayout title={failure ? t('auth:microsoftFailed') : t('auth:withMicrosoft')}>
      {failure && !matches('completingMicrosoft') ? (
        <Stack gap="4">
          <StatusAlert status="error">{failure}</StatusAlert>
          <Link asChild fontSize="sm" color="brand.600" alignSelf="flex-start">
            {back ? (
              <a href={back.to}>{t('auth:backToPortal')}</a>
            ) : (
              <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
            )}
          </Link>
        </Stack>
      ) : (
        <Box role="status" aria-live="polite">
          <HStack gap="3">
            <Spinner size="sm" />
            <Text>{t('auth:completingMicrosoft')}</Text>
          </HStack>
        </Box>
      )}
    </PublicLayout>
  );
}
