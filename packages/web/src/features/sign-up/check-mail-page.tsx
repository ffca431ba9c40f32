/**
 * /signup/check-mail?email=: after signing up (or after a sign-in refused for an unconfirmed
 * address), where the confirmation link went and what comes next, with the mail sent again on asking.
 */
import { Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { ResendConfirmation } from './resend-confirmation';

export function CheckMailPage({ email }: { email?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('signUp:checkMail.title')}>
      <Stack gap="4" data-testid="check-mail">
        {email ? (
          <Text>
            {t('signUp:checkMail.sentTo')}{' '}
            <Text as="strong" overflowWrap="anywhere" data-testid="check-mail-address">
              {email}
            </Text>
            .
          </Text>
        ) : (
          <Text>{t('signUp:checkMail.sentToUnknown')}</Text>
        )}
        <Text>{t('signUp:checkMail.next')}</Text>
        <Text color="fg.muted" fontSize="sm">
          {t('signUp:checkMail.noMail')}
        </Text>
        <ResendConfirmation email={email} />
        <Stack gap="2" align="flex-start">
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signin">{t('auth:backToSignIn')}</RouterLink>
          </Link>
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/signup">{t('signUp:checkMail.wrongAddress')}</RouterLink>
          </Link>
        </Stack>
      </Stack>
    </PublicLayout>
  );
}
