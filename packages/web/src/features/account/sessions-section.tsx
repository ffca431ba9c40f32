/**
 * The account's signed-in sessions: for each, the device and browser its user agent named at sign-in,
 * how and when it signed in, when it was last used and from which address; the calling session is
 * marked and is signed out with "Log out" (not from here). One other session is signed out after a
 * confirmation, or every other one at once.
 */
import { Badge, Button, Card, Flex, Heading, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { SignedInSession } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useRevokeOtherSessions, useRevokeSession } from './api/mutations';
import { sessionsQuery } from './api/queries';
import { changeErrorKey } from './change-errors';
import { WRAPPING_LABEL } from './wrapping';

/** "Firefox 128 on Windows", or as much of it as the user agent said. */
function deviceName(t: TFunction, session: SignedInSession): string {
  const { browser, os } = session.device;
  if (browser && os) return t('ownSessions:on', { browser, os });
  return browser ?? os ?? t('ownSessions:unknownBrowser');
}

function SessionItem({
  session,
  onSignOut,
  serverAction,
}: {
  session: SignedInSession;
  onSignOut: (session: SignedInSession) => void;
  serverAction: ReturnType<typeof useServerAction>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const device = deviceName(t, session);
  const signedInAt = formatDateTime(session.signedInAt, lang);
  return (
    <List.Item
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      data-testid="session"
      data-current={session.current ? 'true' : undefined}
    >
      <Flex gap="3" justify="space-between" align={{ base: 'flex-start', sm: 'center' }} wrap="wrap">
        <Stack gap="1" flex="1" minW="0">
          <Flex gap="2" wrap="wrap" align="baseline">
            <Text fontWeight="medium">{device}</Text>
            {session.current ? (
              <Badge colorPalette="green" variant="subtle">
                {t('ownSessions:current')}
              </Badge>
            ) : null}
          </Flex>
          <Text fontSize="sm" color="fg.muted">
            {[
              t(`ownSessions:types.${session.device.type}`),
              [
                t('ownSessions:signedIn', { at: signedInAt }),
                session.method ? t(`ownSessions:methods.${session.method}`) : null,
              ]
                .filter(Boolean)
                .join(' '),
              t('ownSessions:lastActive', { at: formatDateTime(session.lastActiveAt, lang) }),
              session.ip ? t('ownSessions:from', { ip: session.ip }) : t('ownSessions:unknownAddress'),
            ].join(' · ')}
          </Text>
        </Stack>
        {session.current ? null : (
          <Button
            {...WRAPPING_LABEL}
            size="sm"
            variant="outline"
            colorPalette="red"
            aria-label={t('ownSessions:signOutLabel', { device, at: signedInAt })}
            onClick={() => onSignOut(session)}
            {...serverAction}
          >
            {t('ownSessions:signOutTrigger')}
          </Button>
        )}
      </Flex>
    </List.Item>
  );
}

export function SessionsSection() {
  const { t, i18n } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const sessions = useQuery(sessionsQuery(api));
  const revokeOne = useRevokeSession(api);
  const revokeOthers = useRevokeOtherSessions(api);
  const [signingOut, setSigningOut] = useState<SignedInSession | null>(null);
  const [askingAll, setAskingAll] = useState(false);
  const others = sessions.data?.items.filter((s) => !s.current).length ?? 0;
  const serverAction = useServerAction();
  const allAction = useServerAction(others === 0);
  const headingId = useId();
  return (
    <Card.Root as="section" aria-labelledby={headingId} data-testid="sessions">
      <Card.Body gap="3">
        <Heading as="h2" size="md" id={headingId}>
          {t('ownSessions:title')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('ownSessions:intro')}
        </Text>
        {sessions.isPending ? (
          <Stack gap="3">
            <Skeleton height="10" />
            <Skeleton height="10" />
          </Stack>
        ) : sessions.isError ? (
          <Stack gap="2">
            <StatusAlert status="error">{t('ownSessions:failed')}</StatusAlert>
            <Button {...WRAPPING_LABEL} alignSelf="flex-start" size="sm" onClick={() => void sessions.refetch()}>
              {t('common:retry')}
            </Button>
          </Stack>
        ) : (
          <List.Root as="ul" listStyle="none" aria-label={t('ownSessions:list')}>
            {sessions.data.items.map((session) => (
              <SessionItem
                key={session.sessionId}
                session={session}
                serverAction={serverAction}
                onSignOut={(s) => {
                  revokeOne.reset();
                  setSigningOut(s);
                }}
              />
            ))}
          </List.Root>
        )}
        {revokeOthers.isSuccess ? (
          <StatusAlert status="success">
            {t('accountSecurity:sessions.done', { count: revokeOthers.data.revoked })}
          </StatusAlert>
        ) : null}
        {revokeOthers.isError ? (
          <StatusAlert status="error">{t(changeErrorKey(revokeOthers.error))}</StatusAlert>
        ) : null}
        <Button
          {...WRAPPING_LABEL}
          alignSelf="flex-start"
          colorPalette="red"
          variant="outline"
          onClick={() => {
            revokeOthers.reset();
            setAskingAll(true);
          }}
          {...allAction}
        >
          {t('accountSecurity:sessions.open')}
        </Button>
      </Card.Body>
      <ConfirmDialog
        open={signingOut !== null}
        title={t('ownSessions:signOutTitle')}
        confirmLabel={t('ownSessions:signOut')}
        destructive
        pending={revokeOne.isPending}
        onConfirm={() =>
          signingOut &&
          revokeOne.mutate(signingOut.sessionId, {
            onSuccess: () => {
              setSigningOut(null);
              showToast('success', t('ownSessions:signedOut'));
            },
          })
        }
        onCancel={() => setSigningOut(null)}
      >
        <Stack gap="3">
          <Text>
            {signingOut
              ? t('ownSessions:signOutText', {
                  device: deviceName(t, signingOut),
                  at: formatDateTime(signingOut.signedInAt, i18n.language),
                })
              : null}
          </Text>
          {revokeOne.error ? (
            <StatusAlert status="error">{failureText(t, t('ownSessions:actionFailed'), revokeOne.error)}</StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
      <ConfirmDialog
        open={askingAll}
        title={t('accountSecurity:sessions.confirmTitle')}
        confirmLabel={t('accountSecurity:sessions.revoke')}
        destructive
        pending={revokeOthers.isPending}
        onConfirm={() => revokeOthers.mutate(undefined, { onSettled: () => setAskingAll(false) })}
        onCancel={() => setAskingAll(false)}
      >
        {t('accountSecurity:sessions.confirmText')}
      </ConfirmDialog>
    </Card.Root>
  );
}
