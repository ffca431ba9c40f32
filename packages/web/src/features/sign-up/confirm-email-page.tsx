/**
 * /confirm-email?userId=&code=[&changedEmail=]: the page the mailed confirmation link opens. It
 * confirms once it is open (legacy POST /auth/confirm-email) and says what happened, each with the
 * next step: confirmed or confirmed already (sign in), expired, used or not valid (a new mail, or for
 * an email change the change asked for again), or a failure to reach the server (try again).
 */
import { Button, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { ApiError, type ConfirmEmailLinkResponse } from '@compliance-portal/sdk';
import { Link as RouterLink, useRouteContext } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { useServerAction } from '../../offline/online';
import { useConfirmEmail } from './api/mutations';
import { Notice, ResendConfirmation } from './resend-confirmation';
import type { ConfirmEmailSearch } from './search';

/** Why a link confirmed nothing, by the server's refusal code; `failed` when it could not be asked. */
type LinkProblem = 'expired' | 'used' | 'invalid' | 'failed';

function problemOf(error: unknown): LinkProblem {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.code === 'confirmationLinkExpired') return 'expired';
  if (error.code === 'confirmationLinkUsed') return 'used';
  if (error.code === 'confirmationLinkInvalid') return 'invalid';
  return 'failed';
}

export function ConfirmEmailPage({ search }: { search: ConfirmEmailSearch }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const confirm = useConfirmEmail(api);
  const serverAction = useServerAction();
  const { userId, code, changedEmail } = search;
  const link = useMemo(
    () => (userId && code ? { userId, code, ...(changedEmail ? { changedEmail } : {}) } : null),
    [userId, code, changedEmail],
  );
  // Once per page: a second request would find the link used and read "already confirmed".
  const asked = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (!link || asked.current) return;
    asked.current = true;
    mutate(link);
  }, [link, mutate]);

  let body: ReactNode;
  if (!link) body = <Problem problem="invalid" changedEmail={changedEmail} />;
  else if (confirm.isSuccess) body = <Confirmed answer={confirm.data} />;
  else if (confirm.isError) {
    const problem = problemOf(confirm.error);
    body = (
      <Problem problem={problem} changedEmail={changedEmail}>
        {problem === 'failed' ? (
          <Button colorPalette="blue" onClick={() => mutate(link)} loading={confirm.isPending} {...serverAction}>
            {t('common:retry')}
          </Button>
        ) : null}
      </Problem>
    );
  } else {
    body = (
      <Stack direction="row" gap="3" align="center" role="status" data-testid="confirm-pending">
        <Spinner size="sm" />
        <Text>{t('signUp:confirm.pending')}</Text>
      </Stack>
    );
  }

  return (
    <PublicLayout title={t('signUp:confirm.title')}>
      <Stack gap="4" data-testid="confirm-email">
        {body}
      </Stack>
    </PublicLayout>
  );
}

/** Confirmed now or before: sign in (after an email change, every session ended: the old one goes too). */
function Confirmed({ answer }: { answer: ConfirmEmailLinkResponse }) {
  const { t } = useTranslation();
  const now = answer.outcome === 'confirmed';
  const title = !now
    ? t('signUp:confirm.alreadyConfirmed', { email: answer.email })
    : answer.emailChanged
      ? t('signUp:confirm.changed', { email: answer.email })
      : t('signUp:confirm.confirmed', { email: answer.email });
  const next = !now
    ? t('signUp:confirm.alreadyConfirmedNext')
    : answer.emailChanged
      ? t('signUp:confirm.changedNext')
      : t('signUp:confirm.confirmedNext');
  return (
    <>
      <Notice status={now ? 'success' : 'info'} title={title} testId={`confirm-${answer.outcome}`}>
        {next}
      </Notice>
      <Button asChild colorPalette="blue">
        {/* /logout signs out a session of the old address still open in this browser, then shows /signin. */}
        <RouterLink to={answer.emailChanged ? '/logout' : '/signin'}>{t('auth:signIn')}</RouterLink>
      </Button>
    </>
  );
}

/** The link did nothing: why, and the next step. */
function Problem({
  problem,
  changedEmail,
  children,
}: {
  problem: LinkProblem;
  changedEmail: string | undefined;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const titles = {
    expired: t('signUp:confirm.expired'),
    used: t('signUp:confirm.used'),
    invalid: t('signUp:confirm.invalid'),
    failed: t('signUp:confirm.failed'),
  } as const;
  const nexts = {
    expired: t('signUp:confirm.expiredNext'),
    used: t('signUp:confirm.usedNext'),
    invalid: t('signUp:confirm.invalidNext'),
    failed: null,
  } as const;
  // An email change is asked for again when signed in; a sign-up's link is mailed again.
  const resend = problem !== 'failed' && !changedEmail;
  return (
    <>
      <Notice
        status={problem === 'failed' || problem === 'invalid' ? 'error' : 'warning'}
        title={titles[problem]}
        testId={`confirm-${problem}`}
      >
        {changedEmail && problem !== 'failed' ? t('signUp:confirm.changeAgain') : nexts[problem]}
      </Notice>
      {children}
      {resend ? <ResendConfirmation /> : null}
      <Link asChild fontSize="sm" color="brand.600" alignSelf="flex-start">
        <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
      </Link>
    </>
  );
}
